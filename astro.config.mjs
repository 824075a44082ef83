// @ts-check
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import { fileURLToPath } from 'node:url';
import starlightLinksValidator from 'starlight-links-validator';
import { contractToolsDownload } from './src/integrations/contract-tools-download.ts';
import { clientDownloads } from './src/integrations/client-downloads.ts';
import { wordpressPluginDownload } from './src/integrations/wordpress-plugin-download.ts';
import { contractWatch, devServerFollowsContract } from './src/integrations/contract-watch.ts';
import { identifierBreaks } from './src/integrations/identifier-breaks.ts';
import { mcpSearchIndex } from './src/integrations/mcp-search-index.ts';
import { inlineScriptHashes } from './src/integrations/inline-script-hashes.ts';
import { lightPages } from './src/integrations/light-pages.ts';
import { pageElementsGuard } from './src/integrations/page-elements-guard.ts';
import { publishedSiteGuard } from './src/integrations/published-site-guard.ts';
import { documentPolicyDirectives, scriptSources, styleSources } from './src/lib/site/content-security-policy.ts';
import { serviceDescHeadEntry } from './src/lib/site/discovery.ts';
import { ContractRefusedError, loadGatedContract } from './src/gate/gated-contract.ts';
import { generatedPaths, referenceSidebarItems } from './src/lib/site/navigation.ts';
import { samplesWithoutScript } from './src/lib/site/reference-pages.ts';
import { siteConfig } from './src/site-config.ts';

// The gate of `npm run lint` runs first, so a contract it refuses stops `astro build`, `astro dev`
// and `astro check` before a single page is written, with the same lines `npm run lint` prints.
let gated;
try {
  gated = await loadGatedContract();
} catch (error) {
  if (!(error instanceof ContractRefusedError)) throw error;
  // A restart of a running `astro dev` keeps serving: Astro prints the lines, shows them over the
  // page and goes on with the configuration it had (src/integrations/contract-watch.ts).
  if (devServerFollowsContract()) throw error;
  console.error(error.message);
  process.exit(1);
}

const { document } = gated;
const title = siteConfig.title;
const description =
  'Specification and guides for the one endpoint that cancels, pauses, resumes and otherwise moves subscriptions through their lifecycle.';

