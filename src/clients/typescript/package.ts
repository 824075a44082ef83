/**
 * The TypeScript client as the site publishes it: the contract through the gate, the package
 * built from it (build.ts), packed by `npm pack` into `subscription-lifecycle-client-<version>.tgz`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientPackage } from '../client-package.ts';
import { loadGatedContract } from '../../gate/gated-contract.ts';
import { readExecutableContract, type ExecutableContract } from '../../lib/contract/executable-contract.ts';
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
  async pack(outDirectory, options = {}) {
    // The gate runs first: it rejects with every problem, and nothing is packed from a refused contract.
    const bundleDirectory = mkdtempSync(path.join(tmpdir(), 'typescript-client-gate-'));
    try {
      const { document } = await loadGatedContract(projectDirectory, { bundleDirectory });
      return packTypescriptClient(readExecutableContract(document), outDirectory, { repository: options.repository });
    } finally {
      rmSync(bundleDirectory, { recursive: true, force: true });
    }
  },
};
