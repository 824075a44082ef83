import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { publishedSiteViolations, type PublishedSiteViolation } from '../lib/site/published-site.ts';

/** Names the file a maintainer has to open: the source in `public/` when the file came from there. */
function sourceOf(violation: PublishedSiteViolation, root: string, outputDirectory: string): string {
  const fromPublic = path.join('public', violation.file);
  const file = existsSync(path.join(root, fromPublic)) ? fromPublic : path.join(path.relative(root, outputDirectory), violation.file);
  return violation.line === undefined ? file : `${file}: line ${violation.line}`;
}

/**
 * Refuses a build whose output the documentation domain must not publish: a route under
 * `wp-json`, OAuth or OpenID Connect metadata, or host headers that ask for credentials. It runs
 * when the site is written, so no deploy can carry such a file, whatever put it there.
 */
export function publishedSiteGuard(): AstroIntegration {
  let root = process.cwd();
  return {
    name: 'published-site-guard',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:build:done': ({ dir, logger }) => {
        const outputDirectory = fileURLToPath(dir);
        const violations = publishedSiteViolations(outputDirectory);
        if (violations.length === 0) return;
        logger.error('The built site publishes what the documentation domain must not:');
        for (const violation of violations) logger.error(`${sourceOf(violation, root, outputDirectory)}: ${violation.message} [${violation.rule}]`);
        // A thrown error would be wrapped in Astro's advice about browser APIs, which misleads;
        // the lines above already say what to fix, so the build just stops with a failure.
        process.exit(1);
      },
    },
  };
}
