import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/** The bounds zod writes for every `z.number().int()`: JavaScript's safe integers, which say nothing to an agent. */
function isSafeIntegerBound(key: string, member: unknown): boolean {
  return (key === 'minimum' && member === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && member === Number.MAX_SAFE_INTEGER);
}

/** `propertyNames: { type: 'string' }`, which zod writes for every record: a JSON object's names are strings anyway. */
function isStringNames(key: string, member: unknown): boolean {
  return key === 'propertyNames' && JSON.stringify(member) === '{"type":"string"}';
}

/**
 * `$defs` with one copy of each definition: zod writes one per schema instance (two `z.json()`
 * give `__schema0` and `__schema1`, the same JSON value twice). A definition that equals an
 * earlier one once its own name is read as the earlier's is dropped, and every reference to it
 * names the earlier one.
 */
function withoutDuplicateDefinitions(json: Record<string, unknown>): Record<string, unknown> {
  const definitions = json.$defs;
  if (typeof definitions !== 'object' || definitions === null) return json;
  const kept: [string, string][] = [];
  const renamed = new Map<string, string>();
  for (const [name, definition] of Object.entries(definitions)) {
    const text = JSON.stringify(definition);
    const same = kept.find(([keptName, keptText]) => text.replaceAll(`"#/$defs/${name}"`, `"#/$defs/${keptName}"`) === keptText);
    if (same === undefined) kept.push([name, text]);
    else renamed.set(`#/$defs/${name}`, `#/$defs/${same[0]}`);
  }
  if (renamed.size === 0) return json;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, key === '$ref' && typeof member === 'string' ? (renamed.get(member) ?? member) : rewrite(member)]));
  };
  const keptNames = new Set(kept.map(([name]) => name));
  const { $defs: _all, ...rest } = json;
  return { ...(rewrite(rest) as Record<string, unknown>), $defs: Object.fromEntries(Object.entries(definitions).filter(([name]) => keptNames.has(name)).map(([name, definition]) => [name, rewrite(definition)])) };
}

/** The key `jsonValue` (tools/tool.ts) writes into its JSON Schema where any JSON value is meant. */
export const anyJsonValueKey = 'x-any-json-value';

/**
 * Any JSON value as one of the six types it may have, each branch of one type (a `type` array is
 * less portable): an array or object of any JSON values is any array or object, so the recursion
 * zod writes for `z.json()` says nothing more, and costs every agent characters.
 */
const anyJsonValue = { anyOf: ['string', 'number', 'boolean', 'null', 'array', 'object'].map((type) => ({ type })) };

/** Each place that takes any JSON value (`anyJsonValueKey`) as a reference to one definition of it. */
function withAnyJsonDefinition(json: Record<string, unknown>): Record<string, unknown> {
  let found = false;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    const members = Object.entries(value).filter(([key]) => key !== anyJsonValueKey);
    const marked = anyJsonValueKey in value;
    if (marked) found = true;
    return Object.fromEntries([...(marked ? [['$ref', '#/$defs/jsonValue']] : []), ...members.map(([key, member]) => [key, rewrite(member)])]);
  };
  const rewritten = rewrite(json) as Record<string, unknown>;
  if (!found) return json;
  const definitions = typeof rewritten.$defs === 'object' && rewritten.$defs !== null ? rewritten.$defs : {};
  return { ...rewritten, $defs: { ...definitions, jsonValue: anyJsonValue } };
}

/**
 * A JSON Schema as tools/list carries it, smaller: without `$schema` (a tool's schema is JSON
 * Schema 2020-12 unless it says otherwise, so saying it costs every agent characters), without
 * the safe-integer bounds of every integer or the string names of every record, with one copy of
 * each definition, any JSON value as one definition of its six types, and, for an output
 * schema, without `additionalProperties: false` (a client reads answers tolerantly, as it reads
 * the API's: what it does not know, it ignores). Validation is zod's and unchanged.
 */
function listed(json: Record<string, unknown>, open: boolean): Record<string, unknown> {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, member]) => !(open && key === 'additionalProperties' && member === false) && !isSafeIntegerBound(key, member) && !isStringNames(key, member))
        .map(([key, member]) => [key, strip(member)]),
    );
  };
  const { $schema: _dialect, ...rest } = json;
  return withAnyJsonDefinition(withoutDuplicateDefinitions(strip(rest) as Record<string, unknown>));
}

/**
 * The target the SDK converts a tool's schemas for (its `JSON_SCHEMA_CONVERSION_TARGET`, which it
 * does not export; tests/unit/json-schema-once.test.ts holds the two equal).
 */
export const sdkJsonSchemaTarget = 'draft-2020-12';

/**
 * The same schema, validating as before, whose JSON Schema is converted once, when it is made,
 * and then reused. The SDK converts a tool's schemas on every `tools/list`, and the output schema
 * on every `tools/call` of each fresh per-request instance (its memo lives on the instance): for
 * this server's schemas that conversion cost more than the rest of a call. Frozen, so that
 * nothing can change the one copy every answer shares.
 */
export function withJsonSchemaOnce<Input, Output>(schema: StandardSchemaWithJSON<Input, Output>, open = false): StandardSchemaWithJSON<Input, Output> {
  const standard = schema['~standard'];
  const converted = new Map<string, Record<string, unknown>>();
  const once = (io: 'input' | 'output') => (options: JsonSchemaOptions) => {
    const key = `${io} ${JSON.stringify(options)}`;
    let json = converted.get(key);
    if (json === undefined) {
      json = deepFreeze(listed(standard.jsonSchema[io](options), open));
      converted.set(key, json);
    }
    return json;
  };
  // Converted now, for the SDK's target: a server is prepared once per process (in workerd, when the
  // isolate starts, which has a second of CPU), and the first tools/list then finds it done.
  const jsonSchema = { input: once('input'), output: once('output') };
  jsonSchema.input({ target: sdkJsonSchemaTarget });
  jsonSchema.output({ target: sdkJsonSchemaTarget });
  return { '~standard': { version: standard.version, vendor: standard.vendor, validate: standard.validate, jsonSchema } };
}
