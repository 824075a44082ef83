import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { toolsDownloadDirectory } from '../contract-tools/tools-package.ts';
import type { GatedContract } from '../gate/gated-contract.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { packPluginZip } from '../wordpress/plugin-zip.ts';

/**
 * Publishes the reference plugin with the site as a WordPress plugin zip, in `dist/downloads/`
 * beside the contract tools and the client libraries, for a reader who runs a local WordPress
 * rather than Node. It carries the contract generated from the document the build's own gate passed.
 */
export function wordpressPluginDownload(gated: GatedContract): AstroIntegration {
  let root = process.cwd();
  return {
    name: 'wordpress-plugin-download',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:build:done': ({ dir, logger }) => {
        const outputDirectory = path.join(fileURLToPath(dir), toolsDownloadDirectory);
        const zip = packPluginZip(readExecutableContract(gated.document), root, outputDirectory);
        logger.info(`the reference plugin: ${path.relative(root, zip)}`);
      },
    },
  };
}
