/**
 * The TypeScript client as the site publishes it: the contract through the gate, the package
 * built from it (build.ts), packed by `npm pack` into `subscription-lifecycle-client-<version>.tgz`.
 */
import path from 'node:path';
import type { ClientPackage } from '../client-package.ts';
import { loadGatedContract } from '../../sandbox/contract-gate.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { packFolder } from '../../lib/packaging/npm-pack.ts';
import { buildTypescriptClient, typescriptClientDirectory } from './build.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../../..');

/** Builds and packs the client of a contract; `packageDirectory` defaults to the project's `.generated/clients/typescript/`. */
export function packTypescriptClient(contract: ExecutableContract, outDirectory: string, options: { packageDirectory?: string; repository?: string } = {}): string {
  const packageDirectory = path.resolve(projectDirectory, options.packageDirectory ?? typescriptClientDirectory);
  buildTypescriptClient(contract, packageDirectory, options.repository);
  return packFolder(packageDirectory, outDirectory);
}

export const typescriptClientPackage: ClientPackage = {
  language: 'typescript',
  registry: 'npm',
  // The contract as the gate passed it, read once per process for every package (src/sandbox/contract-gate.ts).
  pack: async (outDirectory, options = {}) => packTypescriptClient(options.contract ?? (await loadGatedContract(projectDirectory)), outDirectory, { repository: options.repository }),
};
