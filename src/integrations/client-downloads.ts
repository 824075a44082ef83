import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { clientPackages } from '../clients/packages.ts';
import { toolsDownloadDirectory } from '../contract-tools/tools-package.ts';
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';

/**
 * Publishes the client libraries with the site, as `npm run build:clients` packs them, into
 * `dist/downloads/` beside the contract tools: the pages' install commands fetch them from there,
 * whether or not a registry has them yet. They are generated from the document the build's own
 * gate passed, the one the pages were written from, so the gate does not run again for them.
 */
export function clientDownloads(gated: { document: OpenApiDocument }): AstroIntegration {
  return {
    name: 'client-downloads',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const outDirectory = path.join(fileURLToPath(dir), toolsDownloadDirectory);
        const contract = readExecutableContract(gated.document);
        for (const clientPackage of clientPackages) {
          const packed = await clientPackage.pack(outDirectory, { contract });
          logger.info(`the ${clientPackage.language} client: ${path.basename(packed)}`);
        }
      },
    },
  };
}
