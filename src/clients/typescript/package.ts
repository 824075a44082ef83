/**
 * The TypeScript client as the site publishes it: the contract through the gate, the package
 * built from it (build.ts), packed by `npm pack` into `subscription-lifecycle-client-<version>.tgz`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ClientPackage } from '../client-package.ts';
import { loadGatedContract } from '../../sandbox/contract-gate.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { buildTypescriptClient, typescriptClientDirectory } from './build.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../../..');

/** Packs a built package folder with `npm pack` into `outDirectory`; returns the tarball's absolute path. */
export function packFolder(packageDirectory: string, outDirectory: string): string {
  const destination = path.resolve(outDirectory);
  mkdirSync(destination, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], { cwd: packageDirectory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  ) as { filename: string }[];
  const [first] = packed;
  if (first === undefined) throw new Error('npm pack wrote no tarball.');
  return path.join(destination, first.filename);
}

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
  pack: async (outDirectory, options = {}) => packTypescriptClient(await loadGatedContract(projectDirectory), outDirectory, { repository: options.repository }),
};
