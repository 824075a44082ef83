import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { clientPackages } from '../clients/packages.ts';
import { toolsDownloadDirectory } from '../contract-tools/tools-package.ts';

/**
 * Publishes the client libraries with the site, as `npm run build:clients` packs them, into
 * `dist/downloads/` beside the contract tools: the pages' install commands fetch them from there,
 * whether or not a registry has them yet.
 */
export function clientDownloads(): AstroIntegration {
  return {
    name: 'client-downloads',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const outDirectory = path.join(fileURLToPath(dir), toolsDownloadDirectory);
        for (const clientPackage of clientPackages) {
          const packed = await clientPackage.pack(outDirectory);
          logger.info(`the ${clientPackage.language} client: ${path.basename(packed)}`);
        }
      },
    },
  };
}
