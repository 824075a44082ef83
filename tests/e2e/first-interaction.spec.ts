import { expect, test, type Page } from '@playwright/test';
import { actions } from './support/contract.ts';
import { actionPath } from './support/site.ts';

/**
 * Issue 43: a page runs none of its module scripts before the reader's first interaction, and
 * the interaction that brings them does what it would have done with them already there: the
 * first click on a tab switches it, the first click on the menu button of a phone opens the menu.
 */

function scriptRequests(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

const [action] = actions;
if (action === undefined) throw new Error('the contract has no action');

test('an action page fetches no script until the first click, and that click switches the tab', async ({ page }) => {
  const scripts = scriptRequests(page);
  await page.goto(actionPath(action.identifier));
  await page.waitForLoadState('networkidle');
  expect(scripts, 'scripts fetched before any interaction').toEqual([]);
  expect(await page.locator('script[type="module"]').count(), 'module scripts left in the page').toBe(0);

  const tab = page.locator('.code-samples [role="tab"][aria-selected="false"]').first();
  const tabId = await tab.getAttribute('id');
  // A click without moving the pointer first: the click itself brings the scripts.
  await page.locator(`[id="${tabId}"]`).dispatchEvent('click');
  await expect(page.locator(`[id="${tabId}"]`)).toHaveAttribute('aria-selected', 'true');
  expect(scripts.length, 'the scripts came with the click').toBeGreaterThan(0);
  expect(new URL(page.url()).hash, 'the tab did not jump to its panel').toBe('');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true });

  test('the first tap on the menu button opens the menu', async ({ page }) => {
    await page.goto(actionPath(action.identifier));
    const sidebar = page.locator('#starlight__sidebar');
    await expect(sidebar).toBeHidden();
    await page.getByRole('button', { name: 'Menu' }).tap();
    await expect(sidebar).toBeVisible();
  });
});
