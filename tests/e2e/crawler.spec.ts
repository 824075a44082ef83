import { expect, test, type APIRequestContext, type TestInfo } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { referenceMarkdownPages } from '../../src/lib/site/reference-markdown.ts';
import { expectedDocument } from './support/contract.ts';
import { parseLlmsTxt } from '../support/llms-txt.ts';
import { isPublishedUrl, previewPath, publishedOrigin, sitemapPagePaths } from './support/site.ts';

/**
 * Checks that every URL a discovery file names exists. URLs on the site's configured origin
 * are fetched from the preview; any other host cannot be reached from here, so it is recorded
 * in the report instead.
 */
async function expectLinksResolve(
  request: APIRequestContext,
  testInfo: TestInfo,
  source: string,
  urls: string[],
): Promise<void> {
  const own = urls.filter(isPublishedUrl);
  expect(own.length, `${source} points at something on ${publishedOrigin}`).toBeGreaterThan(0);
  for (const url of new Set(own)) {
    const response = await request.get(previewPath(url.split('#')[0] ?? url));
    expect.soft(response.status(), `${url}, named in ${source}`).toBe(200);
  }
  for (const url of new Set(urls.filter((url) => !isPublishedUrl(url)))) {
    testInfo.annotations.push({ type: 'external link (not fetched)', description: `${source}: ${url}` });
  }
}

async function fetchServed(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), `GET ${path}`).toBe(200);
  return response.text();
}

test('the server card answers 200 with JSON to its media type', async ({ request }) => {
  const response = await request.get('/.well-known/mcp/server-card.json', {
    headers: { Accept: 'application/mcp-server-card+json' },
  });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/json/);
  // Browser-based MCP clients read the card from other origins.
  expect(response.headers()['access-control-allow-origin']).toBe('*');
  const card: unknown = await response.json();
  expect(card).toMatchObject({ name: expect.any(String), remotes: expect.any(Array) });
});

test('the OpenAPI downloads are the document Redocly bundles from openapi/', async ({ request }) => {
  const json: unknown = JSON.parse(await fetchServed(request, '/openapi/v1.json'));
  expect(json, '/openapi/v1.json').toEqual(expectedDocument);
  const yaml: unknown = parseYaml(await fetchServed(request, '/openapi/v1.yaml'));
  expect(yaml, '/openapi/v1.yaml').toEqual(expectedDocument);
});

test('llms.txt is served and every page it names exists', async ({ request }, testInfo) => {
  const text = await fetchServed(request, '/llms.txt');
  const base = `${publishedOrigin}/llms.txt`;
  const linked = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => new URL(match[1] ?? '', base).href);
  const bare = [...text.matchAll(/https?:\/\/[^\s)<>\]"']+/g)].map((match) => match[0].replace(/[.,;:]+$/, ''));
  await expectLinksResolve(request, testInfo, 'llms.txt', [...linked, ...bare]);
});

test('llms.txt is read by the proposal\'s parser and lists every reference page, absolutely', async ({ request }) => {
  const parsed = parseLlmsTxt(await fetchServed(request, '/llms.txt'));
  const urls = [...parsed.sections.values()].flat().map((link) => link.url);
  for (const url of urls) expect.soft(url.startsWith(`${publishedOrigin}/`), `${url} is absolute on ${publishedOrigin}`).toBe(true);
  for (const page of referenceMarkdownPages(readReferenceModel(expectedDocument))) {
    expect.soft(urls, `llms.txt lists ${page.title}`).toContain(page.url);
  }
});

