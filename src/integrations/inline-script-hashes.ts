import type { AstroIntegration } from 'astro';

/**
 * Registers the middleware that completes each built page's Content-Security-Policy with the
 * hashes of its inline scripts and styles (see `withInlineHashes`). It runs first, so it sees
 * every page exactly as written, after Starlight's own middleware.
 */
export function inlineScriptHashes(): AstroIntegration {
  return {
    name: 'inline-script-hashes',
    hooks: {
      'astro:config:setup': ({ addMiddleware }) => {
        addMiddleware({ entrypoint: new URL('./inline-script-hashes-middleware.ts', import.meta.url), order: 'pre' });
      },
    },
  };
}
