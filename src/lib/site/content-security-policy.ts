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
import { createHash } from 'node:crypto';

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
 * it fetches (`connect-src`). Nothing else is allowed (`default-src 'none'`).
 */
const documentOnlyDirectives = [
  "default-src 'none'",
  "connect-src 'self'",
  // Pagefind's search field draws its magnifier from a `data:` SVG in its stylesheet.
  "img-src 'self' data:",
  "font-src 'self'",
  "manifest-src 'self'",
] as const;

/** Directives for Astro's `security.csp.directives`: the page's `<meta>` adds `script-src` and `style-src`. */
export const documentPolicyDirectives = [...documentOnlyDirectives, ...sharedDirectives] as const;

/**
 * Sources of `script-src` beside the hashes: the site's own files only. No `'unsafe-eval'`, and no
 * `'wasm-unsafe-eval'` either: Pagefind compiles its WebAssembly in a worker, whose policy is the
 * worker script's own (the host header, which names no script source), not the page's.
 */
export const scriptSources: readonly string[] = ["'self'"];

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

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Sets the hashes of one directive of a serialised policy to exactly `hashes`, keeping its other
 * sources (`'self'`); a policy without that directive is left as it is.
 */
function withExactHashes(policy: string, directive: string, hashes: readonly string[]): string {
  const directives = policy.split(';').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const index = directives.findIndex((entry) => entry.split(/\s+/)[0] === directive);
  if (index === -1) return policy;
  const sources = (directives[index] ?? '').split(/\s+/).slice(1);
  const kept = sources.filter((source) => !/^'sha(256|384|512)-/.test(source));
  directives[index] = [directive, ...kept, ...new Set(hashes)].join(' ');
  return `${directives.join('; ')};`;
}

const policyMeta = /(<meta http-equiv="content-security-policy" content=")([^"]*)(")/i;

/**
 * Makes the `<meta>` policy Astro wrote into a built page list the hash of every inline script
 * and `<style>` element the page holds, and no other. Astro hashes the scripts and styles it
 * bundles but not `<script is:inline>`, which Starlight uses for its theme and sidebar scripts
 * (and a component of ours may too); and it lists the hashes of the whole site on every page,
 * about a kilobyte that cannot be compressed. Hashing the page as written covers what the page
 * runs, whatever put it there, and nothing more. A page without a policy (`astro dev`) is
 * returned as it is.
 */
export function withInlineHashes(html: string): string {
  const meta = policyMeta.exec(html);
  if (meta === null) return html;
  const scriptHashes: string[] = [];
  for (const [, attributes = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    scriptHashes.push(sha256Source(body));
  }
  const styleHashes = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, body = '']) => sha256Source(body));
  const policy = (meta[2] ?? '').replaceAll('&#39;', "'");
  let completed = withExactHashes(policy, /(^|;)\s*script-src-elem\s/.test(policy) ? 'script-src-elem' : 'script-src', scriptHashes);
  completed = withExactHashes(completed, /(^|;)\s*style-src-elem\s/.test(completed) ? 'style-src-elem' : 'style-src', styleHashes);
  if (completed === policy) return html;
  return html.replace(policyMeta, (_whole, start: string, _content: string, end: string) => `${start}${completed}${end}`);
}
