import type { OpenApiDocument, SchemaObject } from './document.ts';
import { childPointer } from './json-pointer.ts';
import { ContractError, isRecord, isReference, resolvePointer } from './document.ts';

/**
 * A JSON pointer into the bundled document, with the source file it most likely came from.
 * Redocly names bundled components after their files (`components/schemas/Note.yaml` becomes
 * `#/components/schemas/Note`), so a maintainer can open the right file from the message.
 */
export function describeLocation(pointer: string): string {
  const component = /^#\/components\/([^/]+)\/([^/]+)/.exec(pointer);
  if (component) return `${pointer} (openapi/components/${component[1]}/${component[2]}.yaml)`;
  if (pointer.startsWith('#/x-transitions')) return `${pointer} (openapi/components/transitions.yaml)`;
  return `${pointer} (openapi/)`;
}

export { childPointer };

/** Throws a `ContractError` that names the place in the contract and what is wrong there. */
export function contractError(pointer: string, problem: string): ContractError {
  return new ContractError(describeLocation(pointer), problem, pointer);
}

/** A schema after its `$ref` was followed, with the pointer of where it was found. */
export interface ResolvedSchema {
  schema: SchemaObject;
  /** Where the schema was written: the referenced component when there was a `$ref`. */
  pointer: string;
}

/**
 * Follows a schema's `$ref` and lays the keywords written beside it on top. OpenAPI 3.1 allows
 * siblings of `$ref` (JSON Schema 2020-12), and the contract uses them to give a shared schema
 * such as `SubscriptionStatus` a description that fits the field, or to mark it deprecated.
 */
export function resolveSchema(document: OpenApiDocument, value: unknown, pointer: string, followed: readonly string[] = []): ResolvedSchema {
  if (isReference(value)) {
    const { $ref, ...siblings } = value;
    // A chain of references that comes back to where it started would never end: it is named instead.
    if (followed.includes($ref)) throw contractError(pointer, `is a circular reference: ${[...followed, $ref].join(' → ')}`);
    const target = resolveSchema(document, resolveReference(document, $ref, pointer), $ref, [...followed, $ref]);
    return { schema: { ...target.schema, ...siblings }, pointer: target.pointer };
  }
  if (!isRecord(value)) throw contractError(pointer, 'is expected to be a schema object');
  return { schema: value, pointer };
}

function resolveReference(document: OpenApiDocument, ref: string, pointer: string): unknown {
  try {
    return resolvePointer(document, ref);
  } catch (error) {
    if (error instanceof ContractError) {
      throw contractError(pointer, `refers to ${ref}, which does not exist in the bundled document`);
    }
    throw error;
  }
}

/** Follows a non-schema `$ref` (a response, an example, a header) to the object it names. */
export function resolveObject(
  document: OpenApiDocument,
  value: unknown,
  pointer: string,
): { value: Record<string, unknown>; pointer: string } {
  let current = value;
  let currentPointer = pointer;
  const seen = new Set<string>();
  while (isReference(current)) {
    if (seen.has(current.$ref)) throw contractError(pointer, `has a circular reference through ${current.$ref}`);
    seen.add(current.$ref);
    currentPointer = current.$ref;
    current = resolveReference(document, current.$ref, pointer);
  }
  if (!isRecord(current)) throw contractError(currentPointer, 'is expected to be an object');
  return { value: current, pointer: currentPointer };
}

/** The one item of a list the contract must have exactly one of, or says which ones it found. */
export function exactlyOne<T>(items: T[], pointer: string, what: string, nameOf: (item: T) => string): T {
  const [only] = items;
  if (only === undefined || items.length > 1) {
    throw contractError(pointer, `exactly one ${what} is expected, found ${items.map(nameOf).join(', ') || 'none'}`);
  }
  return only;
}

/** Reads a non-empty string, or says where it is missing. */
export function requiredString(value: unknown, pointer: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw contractError(pointer, `${what} is missing or empty`);
  }
  return value;
}

/** The schemas of a `oneOf` (or `anyOf`), each resolved. */
export function alternatives(document: OpenApiDocument, resolved: ResolvedSchema): ResolvedSchema[] {
  const keyword = resolved.schema.oneOf ? 'oneOf' : resolved.schema.anyOf ? 'anyOf' : undefined;
  if (keyword === undefined) return [];
  const list: unknown = resolved.schema[keyword];
  if (!Array.isArray(list)) throw contractError(childPointer(resolved.pointer, keyword), 'is expected to be a list');
  return list.map((item, index) => resolveSchema(document, item, childPointer(resolved.pointer, keyword, index)));
}
