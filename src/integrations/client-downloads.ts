import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { publishComposerRepository } from '../clients/composer-repository.ts';
import { clientPackages } from '../clients/packages.ts';
import { toolsDownloadDirectory } from '../contract-tools/tools-package.ts';
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { siteConfig } from '../site-config.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');

/**
 * Publishes the client libraries with the site, as `npm run build:clients` packs them, into
 * `dist/downloads/` beside the contract tools: the pages' install commands fetch them from there,
 * whether or not a registry has them yet. They are generated from the document the build's own
 * gate passed, the one the pages were written from, so the gate does not run again for them. The
 * PHP library's zips of the earlier releases join them, listed with the current one in the site's
 * Composer repository, `dist/composer/packages.json` (src/clients/composer-repository.ts).
 */
export function clientDownloads(gated: { document: OpenApiDocument }): AstroIntegration {
  return {
    name: 'client-downloads',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const siteDirectory = fileURLToPath(dir);
        const outDirectory = path.join(siteDirectory, toolsDownloadDirectory);
        const contract = readExecutableContract(gated.document);
        const packed = new Map<string, string>();
        for (const clientPackage of clientPackages) {
          const file = await clientPackage.pack(outDirectory, { contract });
          packed.set(clientPackage.language, file);
          logger.info(`the ${clientPackage.language} client: ${path.basename(file)}`);
        }
        const currentZip = packed.get('php');
        if (currentZip === undefined) return;
        const zips = await publishComposerRepository({ projectDirectory, contract, currentZip, siteDirectory, downloadsPath: toolsDownloadDirectory, siteUrl: siteConfig.docsUrl });
        logger.info(`the Composer repository: ${zips.map((zip) => zip.version).join(', ')}`);
      },
    },
  };
}
