import assert from 'node:assert/strict';
import { test } from 'node:test';
import { itemsShownApart, pageJson } from './long-lists.ts';

const names = (count: number): string[] => Array.from({ length: count }, (_, index) => `action_${index + 1}`);

test('a body with short lists is written as JSON.stringify indents it', () => {
  const body = { code: 'refused', data: { status: 409, allowed: names(itemsShownApart), nested: [{ a: 1 }, []], empty: {} } };
  assert.equal(pageJson(body), JSON.stringify(body, null, 2));
});

test('a long list of plain values is one line, and the text parses back to the same body', () => {
  const body = { data: { allowed: names(itemsShownApart + 1), objects: Array.from({ length: itemsShownApart + 1 }, (_, id) => ({ id })) } };
  const text = pageJson(body);
  assert.deepEqual(JSON.parse(text), body);
  assert.ok(text.split('\n').some((line) => line.includes(`"action_1", "action_2"`) && line.includes(`"action_${itemsShownApart + 1}"]`)), text);
  // A list of objects keeps a line an item: only plain values are run together.
  assert.ok(text.split('\n').length > itemsShownApart, text);
});