test('llms-full.txt holds every reference page, with absolute links and no anchor labels', async ({ request }) => {
  const text = await fetchServed(request, '/llms-full.txt');
  const model = readReferenceModel(expectedDocument);
  for (const action of model.actions) expect.soft(text, action.identifier).toMatch(new RegExp(`^# ${action.identifier}: `, 'm'));
  expect(text).toContain(model.endpoint.urlTemplate);
  expect(text).not.toMatch(/\]\(\//);
  expect(text).not.toContain('Section titled');
});

test('the not-found page names no canonical address, since /404/ itself answers 404; other pages name their own', async ({ request }) => {
  const notFound = await request.get('/404.html');
  expect(notFound.status()).toBe(200);
  expect(await notFound.text()).not.toMatch(/<link\b[^>]*\brel=["']?canonical/i);
  const missing = await request.get('/no-such-page/');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).not.toMatch(/<link\b[^>]*\brel=["']?canonical/i);
  expect(await fetchServed(request, '/quickstart/')).toMatch(/<link\b[^>]*\brel=["']?canonical["']?[^>]*href=["']?[^"'\s>]*\/quickstart\//i);
});

test('llms-full.txt puts no space at the start or end of a link text', async ({ request }) => {
  const text = await fetchServed(request, '/llms-full.txt');
  expect(text.match(/\[\s[^\]\n]*\]\(/g) ?? []).toEqual([]);
  expect(text.match(/\[[^\]\n]*\s\]\(/g) ?? []).toEqual([]);
});

test('a page on another origin revalidates the card and the catalogs with If-None-Match, as the CORS headers allow', async ({ page, baseURL }) => {
  // localhost and 127.0.0.1 are two origins of the same server: the request is cross-origin and
  // sends a header outside the safelist, so the browser sends a preflight first.
  const siteOrigin = new URL(baseURL ?? '').origin;
  const otherOrigin = siteOrigin.replace('127.0.0.1', 'localhost');
  expect(otherOrigin).not.toBe(siteOrigin);
  await page.goto(`${otherOrigin}/robots.txt`);
  for (const pathname of ['/.well-known/mcp/server-card.json', '/.well-known/mcp/catalog.json', '/.well-known/ai-catalog.json']) {
    const answers = await page.evaluate(async (url) => {
      const first = await fetch(url, { cache: 'no-store' });
      const etag = first.headers.get('etag') ?? '';
      const again = await fetch(url, { cache: 'no-store', headers: { 'If-None-Match': etag } });
      return { first: first.status, etag, again: again.status };
    }, `${siteOrigin}${pathname}`);
    expect(answers.first, pathname).toBe(200);
    expect(answers.etag, `${pathname}: the ETag is exposed to the other origin`).toMatch(/^"[^"]+"$/);
    expect(answers.again, `${pathname}: the revalidation passes the preflight and is answered 304`).toBe(304);
  }
});

test('the API catalog is a linkset whose links exist', async ({ request }, testInfo) => {
  const catalogPath = '/.well-known/api-catalog';
  const response = await request.get(catalogPath);
  expect(response.status()).toBe(200);
  // RFC 9727, section 4.2.
  expect(response.headers()['content-type']).toMatch(/^application\/linkset\+json\b/);
  const catalog: unknown = await response.json();
  expect(catalog).toMatchObject({ linkset: expect.any(Array) });
  // RFC 9264: every link target is an `href`, every context an `anchor`; both may be relative.
  const urls: string[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'href' || key === 'anchor') && typeof value === 'string') {
          urls.push(new URL(value, `${publishedOrigin}${catalogPath}`).href);
        } else collect(value);
      }
    }
  };
  collect(catalog);
  await expectLinksResolve(request, testInfo, 'api-catalog', urls);
});

test('robots.txt is served and the sitemaps it names exist', async ({ request }, testInfo) => {
  const text = await fetchServed(request, '/robots.txt');
  const sitemaps = [...text.matchAll(/^\s*sitemap:\s*(\S+)/gim)].map((match) => match[1] ?? '');
  expect(sitemaps.length, 'robots.txt names a sitemap').toBeGreaterThan(0);
  await expectLinksResolve(request, testInfo, 'robots.txt', sitemaps);
});

test('every page links its OpenAPI description (RFC 8631) and the link resolves', async ({
  request,
}, testInfo) => {
  for (const pagePath of await sitemapPagePaths(request)) {
    const html = await fetchServed(request, pagePath);
    const tag = html.match(/<link\b[^>]*\brel=["']?service-desc["']?[^>]*>/i)?.[0];
    expect.soft(tag, `${pagePath} has <link rel="service-desc">`).toBeDefined();
    const href = tag?.match(/\bhref=["']?([^"'\s>]+)/i)?.[1];
    if (href === undefined) continue;
    await expectLinksResolve(request, testInfo, pagePath, [new URL(href, `${publishedOrigin}${pagePath}`).href]);
  }
});
