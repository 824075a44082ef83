/**
 * The site's Composer repository: `/composer/packages.json` in the format Composer reads from a
 * repository of type `composer` (https://getcomposer.org/doc/05-repositories.md#composer), listing
 * the PHP library's zip of every release of the contract, and of the version the site documents,
 * each with its version, its manifest and its SHA-1. After one `composer config
 * repositories.<name> composer <site>/composer`, `composer require` and `composer update` work as
 * they do from Packagist. Older releases' zips are built from their snapshots in
 * `openapi/releases/`, by today's generator.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unpackZip } from './php/composer-project.ts';
import { packPhpClient, phpZipName } from './php/package.ts';
import { composerPackageName } from './php/php-source.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { loadSnapshot, readReleases } from '../lib/releases/releases.ts';
import { generatorContract } from './surface/surfaces.ts';

/** The repository's folder on the site: `composer config repositories.… composer <site>/composer`. */
export const composerRepositoryPath = 'composer';

/** The repository's URL on a site. */
export function composerRepositoryUrl(siteUrl: string): string {
  return `${siteUrl.replace(/\/$/, '')}/${composerRepositoryPath}`;
}

export interface PublishedZip {
  version: string;
  /** The zip's absolute path on disk. */
  file: string;
}

/** What Composer reads of one version: the zip's own composer.json, its version, and where the zip is with its checksum. */
function versionEntry(zip: PublishedZip, distUrl: string): Record<string, unknown> {
  const unpacked = mkdtempSync(path.join(tmpdir(), 'composer-repository-'));
  try {
    const manifest = JSON.parse(readFileSync(path.join(unpackZip(zip.file, unpacked), 'composer.json'), 'utf8')) as Record<string, unknown>;
    const shasum = createHash('sha1').update(readFileSync(zip.file)).digest('hex');
    return { ...manifest, version: zip.version, dist: { type: 'zip', url: distUrl, shasum } };
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
}

/**
 * The repository's `packages.json`. Each zip's `dist.url` is its address on the published site;
 * a mirror preferred to it names the same file by a path from the repository's own origin, so that
 * the repository served from another origin (a local copy of the site over http) installs its own
 * zips rather than the published ones. The checksum holds for either.
 */
export function composerPackagesJson(zips: readonly PublishedZip[], siteUrl: string, downloadsPath: string): string {
  const versions = Object.fromEntries(
    [...zips]
      .sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }))
      .map((zip) => [zip.version, versionEntry(zip, `${siteUrl.replace(/\/$/, '')}/${downloadsPath}/${path.basename(zip.file)}`)]),
  );
  const mirror = `/${downloadsPath}/${phpZipName('%prettyVersion%')}`;
  return `${JSON.stringify({ packages: { [composerPackageName]: versions }, mirrors: [{ 'dist-url': mirror, preferred: true }] }, null, 2)}\n`;
}

/**
 * Packs the zip of every release older than `contract` from its snapshot into `downloadsDirectory`
 * (the current one is packed by the caller, with the other downloads), and writes
 * `<siteDirectory>/composer/packages.json` listing them all. Returns every zip listed.
 */
export async function publishComposerRepository(options: {
  projectDirectory: string;
  contract: ExecutableContract;
  currentZip: string;
  siteDirectory: string;
  downloadsPath: string;
  siteUrl: string;
}): Promise<PublishedZip[]> {
  const { projectDirectory, contract, currentZip, siteDirectory, downloadsPath, siteUrl } = options;
  const current = contract.model.documentVersion;
  const zips: PublishedZip[] = [{ version: current, file: currentZip }];
  for (const release of readReleases(projectDirectory)) {
    if (release.version === current) continue;
    const older = generatorContract(loadSnapshot(projectDirectory, release));
    zips.push({ version: release.version, file: await packPhpClient(older, path.join(siteDirectory, downloadsPath)) });
  }
  const repository = path.join(siteDirectory, composerRepositoryPath);
  mkdirSync(repository, { recursive: true });
  writeFileSync(path.join(repository, 'packages.json'), composerPackagesJson(zips, siteUrl, downloadsPath));
  return zips;
}

/** The name the page gives the repository in a project's composer.json. */
export const composerRepositoryName = 'subscription-lifecycle';

/** The constraint a project requires: this minor version or any later one of the same major version (`^1.1`). */
export function composerConstraint(version: string): string {
  const [major = '0', minor = '0'] = version.split('.');
  return `^${major}.${minor}`;
}

/** In a project's folder: add the site's repository once, then require the library as from Packagist. */
export function composerRepositoryCommands(siteUrl: string, version: string): string {
  return [
    `composer config repositories.${composerRepositoryName} composer ${composerRepositoryUrl(siteUrl)}`,
    `composer require ${composerPackageName}:${composerConstraint(version)}`,
  ].join('\n');
}

/** For a copy of the site served over plain http (a local preview), in that project only: Composer refuses http otherwise. */
export const localHttpCommand = 'composer config secure-http false';
