import type { Action, ReferenceModel, ResponseRow } from './model.ts';
import { readReferenceModel } from './actions.ts';
import type { ContractValidator } from './schema-validator.ts';
import type { OpenApiDocument } from './document.ts';
import { throttledResponse } from './response-lookups.ts';
import { retryAfterHeader } from './response-names.ts';
import type { ResultShape, ServiceErrors } from './response-shapes.ts';
import { readResultShape, readServiceErrors } from './response-shapes.ts';

/**
 * Everything a program needs to serve or to check the endpoint, read from one bundled document:
 * the reference model, which member of each body is which, and a validator of its schemas.
 */
export interface ExecutableContract {
  document: OpenApiDocument;
  model: ReferenceModel;
  result: ResultShape;
  errors: ServiceErrors;
  /** The response a throttling host sends, and the header that says how long to wait. */
  throttled: ResponseRow;
  retryAfterHeader: string;
  /** The action with this identifier, if the document has one. */
  action(identifier: string): Action | undefined;
  /**
   * Validates a value against any schema of the document, as published: requests strict where the
   * document closes them, answers open to members a later release adds.
   */
  schemas: ContractValidator;
  /** The response the document gives for a status, or undefined if it gives none. */
  response(status: number | string): ResponseRow | undefined;
}

/**
 * The executable contract with the schema validator it is given. This module imports no
 * validator, so a build for a place that may not compile code at run time (a browser page whose
 * policy has no `unsafe-eval`, workerd) can read the contract without bundling Ajv.
 */
export function readExecutableContractWith(document: OpenApiDocument, schemas: ContractValidator): ExecutableContract {
  return executableContractOf(document, readReferenceModel(document), schemas);
}

/** The contract around a model already read from `document`: what every reader of the model builds on it. */
export function executableContractOf(document: OpenApiDocument, model: ReferenceModel, schemas: ContractValidator): ExecutableContract {
  const byIdentifier = new Map(model.actions.map((action) => [action.identifier, action]));
  return {
    document,
    model,
    result: readResultShape(model),
    errors: readServiceErrors(model),
    throttled: throttledResponse(model.responses),
    retryAfterHeader,
    action: (identifier) => byIdentifier.get(identifier),
    schemas,
    response: (status) => model.responses.find((response) => response.status === String(status)),
  };
}

/** A validator for a build that has none: the sandbox's answers never need one, only its seed check and the conformance checks. */
export const noSchemaValidator: ContractValidator = {
  schemaAt(pointer) {
    throw new Error(`${pointer}: this build validates no schema (it compiles no code at run time)`);
  },
};
