import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { readReferenceModel } from '../lib/contract/actions.ts';
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { llmsFullSections, llmsFullTxtPath } from '../lib/site/llms-txt.ts';
import { searchIndexData, searchIndexPath } from '../mcp-server/search-index.ts';

/**
 * Writes the product-information server's search index when the site is built, from the
 * llms-full.txt this build wrote and the document its gate passed: the server (on Node and in the
 * Worker) loads it as data, so no server cuts the pages into passages or indexes them when it
 * starts, and a search does no work beyond its query.
 */
export function mcpSearchIndex(gated: { document: OpenApiDocument }): AstroIntegration {
  return {
    name: 'mcp-search-index',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const siteDirectory = fileURLToPath(dir);
        const pages = llmsFullSections(readFileSync(path.join(siteDirectory, llmsFullTxtPath), 'utf8'));
        const data = searchIndexData(readReferenceModel(gated.document), pages);
        const file = path.join(siteDirectory, searchIndexPath);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(data));
        logger.info(`${data.passages.length} passages of ${pages.length} pages indexed for the product-information server's search`);
      },
    },
  };
}
