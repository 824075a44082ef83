/**
 * What the reference plugin's page states about the zip, each read where it is decided: the name
 * from `plugin-zip.ts`, the floors from the plugin's header, the key from the sandbox.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toolsDownloadDirectory } from '../contract-tools/tools-package.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { defaultApiKey } from '../sandbox/seed.ts';
import { pluginDirectory } from './generate.ts';
import { headerField, pluginSlug, pluginZipName } from './plugin-zip.ts';

export interface PluginFacts {
  zipName: string;
  /** The zip's path on the site, from its root. */
  downloadPath: string;
  /** The folder the zip unpacks to, under `wp-content/plugins/`. */
  folder: string;
  requiresWordPress: string;
  requiresPhp: string;
  apiKey: string;
}

/** The facts, from the plugin in `projectDirectory` (the site's build runs in the project). */
export function pluginFacts(contract: ExecutableContract, projectDirectory = process.cwd()): PluginFacts {
  const mainFile = readFileSync(path.join(projectDirectory, pluginDirectory, `${pluginSlug}.php`), 'utf8');
  const zipName = pluginZipName(contract);
  return {
    zipName,
    downloadPath: `/${toolsDownloadDirectory}/${zipName}`,
    folder: pluginSlug,
    requiresWordPress: headerField(mainFile, 'Requires at least'),
    requiresPhp: headerField(mainFile, 'Requires PHP'),
    apiKey: defaultApiKey,
  };
}
