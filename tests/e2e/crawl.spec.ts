import { expect, test } from '@playwright/test';
import { sitemapPagePaths } from './support/site.ts';

// The narrowest phone layout the site promises to fit without sideways scrolling.
const phoneViewport = { width: 375, height: 812 };

test('every page in the sitemap loads without credentials, errors, foreign hosts or sideways scrolling', async ({
  browser,
  request,
  baseURL,
}) => {
  const pagePaths = await sitemapPagePaths(request);
  test.setTimeout(pagePaths.length * 10_000);
  const origin = new URL(baseURL ?? '').origin;
  // A fresh context carries no cookies, storage or HTTP credentials: a page that needs any fails.
  const context = await browser.newContext({ viewport: phoneViewport });
  const requested: { url: string; from: string }[] = [];
  let currentPath = '';
  context.on('request', (request) => requested.push({ url: request.url(), from: currentPath }));

  for (const pagePath of pagePaths) {
    await test.step(pagePath, async () => {
      currentPath = pagePath;
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => consoleErrors.push(error.message));

      // Waiting for the network to settle catches requests a page makes after `load`.
      const response = await page.goto(pagePath, { waitUntil: 'networkidle' });
      expect.soft(response?.status(), `${pagePath} answers 200`).toBe(200);
      expect.soft(response?.request().redirectedFrom()?.url(), `${pagePath} is served, not redirected`).toBeUndefined();
      expect.soft(consoleErrors, `console errors on ${pagePath}`).toEqual([]);

      const widths = await page.evaluate(() => ({
        content: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
      }));
      expect
        .soft(widths.content, `${pagePath} is no wider than a ${phoneViewport.width}px viewport`)
        .toBeLessThanOrEqual(widths.viewport);
      await page.close();
    });
  }
  await context.close();

  // Fonts, analytics, CDNs and embeds would all show up here; `data:` URLs never leave the page.
  const foreign = requested.filter(
    ({ url }) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin,
  );
  expect(foreign, 'requests to hosts other than the site').toEqual([]);
  expect(requested.length).toBeGreaterThanOrEqual(pagePaths.length);
});
