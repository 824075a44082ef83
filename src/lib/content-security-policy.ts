/**
 * The documentation domain's Content-Security-Policy, in one place. Two policies reach a
 * reader's browser, and a browser enforces both:
 * - the page's own `<meta http-equiv="content-security-policy">`, which Astro writes at build
 *   (`security.csp` in `astro.config.mjs`) with a hash for every inline script and style of that
 *   page: `documentPolicy` below, plus Astro's `script-src` and `style-src`;
 * - the host's `Content-Security-Policy` header from `public/_headers`: `hostPolicy` below, the
 *   directives a `<meta>` cannot carry (`frame-ancestors`) and those that never depend on a
 *   page's scripts or styles. It names no script or style source, so it never forbids what a
 *   page's hashes allow, and a new inline script needs no edit of `_headers`.
 */

/** Directives whose value is the same on every page and says nothing about scripts or styles. */
const sharedDirectives = [
  "object-src 'none'",
  "base-uri 'self'",
  // The documentation takes no forms.
  "form-action 'none'",
  "upgrade-insecure-requests",
] as const;

/**
 * Everything else a page loads comes from the site itself: images (Starlight's icons are inline
 * SVG, the favicon a file), fonts, the web manifest and Pagefind's index and WebAssembly, which
 * it fetches (`connect-src`).
 */
const documentOnlyDirectives = [
  "default-src 'none'",
  "connect-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
] as const;

/** Directives for Astro's `security.csp.directives`: the page's `<meta>` adds `script-src` and `style-src`. */
export const documentPolicyDirectives: readonly string[] = [...documentOnlyDirectives, ...sharedDirectives];

/**
 * Sources of `script-src` beside the hashes Astro computes. Pagefind compiles its WebAssembly
 * search index, which a policy without `'wasm-unsafe-eval'` forbids; no JavaScript `eval` is allowed.
 */
export const scriptSources: readonly string[] = ["'self'", "'wasm-unsafe-eval'"];

/**
 * Sources of `style-src` beside Astro's hashes: `<style>` elements and stylesheets must be the
 * site's own or hashed. Inline `style` attributes stay allowed (`style-src-attr`), because
 * Expressive Code colours every highlighted token with one and Starlight sets some too; a style
 * attribute cannot run code.
 */
export const styleSources: readonly ({ resource: string; kind: 'element' | 'attribute' })[] = [
  { resource: "'self'", kind: 'element' },
  { resource: "'unsafe-inline'", kind: 'attribute' },
];

/** The header policy of `public/_headers`, for every path. */
export const hostPolicy: string = ["frame-ancestors 'none'", ...sharedDirectives].join('; ');
