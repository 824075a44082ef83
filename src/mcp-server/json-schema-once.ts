import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * A JSON Schema as tools/list carries it, smaller: without `$schema` (a tool's schema is JSON
 * Schema 2020-12 unless it says otherwise, so saying it costs every agent characters), and, for
 * an output schema, without `additionalProperties: false` (a client reads answers tolerantly, as
 * it reads the API's: what it does not know, it ignores).
 */
function listed(json: Record<string, unknown>, open: boolean): Record<string, unknown> {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, member]) => !(open && key === 'additionalProperties' && member === false))
        .map(([key, member]) => [key, strip(member)]),
    );
  };
  const { $schema: _dialect, ...rest } = json;
  return strip(rest) as Record<string, unknown>;
}

/**
 * The same schema, validating as before, whose JSON Schema is converted once and then reused.
 * The SDK converts a tool's schemas on every `tools/list`, and the output schema on every
 * `tools/call` of each fresh per-request instance (its memo lives on the instance): for this
 * server's schemas that conversion cost more than the rest of a call. Frozen, so that nothing can
 * change the one copy every answer shares.
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
  return { '~standard': { version: standard.version, vendor: standard.vendor, validate: standard.validate, jsonSchema: { input: once('input'), output: once('output') } } };
}
