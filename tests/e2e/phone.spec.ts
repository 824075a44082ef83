import { expect, test } from '@playwright/test';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { loadReferenceModel } from '../../src/lib/contract/actions.ts';
import { aiCatalogPath, aiCatalogType, mcpCatalogPath, serverCardType } from '../../src/lib/site/discovery.ts';
import { siteConfig } from '../../src/site-config.ts';
import { sitemapPagePaths } from './support/site.ts';

/**
 * Issue 27, in the browser: on a wide screen a short identifier (a status such as `pending-cancel`)
 * stays on one line in a table cell; the retrying clients, each rendered as one text to keep the
 * errors guide light, are copied as shown and can be read with JavaScript off; both catalogs are
 * served as the server-card draft asks, listing the card beside the MCP server.
 */

const model = loadReferenceModel();
const [firstAction] = model.actions;
if (firstAction === undefined) throw new Error('the contract has no action');
// Expressive Code drops a block's last line break, as it always has.
const clients = retryingClientSamples(model.endpoint, sampleStatuses(model.responses), firstAction.requestExample.value).map((client) => ({ ...client, code: client.code.trimEnd() }));

test('at 1440 px no short identifier in a table cell runs over two lines', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const pagePath of await sitemapPagePaths(request)) {
    await test.step(pagePath, async () => {
      await page.goto(pagePath);
      const broken = await page.locator('main :is(td, th) code').evaluateAll((codes) =>
        codes
          .filter((code) => {
            const text = code.textContent ?? '';
            return text.length <= 16 && !/\s/.test(text) && code.getClientRects().length > 1;
          })
          .map((code) => code.textContent ?? ''),
      );
      expect.soft(broken, `identifiers on two lines on ${pagePath}`).toEqual([]);
    });
  }
});

test.describe('with clipboard access', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('each retrying client is shown and copied exactly as the site writes it', async ({ page }) => {
    await page.goto('/errors-and-rate-limits/');
    for (const client of clients) {
      await test.step(client.language, async () => {
        await page.getByRole('tab', { name: client.label, exact: true }).click();
        const block = page.locator(`[data-sample-language="${client.language}"]`);
        expect(await block.locator('pre code').textContent()).toBe(client.code);
        await page.evaluate(() => navigator.clipboard.writeText(''));
        await block.getByRole('button', { name: 'Copy to clipboard' }).click();
        await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(client.code);
      });
    }
  });
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('every retrying client can be read on the errors guide', async ({ page }) => {
    await page.goto('/errors-and-rate-limits/');
    for (const client of clients) {
      const block = page.locator(`[data-sample-language="${client.language}"] pre code`);
      await expect(block, client.language).toBeVisible();
      expect(await block.textContent()).toBe(client.code);
    }
  });
});

test('both catalogs are served to any origin, cached, and list the card at {mcp_url}/server-card', async ({ request }) => {
  for (const [catalogPath, type] of [
    [aiCatalogPath, aiCatalogType],
    [mcpCatalogPath, 'application/json'],
  ] as const) {
    const response = await request.get(catalogPath);
    expect(response.status(), catalogPath).toBe(200);
    const headers = response.headers();
    expect(headers['content-type'], catalogPath).toBe(type);
    expect(headers['access-control-allow-origin'], catalogPath).toBe('*');
    expect(headers['access-control-allow-methods'], catalogPath).toBe('GET');
    expect(headers['cache-control'], catalogPath).toBe('public, max-age=3600');
    const catalog = (await response.json()) as { entries: { type: string; url: string }[] };
    expect(catalog.entries.map(({ type: entryType, url }) => ({ type: entryType, url })), catalogPath).toEqual([{ type: serverCardType, url: `${siteConfig.mcpUrl}/server-card` }]);
  }
});
