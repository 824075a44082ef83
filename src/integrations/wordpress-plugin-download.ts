import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { toolsDownloadDirectory } from '../contract-tools/tools-package.ts';
import type { GatedContract } from '../gate/gated-contract.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { packPluginZip } from '../wordpress/plugin-zip.ts';
import { playgroundBlueprintName, publishedBlueprint } from '../wordpress/playground-blueprint.ts';
import { siteConfig } from '../site-config.ts';

/**
 * Publishes the reference plugin with the site as a WordPress plugin zip, in `dist/downloads/`
 * beside the contract tools and the client libraries, for a reader who runs a local WordPress
 * rather than Node, with a WordPress Playground blueprint that installs it from there. It carries
 * the contract generated from the document the build's own gate passed.
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
        const contract = readExecutableContract(gated.document);
        const zip = packPluginZip(contract, root, outputDirectory);
        const blueprint = path.join(outputDirectory, playgroundBlueprintName(contract));
        writeFileSync(blueprint, publishedBlueprint(contract, siteConfig.docsUrl, toolsDownloadDirectory));
        logger.info(`the reference plugin: ${path.relative(root, zip)}, and its Playground blueprint`);
      },
    },
  };
}
