import { expect, test } from '@playwright/test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { refusalDetails } from '../../src/lib/contract/refusal-details.ts';
import { responseWithStatus } from '../../src/lib/contract/response-lookups.ts';
import { conflictStatus } from '../../src/lib/contract/response-names.ts';
import { expectedDocument } from './support/contract.ts';

/**
 * The search puts the page that owns a term first: the errors guide for an error code, the
 * endpoint page for a field of a response body, the authentication page for the key.
 */
const model = readReferenceModel(expectedDocument);
const [refusalCode] = responseWithStatus(model.responses, conflictStatus, 'to a refused action').errorCodes;
const refusal = refusalDetails(model.responses, model.lifecycle.states);
if (refusalCode === undefined) throw new Error('the 409 names no error code');

const queries = [
  { query: refusalCode.code, firstPath: '/errors-and-rate-limits/' },
  { query: refusal.allowedActions, firstPath: '/reference/endpoint/' },
  { query: 'api key header', firstPath: '/authentication/' },
];

test('the first search result is the page that owns the term', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Search' }).click();
  const dialog = page.getByRole('dialog');
  const input = dialog.getByRole('textbox', { name: 'Search' });
  for (const { query, firstPath } of queries) {
    await test.step(query, async () => {
      await input.fill(query);
      const first = dialog.locator('.pagefind-ui__result').first().locator('.pagefind-ui__result-link').first();
      await expect(first).toBeVisible();
      await expect.poll(async () => new URL((await first.getAttribute('href')) ?? '', page.url()).pathname, `the first result for "${query}"`).toBe(firstPath);
    });
  }
});
