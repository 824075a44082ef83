import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { withInlineHashes } from '../lib/site/content-security-policy.ts';
import { withClassicScriptsMinified, withScriptsOnFirstInteraction } from '../lib/site/first-interaction-scripts.ts';
import { withPrintStylesheetInlined } from '../lib/site/print-stylesheet.ts';

function htmlFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => path.join(directory, file));
}

/**
 * Rewrites every built page so that it ships, beside its HTML and styles, only what its reader
 * uses: the print stylesheet written into the page (src/lib/site/print-stylesheet.ts), and the
 * module scripts loaded on the reader's first interaction (src/lib/site/first-interaction-scripts.ts),
 * those that were inline written to files of their own. The page's policy then lists the hashes
 * of the inline scripts and styles the page holds now.
 */
export function lightPages(): AstroIntegration {
  let base = '/';
  return {
    name: 'light-pages',
    hooks: {
      'astro:config:done': ({ config }) => {
        base = config.base;
      },
      'astro:build:done': ({ dir, logger }) => {
        const outputDirectory = fileURLToPath(dir);
        const readStylesheet = (href: string): string | undefined => {
          const file = path.join(outputDirectory, href.slice(base.replace(/\/?$/, '/').length));
          return href.startsWith(base) && existsSync(file) ? readFileSync(file, 'utf8') : undefined;
        };
        const written = new Set<string>();
        let pages = 0;
        for (const file of htmlFiles(outputDirectory)) {
          const html = readFileSync(file, 'utf8');
          const page = withScriptsOnFirstInteraction(withClassicScriptsMinified(withPrintStylesheetInlined(html, readStylesheet)), base);
          if (page.html === html) continue;
          for (const module of page.modules) {
            if (written.has(module.file)) continue;
            const target = path.join(outputDirectory, module.file);
            mkdirSync(path.dirname(target), { recursive: true });
            writeFileSync(target, module.source);
            written.add(module.file);
          }
          writeFileSync(file, withInlineHashes(page.html));
          pages += 1;
        }
        logger.info(`${pages} pages rewritten: print styles inline, module scripts on the first interaction (${written.size} moved to files).`);
      },
    },
  };
}
