import type { AstroIntegration } from 'astro';

/** Registers the middleware that marks where identifiers may wrap on every page (see `markIdentifierBreaks`). */
export function identifierBreaks(): AstroIntegration {
  return {
    name: 'identifier-breaks',
    hooks: {
      'astro:config:setup': ({ addMiddleware }) => {
        addMiddleware({ entrypoint: new URL('./identifier-breaks-middleware.ts', import.meta.url), order: 'pre' });
      },
    },
  };
}
