/**
 * The PHP library as the site publishes it: a zip of the generated package, listed with every
 * earlier release's in the site's Composer repository (composer-repository.ts), which gives each
 * zip its version, as Packagist does; composer.json carries none, so that `composer validate
 * --strict` passes. The zip carries a LICENSE naming the contract's licence.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { loadGatedContract } from '../../sandbox/contract-gate.ts';
import type { ClientPackage } from '../client-package.ts';
import { contractLicense } from '../shared/license.ts';
import { writeZip } from '../../lib/packaging/zip.ts';
import { clientPackageDate } from '../shared/package-date.ts';
import { writePhpPackage } from './generate.ts';
import { php74Problems } from './php-74-syntax.ts';
import { composerPackageName } from './php-source.ts';

/** The zip's name for a contract version: `subscription-lifecycle-client-php-1.1.0.zip`. */
export function phpZipName(version: string): string {
  return `subscription-lifecycle-client-php-${version}.zip`;
}

/** The package's LICENSE: the contract's licence (src/clients/shared/license.ts), which the generated code derives from, and where its text is. */
function licenseFile(contract: ExecutableContract): string {
  const license = contractLicense(contract);
  return `${composerPackageName}, generated from the OpenAPI document ${contract.model.documentVersion} of the
Subscription Lifecycle Action Service.

The document is published under ${license.name}${license.identifier !== license.name ? ` (SPDX: ${license.identifier})` : ''}, and so is this
package, which is derived from it.

The licence's text: ${license.textUrl}
`;
}

/**
 * What the package's files become for a Composer repository: composer.json without `version`
 * (the repository names each zip's version; `composer validate --strict` refuses the field), and a
 * LICENSE beside it. Returns the files to pack.
 */
function forComposerRepository(contract: ExecutableContract, staging: string, written: string[]): string[] {
  const manifestPath = path.join(staging, 'composer.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  delete manifest.version;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 4)}\n`);
  writeFileSync(path.join(staging, 'LICENSE'), licenseFile(contract));
  return [...written.filter((file) => file !== 'LICENSE'), 'LICENSE'];
}

/** Writes the zip of the package generated from `contract` into `outDirectory`; refuses PHP newer than the floor. */
export async function packPhpClient(contract: ExecutableContract, outDirectory: string): Promise<string> {
  const staging = mkdtempSync(path.join(tmpdir(), 'php-client-pack-'));
  try {
    const written = forComposerRepository(contract, staging, writePhpPackage(contract, staging));
    const problems = written.filter((file) => file.endsWith('.php')).flatMap((file) => php74Problems(file, readFileSync(path.join(staging, file), 'utf8')));
    if (problems.length > 0) throw new Error(`The PHP library uses syntax newer than its floor:\n${problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`).join('\n')}`);
    await mkdir(outDirectory, { recursive: true });
    const target = path.resolve(outDirectory, phpZipName(contract.model.documentVersion));
    writeZip(target, new Map(written.map((file) => [file, path.join(staging, file)])), { date: clientPackageDate });
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
