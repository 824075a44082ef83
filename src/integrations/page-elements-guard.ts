import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { driversMessage, elementDrivers, overBoundMessage, pageAddress, pageElementBound, pagesOverElementBound } from '../lib/site/page-elements.ts';

/**
 * Refuses a build with a page of more than 1,500 elements (src/lib/site/page-elements.ts says why),
 * naming each page over the bound and by how much, and what grows it (the rows of the actions or
 * of the fields, as the contract grows), so a sample or a table that grows a page too far is found
 * when it is written rather than on a reader's phone.
 */
export function pageElementsGuard(): AstroIntegration {
  return {
    name: 'page-elements-guard',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const outputDirectory = fileURLToPath(dir);
        const over = pagesOverElementBound(outputDirectory);
        if (over.length === 0) return;
        logger.error(`Pages over ${pageElementBound} elements, which a phone lays out slowly:`);
        for (const page of over) {
          const drivers = elementDrivers(readFileSync(path.join(outputDirectory, page.page), 'utf8'));
          const file = path.join(path.basename(outputDirectory), page.page);
          logger.error(`${overBoundMessage({ ...page, page: file })}; the page ${pageAddress(page.page)}, ${driversMessage(drivers)}`);
        }
        // As in published-site-guard.ts: the lines say what to fix, a thrown error would bury them.
        process.exit(1);
      },
    },
  };
}
