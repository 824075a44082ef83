/**
 * The MCP tools' JSON object schema (`jsonObject`, src/mcp-server/tools/tool.ts): a member named
 * `__proto__`, which Zod's record would drop, is refused with a message instead of checked as a
 * body without it; its JSON Schema stays that of a plain record.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { jsonObject, jsonValue, prototypeMemberMessage } from '../../src/mcp-server/tools/tool.ts';

describe('the tools\' JSON object schema', () => {
  test('refuses a member named __proto__, as sent in JSON, rather than dropping it', () => {
    const body: unknown = JSON.parse('{"__proto__":{"a":1},"action":"x","subscription_id":1}');
    const parsed = jsonObject.safeParse(body);
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error?.issues.map((issue) => issue.message), [prototypeMemberMessage]);
  });

  test('keeps every other member, constructor included, and says the same JSON Schema as a plain record', () => {
    const body: unknown = JSON.parse('{"constructor":{"a":1},"action":"x","nested":{"__proto__":2}}');
    const parsed = jsonObject.parse(body);
    assert.deepEqual(Object.keys(parsed), ['constructor', 'action', 'nested']);
    for (const io of ['input', 'output'] as const) {
      assert.deepEqual(z.toJSONSchema(jsonObject, { io }), z.toJSONSchema(z.record(z.string(), jsonValue), { io }));
    }
  });
});
