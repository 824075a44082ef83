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

export function isResponse(value: unknown): value is OpenAPIV3_1.ResponseObject {
  return isRecord(value) && !isReference(value);
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
