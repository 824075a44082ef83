import { expect, type APIRequestContext } from '@playwright/test';
import { siteConfig } from '../../../src/site-config.ts';

/** The origin the site is configured to be published at; the preview serves it elsewhere. */
export const publishedOrigin = new URL(siteConfig.docsUrl).origin;

/** True for a URL on the published documentation origin. */
export function isPublishedUrl(url: string): boolean {
  return URL.canParse(url) && new URL(url).origin === publishedOrigin;
}

/** The path (with query) under which the preview serves a published URL. */
export function previewPath(publishedUrl: string): string {
  const url = new URL(publishedUrl);
  if (url.origin !== publishedOrigin) {
    throw new Error(`${publishedUrl} is not on the configured origin ${publishedOrigin}`);
  }
  return `${url.pathname}${url.search}`;
}

function decodeXmlText(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}

/** The `<loc>` values of a sitemap or sitemap index. */
function locations(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((match) => decodeXmlText(match[1] ?? ''));
}

async function fetchText(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), `GET ${path}`).toBe(200);
  return response.text();
}

/**
 * Every page the site announces, as preview paths: `sitemap-index.xml`, each sitemap it
 * names, and each URL in those. Every URL has to be on the configured origin; a sitemap that
 * points elsewhere is itself a failure.
 */
export async function sitemapPagePaths(request: APIRequestContext): Promise<string[]> {
  const sitemaps = locations(await fetchText(request, '/sitemap-index.xml'));
  expect(sitemaps.length, 'sitemap-index.xml names at least one sitemap').toBeGreaterThan(0);
  const pages: string[] = [];
  for (const sitemap of sitemaps) {
    for (const page of locations(await fetchText(request, previewPath(sitemap)))) {
      pages.push(previewPath(page));
    }
  }
  expect(pages.length, 'the sitemaps list pages').toBeGreaterThan(0);
  return [...new Set(pages)].sort();
}

/** The path of an action's reference page, as the agreed URL scheme fixes it. */
export function actionPath(identifier: string): string {
  return `/reference/actions/${identifier}/`;
}
