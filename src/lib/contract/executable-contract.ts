import type { ExecutableContract } from './serving-contract.ts';
import { readExecutableContractWith } from './serving-contract.ts';
import { createContractValidator } from './schema-validator.ts';
import type { OpenApiDocument } from './document.ts';
import { oncePerBundle } from './document.ts';

export type { ExecutableContract };

/** The executable contract with Ajv's validator of the document's schemas (Node only: Ajv compiles code at run time). */
export function readExecutableContract(document: OpenApiDocument): ExecutableContract {
  return readExecutableContractWith(document, createContractValidator(document));
}

/** The executable contract of the document the build bundled, read once per bundle. */
export const loadExecutableContract = oncePerBundle(readExecutableContract);
