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
 * The same schema, validating as before, whose JSON Schema is converted once and then reused.
 * The SDK converts a tool's schemas on every `tools/list`, and the output schema on every
 * `tools/call` of each fresh per-request instance (its memo lives on the instance): for this
 * server's schemas that conversion cost more than the rest of a call. Frozen, so that nothing can
 * change the one copy every answer shares.
 */
export function withJsonSchemaOnce<Input, Output>(schema: StandardSchemaWithJSON<Input, Output>): StandardSchemaWithJSON<Input, Output> {
  const standard = schema['~standard'];
  const converted = new Map<string, Record<string, unknown>>();
  const once = (io: 'input' | 'output') => (options: JsonSchemaOptions) => {
    const key = `${io} ${JSON.stringify(options)}`;
    let json = converted.get(key);
    if (json === undefined) {
      json = deepFreeze(standard.jsonSchema[io](options));
      converted.set(key, json);
    }
    return json;
  };
  return { '~standard': { version: standard.version, vendor: standard.vendor, validate: standard.validate, jsonSchema: { input: once('input'), output: once('output') } } };
}
