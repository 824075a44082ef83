import type { OpenAPIV3_1 } from 'openapi-types';
import { dereference, isRecord, type OpenApiDocument } from '../contract/document.ts';
import { encodePointerSegment } from '../contract/json-pointer.ts';
import { httpMethods } from '../http/methods.ts';

/**
 * The operations of a document and the media types of their bodies, references followed: what
 * the comparison of two releases (./comparison.ts) and the index of where each schema is used
 * (./document-uses.ts) both walk.
 */

/** Whether a schema is read in a request or in a response. */
export type Direction = 'request' | 'response';

export interface Operation {
  /** `POST /action` */
  label: string;
  /** `#/paths/~1action/post` */
  pointer: string;
  operation: OpenAPIV3_1.OperationObject;
}

export function operationsOf(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [pathName, rawItem] of Object.entries(document.paths ?? {})) {
    const item = dereference<OpenAPIV3_1.PathItemObject | undefined>(document, rawItem);
    if (!isRecord(item)) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const label = `${method.toUpperCase()} ${pathName}`;
      operations.set(label, { label, pointer: `#/paths/${encodePointerSegment(pathName)}/${method}`, operation });
    }
  }
  return operations;
}

export function mediaTypesOf(
  document: OpenApiDocument,
  holder: OpenAPIV3_1.RequestBodyObject | OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject | undefined,
): Record<string, OpenAPIV3_1.MediaTypeObject> {
  if (holder === undefined) return {};
  const resolved = dereference<OpenAPIV3_1.RequestBodyObject | OpenAPIV3_1.ResponseObject>(document, holder);
  return isRecord(resolved.content) ? resolved.content : {};
}
