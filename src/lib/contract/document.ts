import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { bundleDirectory } from './bundle.ts';
import { pointerSegments } from './json-pointer.ts';

export type OpenApiDocument = OpenAPIV3_1.Document;
export type SchemaObject = OpenAPIV3_1.SchemaObject;
export type ReferenceObject = OpenAPIV3_1.ReferenceObject;

/** A contract that cannot be turned into pages; the message says what is wrong and where. */
export class ContractError extends Error {
  /** Where: a JSON pointer of the bundled document, or the file read. */
  readonly location: string;
  /** What is wrong there, in a sentence. */
  readonly problem: string;
  /** The JSON pointer of the bundled document, when the problem is at one. */
  readonly pointer: string | undefined;

  constructor(location: string, problem: string, pointer?: string) {
    super(`${location}: ${problem}`);
    this.name = 'ContractError';
    this.location = location;
    this.problem = problem;
    this.pointer = pointer ?? (location.startsWith('#') ? location : undefined);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isReference(value: unknown): value is ReferenceObject {
  return isRecord(value) && typeof value.$ref === 'string';
}

function isOpenApi31Document(value: unknown): value is OpenApiDocument {
  return (
    isRecord(value) &&
    typeof value.openapi === 'string' &&
    value.openapi.startsWith('3.1.') &&
    isRecord(value.info) &&
    isRecord(value.paths)
  );
}

/** Narrows a parsed bundle to an OpenAPI 3.1 document, or says why it is not one. */
export function asOpenApiDocument(value: unknown, source: string): OpenApiDocument {
  if (!isOpenApi31Document(value)) {
    throw new ContractError(source, 'is not an OpenAPI 3.1 document with `info` and `paths`');
  }
  return value;
}

/** Reads the document that the build bundled from `openapi/` (see `bundleContract`). */
export function loadBundledDocument(
  jsonPath = path.resolve(bundleDirectory, 'v1.json'),
): OpenApiDocument {
  return asOpenApiDocument(JSON.parse(readFileSync(jsonPath, 'utf8')), jsonPath);
}

/**
 * Turns a reading of the bundled document into one that runs once per bundle: every generated
 * page asks for the same answers, and a new bundle (the dev server re-bundles on start) has a
 * new modification time, so it is read again.
 */
export function oncePerBundle<T>(derive: (document: OpenApiDocument) => T): (jsonPath?: string) => T {
  let cached: { path: string; modified: number; value: T } | undefined;
  return (jsonPath = path.resolve(bundleDirectory, 'v1.json')) => {
    const modified = statSync(jsonPath).mtimeMs;
    if (cached?.path !== jsonPath || cached.modified !== modified) {
      cached = { path: jsonPath, modified, value: derive(loadBundledDocument(jsonPath)) };
    }
    return cached.value;
  };
}

/** Follows a local JSON pointer such as `#/components/schemas/ApiKey` in a bundled document. */
export function resolvePointer(document: OpenApiDocument, pointer: string): unknown {
  if (!pointer.startsWith('#/')) {
    throw new ContractError(pointer, 'only local references are expected in a bundled document');
  }
  let node: unknown = document;
  for (const segment of pointerSegments(pointer)) {
    if (!isRecord(node) && !Array.isArray(node)) {
      throw new ContractError(pointer, `cannot descend into "${segment}"`);
    }
    node = (node as Record<string, unknown>)[segment];
    if (node === undefined) throw new ContractError(pointer, `"${segment}" does not exist`);
  }
  return node;
}

/** Replaces a reference by what it points at, following chains of references. */
export function dereference<T>(document: OpenApiDocument, value: T | ReferenceObject): T {
  let current: unknown = value;
  const seen = new Set<string>();
  while (isReference(current)) {
    if (seen.has(current.$ref)) throw new ContractError(current.$ref, 'is a circular reference');
    seen.add(current.$ref);
    current = resolvePointer(document, current.$ref);
  }
  return current as T;
}
