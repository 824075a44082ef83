/**
 * The JSON Schema tools/list carries (src/mcp-server/json-schema-once.ts): smaller than zod's, by
 * what says nothing, and validating exactly as zod does.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { anyJsonValueKey, sdkJsonSchemaTarget, withJsonSchemaOnce } from '../../src/mcp-server/json-schema-once.ts';
import { jsonObject, jsonValue } from '../../src/mcp-server/tools/tool.ts';

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

test('any JSON value is one definition of its six types, which every place that takes one names, and the value itself costs no check', async () => {
  const schema = z.object({ body: jsonValue, bodies: z.array(jsonValue), request: jsonObject });
  const zods = JSON.stringify(z.toJSONSchema(z.object({ body: z.json(), bodies: z.array(z.json()), request: z.record(z.string(), z.json()) }), { io: 'output' }));
  const listed = withJsonSchemaOnce(schema, true)['~standard'].jsonSchema.output(options) as { $defs?: Record<string, { anyOf?: { type?: string }[] }> };
  const text = JSON.stringify(listed);
  assert.deepEqual(Object.keys(listed.$defs ?? {}), ['jsonValue']);
  assert.deepEqual(listed.$defs?.jsonValue?.anyOf?.map((branch) => branch.type), ['string', 'number', 'boolean', 'null', 'array', 'object']);
  assert.ok(listed.$defs?.jsonValue?.anyOf?.every((branch) => Object.keys(branch).length === 1), 'each branch only names its type');
  assert.equal(text.split('"$ref":"#/$defs/jsonValue"').length - 1, 3, text);
  assert.ok(!text.includes(anyJsonValueKey), 'the mark is not listed');
  assert.ok(text.length < zods.length - 80, 'shorter than zod\'s recursion');
  const valid = { body: { deep: [1, { a: null }] }, bodies: ['text', 2, null], request: { action: 'x' } };
  assert.deepEqual(await withJsonSchemaOnce(schema)['~standard'].validate(valid), { value: valid });
  assert.ok('issues' in (await withJsonSchemaOnce(schema)['~standard'].validate({ ...valid, request: 'text' })), 'a JSON object is still an object');
});

test('a schema is converted when it is made, for the target the SDK converts tool schemas for, and not again when the SDK asks', () => {
  const sdkDist = path.resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/server/dist');
  const targets = readdirSync(sdkDist)
    .filter((file) => file.endsWith('.mjs'))
    .flatMap((file) => [...readFileSync(path.join(sdkDist, file), 'utf8').matchAll(/JSON_SCHEMA_CONVERSION_TARGET = "([^"]+)"/g)].map((match) => match[1]));
  assert.deepEqual([...new Set(targets)], [sdkJsonSchemaTarget], "the SDK's JSON_SCHEMA_CONVERSION_TARGET");
  const schema = z.object({ name: z.string() });
  const { jsonSchema } = schema['~standard'];
  let conversions = 0;
  const counted = { '~standard': { ...schema['~standard'], jsonSchema: { input: (options: { target: string }) => (conversions++, jsonSchema.input(options)), output: (options: { target: string }) => (conversions++, jsonSchema.output(options)) } } };
  const once = withJsonSchemaOnce(counted as unknown as typeof schema);
  assert.equal(conversions, 2, 'input and output, when made');
  once['~standard'].jsonSchema.input({ target: sdkJsonSchemaTarget });
  once['~standard'].jsonSchema.output({ target: sdkJsonSchemaTarget });
  assert.equal(conversions, 2, 'nothing more when the SDK asks');
});
