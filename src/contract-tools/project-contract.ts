import { ContractRefused, loadGatedContract } from '../sandbox/contract-gate.ts';
import type { ContractSource } from './contract-source.ts';
import { ContractUnavailable } from './contract-source.ts';

/** The contract of a project directory, once the gate of `npm run lint` has passed over it. */
export function gatedProjectContract(projectDirectory: string): ContractSource {
  return async () => {
    try {
      return await loadGatedContract(projectDirectory);
    } catch (error) {
      if (error instanceof ContractRefused) throw new ContractUnavailable(error.message);
      throw error;
    }
  };
}
