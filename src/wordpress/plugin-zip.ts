/**
 * The reference plugin as a WordPress plugin zip, for a reader's own local WordPress: the plugin's
 * files, its generated contract and test-double defaults, and a `readme.txt` in WordPress's format,
 * under one folder, `service-reference/`, as the admin's Upload Plugin and `wp-content/plugins/` expect.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { php74Problems } from '../clients/php/php-74-syntax.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { defaultApiKey } from '../sandbox/seed.ts';
import { contractPhp, pluginDirectory, testDoublePhp } from './generate.ts';
import { zipArchive, type ZipEntry } from '../lib/packaging/zip.ts';

export const pluginSlug = path.basename(pluginDirectory);
export const pluginMainFile = `${pluginSlug}/${pluginSlug}.php`;
/** The PHP version the plugin's header states, which `packPluginZip` proves for every PHP file it packs. */
export const pluginPhpFloor = '7.4';

export function pluginZipName(contract: ExecutableContract): string {
  return `${pluginSlug}-${contract.model.documentVersion}.zip`;
}

/** A header field of the plugin's main file (`Requires at least`, …), as written there. */
export function headerField(mainFile: string, field: string): string {
  const match = new RegExp(`^ \\* ${field}: *(.+)$`, 'm').exec(mainFile);
  if (match?.[1] === undefined) throw new Error(`The plugin's main file has no "${field}" header`);
  return match[1].trim();
}

function withHeaderField(mainFile: string, field: string, value: string): string {
  headerField(mainFile, field);
  return mainFile.replace(new RegExp(`^( \\* ${field}: *).+$`, 'm'), `$1${value}`);
}

function licenceOf(contract: ExecutableContract): string {
  const licence = contract.document.info.license?.identifier ?? contract.document.info.license?.name;
  if (licence === undefined) throw new Error('The OpenAPI document names no licence (info.license), which the plugin\'s header states');
  return licence;
}

function readmeTxt(contract: ExecutableContract, mainFile: string): string {
  const requiresWordPress = headerField(mainFile, 'Requires at least');
  const description = headerField(mainFile, 'Description');
  return `=== Service Reference ===
Tags: testing, rest-api
Requires at least: ${requiresWordPress}
Tested up to: ${requiresWordPress}
Requires PHP: ${headerField(mainFile, 'Requires PHP')}
Stable tag: ${contract.model.documentVersion}
License: ${licenceOf(contract)}

A test double of the Subscription Lifecycle Action Service's endpoint, for a local WordPress.

== Description ==

${description}

It answers at ${contract.model.endpoint.urlPath} as version ${contract.model.documentVersion} of the published OpenAPI document says, which this zip carries in generated/contract.php.

On activation it holds the subscriptions a new sandbox holds, and accepts the sandbox's key, ${defaultApiKey}, so the commands the documentation gives for the sandbox work against your site with only the address changed. Change both, throttle requests, or reset under Settings → Service Reference.

== Installation ==

1. In the admin, go to Plugins → Add New → Upload Plugin, choose this zip and install it; or unzip it into wp-content/plugins/.
2. Activate Service Reference under Plugins.
3. The site's environment type must not be production: wp-env, Local and DDEV set it to local or development; otherwise add define( 'WP_ENVIRONMENT_TYPE', 'local' ); to wp-config.php.

== Changelog ==

= ${contract.model.documentVersion} =
Generated from version ${contract.model.documentVersion} of the OpenAPI document.
`;
}

function filesUnder(directory: string, relative = ''): string[] {
  return readdirSync(path.join(directory, relative), { withFileTypes: true })
    .filter((entry) => !(relative === '' && entry.name === 'generated'))
    .flatMap((entry) => {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      return entry.isDirectory() ? filesUnder(directory, child) : [child];
    })
    .sort();
}

/** The zip's files, by path inside it; every PHP file proven to parse as PHP 7.4. */
export function pluginZipEntries(contract: ExecutableContract, projectDirectory: string): ZipEntry[] {
  const source = path.join(projectDirectory, pluginDirectory);
  const files = new Map<string, string>();
  for (const file of filesUnder(source)) files.set(file, readFileSync(path.join(source, file), 'utf8'));
  const mainName = `${pluginSlug}.php`;
  const original = files.get(mainName);
  if (original === undefined) throw new Error(`${source} has no ${mainName}`);
  let mainFile = withHeaderField(original, 'License', licenceOf(contract));
  mainFile = withHeaderField(mainFile, 'Version', contract.model.documentVersion);
  if (headerField(mainFile, 'Requires PHP') !== pluginPhpFloor) throw new Error(`The plugin's header states Requires PHP ${headerField(mainFile, 'Requires PHP')}; the zip proves ${pluginPhpFloor}`);
  files.set(mainName, mainFile);
  files.set('generated/contract.php', contractPhp(contract));
  files.set('generated/test-double.php', testDoublePhp(contract));
  files.set('readme.txt', readmeTxt(contract, mainFile));

  const problems = [...files].filter(([name]) => name.endsWith('.php')).flatMap(([name, text]) => php74Problems(name, text));
  if (problems.length > 0) {
    throw new Error(`The plugin states Requires PHP ${pluginPhpFloor}, but:\n${problems.map((problem) => `  ${problem.file}:${problem.line}: ${problem.message}`).join('\n')}`);
  }
  const folders = new Set<string>([`${pluginSlug}/`]);
  for (const name of files.keys()) {
    const parts = name.split('/').slice(0, -1);
    parts.forEach((_, index) => folders.add(`${pluginSlug}/${parts.slice(0, index + 1).join('/')}/`));
  }
  return [
    ...[...folders].sort().map((name) => ({ name, content: Buffer.alloc(0) })),
    ...[...files].sort(([a], [b]) => a.localeCompare(b)).map(([name, text]) => ({ name: `${pluginSlug}/${name}`, content: Buffer.from(text, 'utf8') })),
  ];
}

/** Writes the plugin zip into `outputDirectory`; returns its path. */
export function packPluginZip(contract: ExecutableContract, projectDirectory: string, outputDirectory: string): string {
  mkdirSync(outputDirectory, { recursive: true });
  const file = path.join(outputDirectory, pluginZipName(contract));
  writeFileSync(file, zipArchive(pluginZipEntries(contract, projectDirectory)));
  return file;
}