export default defineConfig({
  site: siteConfig.docsUrl,
  trailingSlash: 'always',
  // Astro 7's default ('jsx') follows JSX and drops a line break next to an element: a sentence
  // whose inline `<code>` or `<a>` starts a new source line lost its space ("whose<code>"). The
  // lossless compression keeps the whitespace a browser would show.
  compressHTML: true,
  // The actions have no index of their own: /reference/actions/ is a page that sends the reader
  // to the reference's index (src/pages/reference/actions/index.html.ts), a whole document
  // where Astro's `redirects` wrote one without a language or a policy.
  // A reader arrives on one page from a search or a link: everything that page needs comes in its
  // one HTML response (the stylesheets inlined, hashed by the policy below), so nothing blocks the
  // first paint behind another round trip. Starlight would also prefetch every link on the page; a
  // static page arrives fast enough without it, and the bytes stay with the page being read.
  build: { inlineStylesheets: 'always' },
  prefetch: false,
  // Kept inside the project so that two checkouts sharing one node_modules never share a cache.
  cacheDir: './.astro/cache/',
  // Every page gets a policy with a hash for each of its inline scripts and styles, computed at
  // build (Astro's, completed by `inlineScriptHashes` for `is:inline` scripts), so an inline
  // script added anywhere is allowed without a hand-kept list. Off in `astro dev`. See
  // src/lib/site/content-security-policy.ts for the header half of the policy.
  // Code is highlighted by Starlight's Expressive Code; Astro's own Shiki pass never sees a code
  // block, and turning it off says so to Astro, which warns about Shiki under a policy otherwise.
  markdown: { syntaxHighlight: false },
  security: {
    csp: {
      algorithm: 'SHA-256',
      directives: [...documentPolicyDirectives],
      scriptDirective: { resources: [...scriptSources] },
      styleDirective: { resources: [...styleSources] },
    },
  },
  vite: {
    // `astro dev` follows openapi/: the gate runs on each change, and the pages restart with the
    // new contract or show the gate's lines (src/integrations/contract-watch.ts).
    plugins: [contractWatch({ projectDirectory: fileURLToPath(new URL('.', import.meta.url)), configFile: fileURLToPath(import.meta.url) })],
    build: {
      rolldownOptions: {
        onLog(level, log, defaultHandler) {
          // Astro marks the assets of every MDX page with a "use astro:head-inject" directive that
          // Rolldown warns it may not keep (withastro/astro#18087, open): harmless, Astro reads the
          // directive before bundling. Only that one warning is dropped; every other log passes.
          if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.message.includes('"use astro:head-inject"')) return;
          defaultHandler(level, log);
        },
      },
    },
  },
  integrations: [
    contractToolsDownload(gated),
    clientDownloads(gated),
    mcpSearchIndex(gated),
    wordpressPluginDownload(gated),
    lightPages(),
    publishedSiteGuard(),
    pageElementsGuard(),
    inlineScriptHashes(),
    identifierBreaks(),
    starlight({
      title,
      description,
      // RFC 8631: every page points machines at the description of the API it documents.
      routeMiddleware: './src/route-data.ts',
      // One code theme for both colour schemes: a second one doubles the colour data of every
      // highlighted token, and the reference pages are mostly code.
      // Long lines wrap, indented as they began, so no code block scrolls sideways and none
      // needs a script to become focusable for the keyboard.
      // The code blocks' styles come inside the page, with the first block, as the other styles
      // do: a stylesheet of their own was one more request the first paint waited for.
      // No block marks lines as inserted, deleted or highlighted, so the text-markers plugin and its
      // styles (a third of the code blocks' stylesheet) are left out. Plugins are in ec.config.mjs.
      expressiveCode: { themes: ['starlight-dark'], shiki: false, defaultProps: { wrap: true }, emitExternalStylesheet: false, textMarkers: false },
      components: {
        Search: './src/components/overrides/Search.astro',
        Sidebar: './src/components/overrides/Sidebar.astro',
        DraftContentNotice: './src/components/overrides/DraftContentNotice.astro',
      },
      customCss: ['./src/styles/narrow-tables.css', './src/styles/site-title.css'],
      // Without JavaScript every sample of a set of tabs is shown, on the action pages and on the
      // errors guide's retrying clients alike.
      head: [{ ...serviceDescHeadEntry, attrs: { ...serviceDescHeadEntry.attrs } }, { ...samplesWithoutScript, attrs: {} }],
      plugins: [
        // Generated routes are not content pages, so the validator is told about them; a link
        // to an action the document does not define still fails the build.
        starlightLinksValidator({
          exclude: generatedPaths(document).flatMap((path) => [path, `${path}#*`]),
        }),
      ],
      // Read in the order a newcomer needs: what it is, first call, key, then the reference.
      sidebar: [
        {
          label: 'Start here',
          items: [
            { label: 'Overview', link: '/' },
            { label: 'Quickstart', link: '/quickstart/' },
            { label: 'Authentication', link: '/authentication/' },
          ],
        },
        { label: 'API reference', items: referenceSidebarItems(document) },
        {
          label: 'Guides',
          items: [
            { label: 'Errors and rate limits', link: '/errors-and-rate-limits/' },
            { label: 'States and transitions', link: '/states-and-transitions/' },
            { label: 'Versioning', link: '/versioning/' },
            { label: 'Changelog', link: '/changelog/' },
          ],
        },
        {
          label: 'Client libraries',
          items: [
            { label: 'PHP', link: '/clients/php/' },
            { label: 'TypeScript', link: '/clients/typescript/' },
            { label: 'Python', link: '/clients/python/' },
          ],
        },
        {
          label: 'Tools',
          items: [
            { label: 'Try it against the sandbox', link: '/sandbox/' },
            { label: 'Test against your own WordPress', link: '/wordpress-plugin/' },
            { label: 'Check an install', link: '/conformance/' },
            { label: 'Run the lifecycle as workflows', link: '/workflows/' },
          ],
        },
        {
          label: 'Product',
          items: [
            { label: 'Product-information server', link: '/product-information-server/' },
            { label: 'Product facts', link: '/product/' },
          ],
        },
      ],
    }),
  ],
});
