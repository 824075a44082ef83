import { isRecord } from './document.ts';

/**
 * How the contract marks a list of values that version 1 may extend, such as the action
 * identifiers a response names. It follows Zalando's RESTful API guidelines, rule 112, in its
 * form for OpenAPI 3.1: a string schema whose description starts with "Extensible enum." and
 * whose `examples` list every value known today. Unlike `enum`, this does not make a validator
 * refuse a value added later, so a client generated from today's document keeps working.
 */
export const extensibleEnumPrefix = 'Extensible enum.';

/**
 * The values an extensible enum knows today, or undefined when the schema is not one. A closed
 * `enum` is not extensible: a new value there is a breaking change for whoever reads it.
 */
export function extensibleValues(schema: unknown): string[] | undefined {
  if (!isRecord(schema) || schema.type !== 'string' || 'enum' in schema) return undefined;
  if (typeof schema.description !== 'string' || !schema.description.trimStart().startsWith(extensibleEnumPrefix)) return undefined;
  const { examples } = schema;
  if (!Array.isArray(examples) || examples.length === 0 || !examples.every((value) => typeof value === 'string')) return undefined;
  return examples;
}

/** The description without the marker, for a page that shows the values as known values. */
export function withoutExtensibleMarker(description: string): string {
  const trimmed = description.trimStart();
  return trimmed.startsWith(extensibleEnumPrefix) ? trimmed.slice(extensibleEnumPrefix.length).trimStart() : description;
}

/** Where the contract lists every action identifier, for the schemas of responses that name one. */
export const actionNamePointer = '#/components/schemas/ActionName';

/** The action identifiers `ActionName` lists, as an extensible enum or a closed one; undefined without such a list. */
export function listedActionNames(components: { schemas?: Record<string, unknown> } | undefined): string[] | undefined {
  const actionName = components?.schemas?.ActionName;
  const listed: unknown = isRecord(actionName) ? (extensibleValues(actionName) ?? actionName.enum) : undefined;
  return Array.isArray(listed) && listed.every((value) => typeof value === 'string') ? listed : undefined;
}
