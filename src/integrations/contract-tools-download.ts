import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { packContractTools } from '../contract-tools/pack.ts';
import type { GatedContract } from '../gate/gated-contract.ts';
import { toolsDownloadDirectory, toolsTarballName } from '../contract-tools/tools-package.ts';

/**
 * Publishes the contract tools with the site: `npm run pack:tools` into `dist/downloads/`, so the
 * command the guides give (`npx --package <the download's URL> subscription-lifecycle …`) runs
 * for a reader with nothing but Node, whether or not the package is on the npm registry. The
 * package carries the bundle the build's own gate passed, so the gate does not run again for it.
 */
export function contractToolsDownload(gated: GatedContract): AstroIntegration {
  let root = process.cwd();
  return {
    name: 'contract-tools-download',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const outputDirectory = path.join(fileURLToPath(dir), toolsDownloadDirectory);
        const packed = await packContractTools({ projectDirectory: root, outputDirectory, gated });
        const expected = toolsTarballName(packed.contractVersion);
        // The guides link the name toolsTarballName() gives; a different name from npm pack would be a dead link.
        if (path.basename(packed.tarball) !== expected) throw new Error(`npm pack wrote ${path.basename(packed.tarball)}, but the guides link ${expected}.`);
        logger.info(`the contract tools: ${path.relative(root, packed.tarball)}`);
      },
    },
  };
}
