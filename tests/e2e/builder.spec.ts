import { expect, test, type Page } from '@playwright/test';
import { fillInLead, placeholdersIn } from '../../src/lib/samples/sample-parts.ts';
import { sampleLanguages } from '../../src/lib/samples/code-samples.ts';
import { guidePaths } from '../../src/lib/site/navigation.ts';
import { actions } from './support/contract.ts';
import { codeLines } from './support/code-block.ts';
import { actionPath } from './support/site.ts';

/**
 * The request builder of an action page: what a reader types fills every sample and the request
 * example in place, and goes nowhere: no request, no storage, no cookie, no change of URL.
 */

const typedSite = 'my-own-shop.test';
const typedKey = 'typed-key-7Hq2xZ';
const [keyPlaceholder = ''] = placeholdersIn(actions[0]?.requestExample);

async function storedEverywhere(page: Page): Promise<string> {
  const inPage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, url: location.href }));
  const cookies = JSON.stringify(await page.context().cookies());
  return `${inPage}${cookies}`;
}

test.describe('with clipboard access', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('the copy button copies the sample as filled in', async ({ page }) => {
    const [action] = actions;
    if (action === undefined) throw new Error('the contract has no action');
    await page.goto(actionPath(action.identifier));
    const builder = page.locator('request-builder');
    await builder.locator('input[type="password"]').pressSequentially(typedKey);
    for (const { language, label } of sampleLanguages) {
      await page.locator('.code-samples').getByRole('tab', { name: label, exact: true }).click();
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await page.locator(`[data-sample-language="${language}"]`).getByRole('button', { name: 'Copy to clipboard' }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), `the ${language} copy`).toContain(typedKey);
    }
  });
});

test('typing a site and a key fills every sample and the request example, and nothing leaves the page', async ({ page }) => {
  const [action] = actions;
  if (action === undefined) throw new Error('the contract has no action');
  await page.goto(actionPath(action.identifier));
  const builder = page.locator('request-builder');
  await expect(builder).toBeVisible();
  const keyInput = builder.locator('input[type="password"]');
  await expect(keyInput, 'the key is typed into a password field').toHaveCount(1);
  const urlBefore = page.url();

  const requested: string[] = [];
  // The page's own scripts come on the first key press (docs/benches.md), a GET of a file of the
  // site's `_astro/` folder that carries nothing typed; every other request counts.
  page.on('request', (request) => {
    if (request.resourceType() !== 'script' || !new URL(request.url()).pathname.startsWith('/_astro/')) requested.push(request.url());
  });
  await builder.locator('input[type="text"]').first().pressSequentially(typedSite);
  await keyInput.pressSequentially(typedKey);

  let commentsSeen = 0;
  for (const { language, label } of sampleLanguages) {
    await page.locator('.code-samples').getByRole('tab', { name: label, exact: true }).click();
    const sample = page.locator(`[data-sample-language="${language}"] pre`);
    await expect(sample, `the ${language} sample is shown`).toBeVisible();
    await expect(sample, `the ${language} sample names the typed site`).toContainText(typedSite);
    await expect(sample, `the ${language} sample carries the typed key`).toContainText(typedKey);
    // The comment that says what to fill in keeps the placeholders' names; every other line has the typed values.
    const lines = await codeLines(sample);
    const [comment, ...others] = [lines.filter((line) => line.includes(fillInLead)), lines.filter((line) => !line.includes(fillInLead))];
    expect(others.filter((line) => line.includes(keyPlaceholder)), `the ${language} sample's code`).toEqual([]);
    for (const line of comment ?? []) {
      commentsSeen += 1;
      expect(line, `the ${language} sample's fill-in comment`).toContain(keyPlaceholder);
      expect(line).not.toContain(typedKey);
    }
  }
  expect(commentsSeen, 'the samples say what to fill in').toBeGreaterThan(0);
  const requestExample = page.locator('xpath=//*[@id="request-example"]/following::pre[1]');
  await expect(requestExample).toContainText(typedKey);

  expect(requested, 'typing sends nothing').toEqual([]);
  expect(page.url(), 'the URL keeps nothing of it').toBe(urlBefore);
  const stored = await storedEverywhere(page);
  expect(stored.includes(typedKey) || stored.includes(typedSite), `nothing typed is stored: ${stored}`).toBe(false);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the builder stays hidden and the samples keep their placeholders', async ({ page }) => {
    const [action] = actions;
    if (action === undefined) throw new Error('the contract has no action');
    await page.goto(actionPath(action.identifier));
    await expect(page.locator('request-builder')).toBeHidden();
    await expect(page.locator('[data-sample-language="curl"] pre')).toContainText('<API_KEY>');
  });
});

test('only action pages carry the builder', async ({ page }) => {
  for (const pagePath of ['/', '/reference/', '/reference/endpoint/', '/errors-and-rate-limits/']) {
    await page.goto(pagePath);
    await expect(page.locator('request-builder'), pagePath).toHaveCount(0);
  }
});

test('the builder links the sandbox guide’s section that starts a local sandbox with npx or npm run sandbox', async ({ page }) => {
  const [action] = actions;
  await page.goto(actionPath(action?.identifier ?? ''));
  const link = page.locator('request-builder').getByRole('link', { name: 'start one' });
  await expect(link).toHaveAttribute('href', `${guidePaths.sandbox}#start-it`);
  await link.click();
  await expect(page.locator('#start-it')).toBeVisible();
  // The section's text: from its heading to the next heading of its level.
  const startIt = await page.evaluate(() => {
    const heading = document.getElementById('start-it');
    let node = heading?.closest('.sl-heading-wrapper') ?? heading;
    let text = '';
    for (node = node?.nextElementSibling ?? null; node !== null && !node.matches('h2, .sl-heading-wrapper.level-h2'); node = node.nextElementSibling) text += node.textContent ?? '';
    return text;
  });
  expect(startIt).toContain('npx --package');
  expect(startIt).toContain('npm run sandbox');
});
