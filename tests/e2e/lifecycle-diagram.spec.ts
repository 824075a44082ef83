/**
 * The lifecycle diagrams as a reader sees them: on a 390 px phone every word in them is at least
 * 12 px tall, on the states page and on every action page, and with JavaScript off they are there.
 */
import { expect, test, type Page } from '@playwright/test';
import { actions } from './support/contract.ts';
import { actionPath } from './support/site.ts';

const statesPath = '/states-and-transitions/';
const pagePaths = [statesPath, ...actions.map((action) => actionPath(action.identifier))];

interface TextSize {
  text: string;
  /** The rendered height of the text's box, in CSS pixels. */
  boxHeight: number;
  /** The font size times the scale the SVG is drawn at, in CSS pixels. */
  fontSize: number;
}

/** The size of every text of every diagram shown on the page. */
async function diagramTextSizes(page: Page): Promise<TextSize[]> {
  return page.locator('svg.lifecycle-diagram').evaluateAll((svgs) =>
    svgs
      .filter((svg) => svg.getBoundingClientRect().width > 0)
      .flatMap((svg) => {
        const viewBoxWidth = (svg as SVGSVGElement).viewBox.baseVal.width;
        const scale = svg.getBoundingClientRect().width / viewBoxWidth;
        return [...svg.querySelectorAll('text')].map((text) => ({
          text: text.textContent ?? '',
          boxHeight: text.getBoundingClientRect().height,
          fontSize: Number.parseFloat(getComputedStyle(text).fontSize) * scale,
        }));
      }),
  );
}

test('at 390 px every label of every lifecycle diagram is at least 12 px tall', async ({ page }) => {
  test.setTimeout(pagePaths.length * 10_000);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const pagePath of pagePaths) {
    await test.step(pagePath, async () => {
      await page.goto(pagePath);
      const sizes = await diagramTextSizes(page);
      expect(sizes.length, `a diagram with text on ${pagePath}`).toBeGreaterThan(0);
      for (const size of sizes) {
        expect.soft(size.fontSize, `the font of "${size.text}" on ${pagePath}`).toBeGreaterThanOrEqual(12);
        expect.soft(size.boxHeight, `the box of "${size.text}" on ${pagePath}`).toBeGreaterThanOrEqual(12);
      }
      const overflow = await page.locator('svg.lifecycle-diagram').evaluateAll((svgs) =>
        svgs.filter((svg) => svg.getBoundingClientRect().right > document.documentElement.clientWidth).length,
      );
      expect(overflow, `no diagram runs past the window on ${pagePath}`).toBe(0);
    });
  }
});

test('the states page shows one drawing at a time: the wide one on a wide screen, the narrow one on a phone', async ({ page }) => {
  for (const [width, shown] of [
    [1280, 'variant-wide'],
    [390, 'variant-narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(statesPath);
    const visible = page.locator('svg.lifecycle-diagram:visible');
    await expect(visible).toHaveCount(1);
    await expect(visible).toHaveClass(new RegExp(shown));
    await expect(page.getByRole('img', { name: /Subscription lifecycle/ })).toHaveCount(1);
    for (const size of await diagramTextSizes(page)) expect.soft(size.fontSize, `"${size.text}" at ${width} px`).toBeGreaterThanOrEqual(12);
  }
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the diagrams are drawn and named', async ({ page }) => {
    await page.goto(statesPath);
    await expect(page.getByRole('img', { name: /Subscription lifecycle/ })).toBeVisible();
    const [action] = actions;
    if (action === undefined) throw new Error('The contract defines no action.');
    await page.goto(actionPath(action.identifier));
    await expect(page.getByRole('img', { name: new RegExp(`Where ${action.identifier} leads`) })).toBeVisible();
  });
});
