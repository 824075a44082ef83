import { ContractError, loadBundledDocument } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';

/** The contract cannot be served or checked against; the message says why, for the user. */
export class ContractUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractUnavailable';
  }
}

/** Where a command takes its contract from; rejects with `ContractUnavailable` when there is none to use. */
export type ContractSource = () => Promise<ExecutableContract>;

/**
 * A contract read from a bundled document that passed the gate when it was written, such as the
 * one the published tools carry: no gate runs, and Redocly need not be installed.
 */
export function bundledDocumentContract(jsonPath: string): ContractSource {
  let reading: Promise<ExecutableContract> | undefined;
  return () => {
    reading ??= (async () => {
      try {
        return readExecutableContract(loadBundledDocument(jsonPath));
      } catch (error) {
        if (error instanceof ContractError || (error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) {
          throw new ContractUnavailable(`The bundled contract ${jsonPath} cannot be read: ${(error as Error).message}`);
        }
        throw error;
      }
    })();
    return reading;
  };
}
