/**
 * The PHP library as the site publishes it: a zip of the generated package, which Composer
 * installs from an `artifact` repository (composer.json carries its version), and which the
 * release workflow submits to Packagist.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { loadGatedContract } from '../../sandbox/contract-gate.ts';
import type { ClientPackage } from '../client-package.ts';
import { writeZip } from '../zip.ts';
import { writePhpPackage } from './generate.ts';
import { php74Problems } from './php-74-syntax.ts';

/** The zip's name for a contract version: `subscription-lifecycle-client-php-1.1.0.zip`. */
export function phpZipName(version: string): string {
  return `subscription-lifecycle-client-php-${version}.zip`;
}

/** Writes the zip of the package generated from `contract` into `outDirectory`; refuses PHP newer than the floor. */
export async function packPhpClient(contract: ExecutableContract, outDirectory: string): Promise<string> {
  const staging = mkdtempSync(path.join(tmpdir(), 'php-client-pack-'));
  try {
    const written = writePhpPackage(contract, staging);
    const problems = written.filter((file) => file.endsWith('.php')).flatMap((file) => php74Problems(file, readFileSync(path.join(staging, file), 'utf8')));
    if (problems.length > 0) throw new Error(`The PHP library uses syntax newer than its floor:\n${problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`).join('\n')}`);
    await mkdir(outDirectory, { recursive: true });
    const target = path.resolve(outDirectory, phpZipName(contract.model.documentVersion));
    writeZip(target, new Map(written.map((file) => [file, path.join(staging, file)])));
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const projectDirectory = path.resolve(import.meta.dirname, '../../..');

export const phpClientPackage: ClientPackage = {
  language: 'php',
  registry: 'packagist',
  pack: async (outDirectory, options = {}) => packPhpClient(options.contract ?? (await loadGatedContract(projectDirectory)), outDirectory),
};
