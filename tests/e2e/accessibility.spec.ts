import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { actions } from './support/contract.ts';
import { actionPath, sitemapPagePaths } from './support/site.ts';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA (2.2 adds no level-A rule to axe). */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

function describeViolations(results: Awaited<ReturnType<AxeBuilder['analyze']>>): string[] {
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown impact'}): ${violation.help} at ` +
      violation.nodes.map((node) => node.target.join(' ')).join(', '),
  );
}

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
        expect.soft(describeViolations(results), `axe on ${pagePath} (${scheme})`).toEqual([]);
        await page.close();
      });
    }
    await context.close();
  });
}

// The search interface is only downloaded when a reader opens it, so the crawl above never sees
// it: open it, show results, and check it on a wide and a narrow screen in both themes.
for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 375]) {
    test(`axe finds no WCAG A/AA violation in the open search, ${scheme} theme, ${width} px`, async ({ browser }) => {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: 800 } });
      await context.addInitScript((theme) => localStorage.setItem('starlight-theme', theme), scheme);
      const page = await context.newPage();
      const [firstAction] = actions;
      if (firstAction === undefined) throw new Error('The contract defines no action to search for.');
      await page.goto(actionPath(firstAction.identifier));
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('dialog').getByRole('textbox', { name: 'Search' }).fill(firstAction.identifier);
      await expect(page.locator('.pagefind-ui__result').first()).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(wcagTags).setLegacyMode(true).analyze();
      expect(describeViolations(results)).toEqual([]);
      await context.close();
    });
  }
}
