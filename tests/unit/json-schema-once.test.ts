/**
 * The JSON Schema tools/list carries (src/mcp-server/json-schema-once.ts): smaller than zod's, by
 * what says nothing, and validating exactly as zod does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { withJsonSchemaOnce } from '../../src/mcp-server/json-schema-once.ts';

const options = { target: 'draft-2020-12' } as const;

test('two copies of one definition become one, every reference names it, and validation is unchanged', async () => {
  const schema = z.object({ first: z.json(), second: z.record(z.string(), z.json()), count: z.number().int() });
  const zods = z.toJSONSchema(schema, { io: 'output' }) as { $defs?: Record<string, unknown> };
  assert.equal(Object.keys(zods.$defs ?? {}).length, 2, 'zod writes the JSON value twice');
  const listed = withJsonSchemaOnce(schema, true)['~standard'].jsonSchema.output(options) as { $defs?: Record<string, unknown> };
  const names = Object.keys(listed.$defs ?? {});
  assert.equal(names.length, 1);
  const text = JSON.stringify(listed);
  const references = [...text.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)].map((match) => match[1]);
  assert.ok(references.length >= 2);
  assert.ok(references.every((name) => name === names[0]), text);
  assert.doesNotMatch(text, /9007199254740991|"propertyNames"|"\$schema"/);
  const valid = { first: [1, { a: null }], second: { b: 'c' }, count: 3 };
  assert.deepEqual(await withJsonSchemaOnce(schema)['~standard'].validate(valid), await schema['~standard'].validate(valid));
  assert.ok('issues' in (await withJsonSchemaOnce(schema)['~standard'].validate({ ...valid, count: 1.5 })));
});

test('any JSON value is one of its six types, without the recursion zod writes, and still validates as zod does', async () => {
  const schema = z.object({ body: z.json() });
  const zods = JSON.stringify(z.toJSONSchema(schema, { io: 'output' }));
  const listed = withJsonSchemaOnce(schema, true)['~standard'].jsonSchema.output(options) as { $defs?: Record<string, { anyOf?: { type?: string }[] }> };
  const definitions = Object.values(listed.$defs ?? {});
  assert.equal(definitions.length, 1);
  assert.deepEqual(definitions[0]?.anyOf?.map((branch) => branch.type), ['string', 'number', 'boolean', 'null', 'array', 'object']);
  assert.ok(definitions[0]?.anyOf?.every((branch) => Object.keys(branch).length === 1), 'each branch only names its type');
  assert.ok(JSON.stringify(listed).length < zods.length - 80, 'shorter by the recursion');
  for (const value of [{ body: { deep: [1, { a: null }] } }, { body: 'text' }, { body: undefined }]) {
    assert.deepEqual(await withJsonSchemaOnce(schema)['~standard'].validate(value), await schema['~standard'].validate(value));
  }
});
