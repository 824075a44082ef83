import type { OpenAPIV3_1 } from 'openapi-types';
import { ContractError, isRecord, isReference, resolvePointer, type OpenApiDocument, type SchemaObject } from './document.ts';
import { childPointer } from './json-pointer.ts';

/**
 * A part of the bundled document with the JSON pointer it was found at, so that a problem found
 * in it names the source file. Reading this way never throws: a part that is missing or of the
 * wrong kind reads as `undefined`, and whoever needs it reports that once.
 */
export interface Located<T> {
  node: T;
  pointer: string;
}

export function isSchemaObject(value: unknown): value is SchemaObject {
  return isRecord(value) && !isReference(value);
}

export function isPathItem(value: unknown): value is OpenAPIV3_1.PathItemObject {
  return isRecord(value) && !isReference(value);
}

export function isOperation(value: unknown): value is OpenAPIV3_1.OperationObject {
  return isRecord(value) && !isReference(value);
}

export function isRequestBody(value: unknown): value is OpenAPIV3_1.RequestBodyObject {
  return isRecord(value) && isRecord(value.content);
}

export function isMediaType(value: unknown): value is OpenAPIV3_1.MediaTypeObject {
  return isRecord(value);
}

export function isExample(value: unknown): value is OpenAPIV3_1.ExampleObject {
  return isRecord(value) && !isReference(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Follows local references from `pointer`, keeping the pointer of what they lead to; a cycle stops where it closes. */
export function follow(document: OpenApiDocument, node: unknown, pointer: string): Located<unknown> {
  let current: Located<unknown> = { node, pointer };
  const seen = new Set<string>();
  while (isReference(current.node) && !seen.has(current.node.$ref)) {
    seen.add(current.node.$ref);
    const target = current.node.$ref;
    try {
      current = { node: resolvePointer(document, target), pointer: target };
    } catch (error) {
      if (error instanceof ContractError) return { node: undefined, pointer: current.pointer };
      throw error;
    }
  }
  return current;
}

/** The member at `segments` below a located part (without following references), with its pointer. */
export function child(parent: Located<unknown>, ...segments: (string | number)[]): Located<unknown> {
  let node = parent.node;
  for (const segment of segments) {
    node = Array.isArray(node) ? node[Number(segment)] : isRecord(node) ? node[String(segment)] : undefined;
  }
  return { node, pointer: childPointer(parent.pointer, ...segments) };
}

/** A located part narrowed by a type guard, or `undefined`. */
export function narrowed<T>(located: Located<unknown>, guard: (value: unknown) => value is T): Located<T> | undefined {
  return guard(located.node) ? { node: located.node, pointer: located.pointer } : undefined;
}

/** Every schema object reachable from `start`, each once, with the pointer it was written at. */
export function reachableSchemas(document: OpenApiDocument, start: Located<unknown>): Located<SchemaObject>[] {
  const found: Located<SchemaObject>[] = [];
  const seen = new Set<string>();
  const visit = (located: Located<unknown>): void => {
    const schema = follow(document, located.node, located.pointer);
    if (!isSchemaObject(schema.node) || seen.has(schema.pointer)) return;
    seen.add(schema.pointer);
    found.push({ node: schema.node, pointer: schema.pointer });
    for (const name of Object.keys(schema.node.properties ?? {})) visit(child(schema, 'properties', name));
    if ('items' in schema.node) visit(child(schema, 'items'));
    for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = schema.node[keyword];
      if (Array.isArray(list)) list.forEach((_, index) => visit(child(schema, keyword, index)));
    }
    if (isRecord(schema.node.additionalProperties)) visit(child(schema, 'additionalProperties'));
  };
  visit(start);
  return found;
}

/** The JSON body schemas of every response of an operation, each where it is written. */
export function responseBodySchemas(document: OpenApiDocument, operation: Located<OpenAPIV3_1.OperationObject> | undefined): Located<unknown>[] {
  if (operation === undefined) return [];
  return Object.keys(operation.node.responses ?? {}).flatMap((status) => {
    const response = follow(document, operation.node.responses?.[status], `${operation.pointer}/responses/${status}`);
    if (!isRecord(response.node) || !isRecord(response.node.content)) return [];
    return Object.keys(response.node.content).map((mediaType) => child(response, 'content', mediaType, 'schema'));
  });
}
