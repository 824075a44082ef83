import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { sitemapPagePaths } from './support/site.ts';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA (2.2 adds no level-A rule to axe). */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no WCAG A/AA violation on any page in the ${scheme} theme`, async ({ browser, request }) => {
    const pagePaths = await sitemapPagePaths(request);
    test.setTimeout(pagePaths.length * 15_000);
    // Starlight picks its theme from localStorage first and the system preference second;
    // set both so the page cannot fall back to the other scheme.
    const context = await browser.newContext({ colorScheme: scheme });
    await context.addInitScript((theme) => localStorage.setItem('starlight-theme', theme), scheme);

    for (const pagePath of pagePaths) {
      await test.step(pagePath, async () => {
        const page = await context.newPage();
        await page.goto(pagePath);
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
        // Legacy mode runs axe once inside the page instead of in every frame plus a second
        // page to merge the results: half the time, and identical results on pages without
        // frames, which the next line proves these are.
        await expect(page.locator('iframe, frame')).toHaveCount(0);
        const results = await new AxeBuilder({ page }).withTags(wcagTags).setLegacyMode(true).analyze();
        const violations = results.violations.map(
          (violation) =>
            `${violation.id} (${violation.impact ?? 'unknown impact'}): ${violation.help} at ` +
            violation.nodes.map((node) => node.target.join(' ')).join(', '),
        );
        expect.soft(violations, `axe on ${pagePath} (${scheme})`).toEqual([]);
        await page.close();
      });
    }
    await context.close();
  });
}
