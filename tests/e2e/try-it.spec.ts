import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { wordpressRestPrefix } from '../../src/lib/contract/endpoint.ts';
import { noRouteErrorCode } from '../../src/lib/contract/response-names.ts';
import { readExecutableContractWith, noSchemaValidator } from '../../src/lib/contract/serving-contract.ts';
import { decodeJson } from '../../src/sandbox/rest-request.ts';
import { sampleLanguages } from '../../src/lib/samples/code-samples.ts';
import { defaultApiKey, sandboxSeed } from '../../src/sandbox/seed.ts';
import { defaultRetryAfterSeconds } from '../../src/sandbox/host.ts';
import { retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { readWalkthrough } from '../../src/sandbox/walkthrough.ts';
import { expectedDocument } from './support/contract.ts';
import { actionPath } from './support/site.ts';

/**
 * "Try it" on the action pages: the sandbox runs in a worker of the page, so a reader walks a
 * subscription through several actions with the keyboard alone, and not one request leaves the
 * page while they do. Every action, status and member is read from the contract.
 */

const contract = readExecutableContractWith(expectedDocument, noSchemaValidator);
const { model, result, errors } = contract;
const seed = sandboxSeed(contract);

/** Two actions whose examples walk one subscription: the first leaves it where the second starts. */
function exampleWalk() {
  for (const first of model.actions) {
    for (const second of model.actions) {
      const [a, b] = [first.successExample.value, second.successExample.value] as Record<string, unknown>[];
      if (first !== second && a?.[result.subject] === b?.[result.subject] && a?.[result.status] === b?.[result.previousStatus] && seed.some((subscription) => subscription.id === a?.[result.subject] && subscription.status === a?.[result.previousStatus])) {
        return { first, second, subscriptionId: a?.[result.subject] as number };
      }
    }
  }
  throw new Error('no example starts where another leaves its subscription');
}

/** Every request the page makes from now on, but the icon, which the browser fetches when it pleases. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    // The page's own scripts come on the reader's first interaction (docs/benches.md), from the
    // site's `_astro/` folder; what the panel fetches and sends is what these tests follow.
    const pathname = new URL(request.url()).pathname;
    const pageScript = request.resourceType() === 'script' && pathname.startsWith('/_astro/');
    if (pathname !== '/favicon.svg' && !pageScript) requests.push(request);
  });
  return requests;
}

async function openPanel(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try it in this page' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/ready|not usable/);
  await expect(page.getByLabel('Request body (JSON)')).toBeFocused();
}

async function sendWithKeyboard(page: Page): Promise<{ status: number; body: Record<string, unknown> }> {
  const before = await page.locator('[aria-label="The answer as received"]').textContent();
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[aria-label="The answer as received"]')).not.toHaveText(before ?? '');
  const text = (await page.locator('[aria-label="The answer as received"]').textContent()) ?? '';
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, body: JSON.parse(text.slice(text.indexOf('\n\n') + 2)) as Record<string, unknown> };
}

/** The status line and the answer's first lines, its body included, are on screen, not below the fold. */
async function expectAnswerInView(page: Page): Promise<void> {
  const answer = page.locator('[aria-label="The answer as received"]');
  await expect(page.getByRole('status')).toBeInViewport();
  await expect(answer).toBeInViewport();
  // The body comes right after the status line, at the top of its box, not after the headers.
  expect(await answer.evaluate((element) => element.scrollTop)).toBe(0);
  expect((await answer.textContent()) ?? '').toMatch(/^HTTP\/1\.1 \d{3}[^\n]*\n\n\S/);
  const box = await answer.boundingBox();
  const viewport = page.viewportSize();
  if (box === null || viewport === null) throw new Error('the answer has no box');
  expect(box.y + Math.min(box.height, 80), 'the first lines of the answer are above the fold').toBeLessThanOrEqual(viewport.height);
}

async function replaceBody(page: Page, body: Record<string, unknown>): Promise<void> {
  const editor = page.getByLabel('Request body (JSON)');
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(JSON.stringify(body, null, 2));
}

test('the pause and resume pages walk a subscription, meet a 409 and reset, keyboard only, with no request leaving the page', async ({ page }) => {
  const { first, second, subscriptionId } = exampleWalk();
  const requests = recordRequests(page);
  await page.goto(actionPath(first.identifier));
  await page.waitForLoadState('networkidle');
  const tryItFiles = (found: Request[]) => found.map((request) => new URL(request.url()).pathname).filter((pathname) => /sandbox-worker|try-it-panel/.test(pathname));
  expect(tryItFiles(requests), 'fetched before the first click').toEqual([]);
  requests.length = 0;
  await openPanel(page);
  const loadedOnClick = requests.map((request) => new URL(request.url()).pathname);
  expect(loadedOnClick.sort()).toEqual(['/sandbox-worker.js', '/try-it-panel.js']);
  requests.length = 0;

  const firstAnswer = await sendWithKeyboard(page);
  expect(firstAnswer).toEqual({ status: 200, body: first.successExample.value });
  await expectAnswerInView(page);
  await expect(page.getByRole('status')).toContainText(`${result.changed}: true`);
  const again = await sendWithKeyboard(page);
  expect(again.status).toBe(200);
  expect(again.body[result.changed]).toBe(false);
  await expectAnswerInView(page);
  // The status line tells the repeat from the first pause, for a reader who only hears it.
  await expect(page.getByRole('status')).toContainText(`${result.changed}: false`);
  await expect(page.getByLabel('Request body (JSON)')).toBeFocused();

  // Moving to the next action's page keeps the tab's subscriptions.
  await page.goto(actionPath(second.identifier));
  requests.length = 0;
  await openPanel(page);
  requests.length = 0;
  expect(await sendWithKeyboard(page)).toEqual({ status: 200, body: second.successExample.value });

  // A subscription in a status the action refuses: the 409 with the actions that status allows.
  const refused = seed.find((subscription) => second.refusedStates.includes(subscription.status) && model.lifecycle.finalStates.includes(subscription.status));
  if (refused === undefined) throw new Error(`no seeded subscription is in a final status ${second.identifier} refuses`);
  await replaceBody(page, { ...(second.requestExample.value as Record<string, unknown>), [model.envelope.credential]: defaultApiKey, [model.envelope.subject]: refused.id });
  const conflict = await sendWithKeyboard(page);
  expect(conflict.status).toBe(Number(errors.transitionNotAllowed.status));
  expect(conflict.body.code).toBe(errors.transitionNotAllowed.code);
  expect((conflict.body.data as Record<string, unknown>)[errors.allowedActionsMember]).toBeDefined();

  // The reset brings the seed back.
  await page.getByRole('button', { name: 'Reset to the seed' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/back to the seed/);
  const rows = page.locator('.try-subscriptions tbody tr');
  await expect(rows).toHaveCount(seed.length);
  const subscriptionRow = rows.filter({ has: page.getByRole('cell', { name: String(subscriptionId), exact: true }) });
  const seededStatus = seed.find((subscription) => subscription.id === subscriptionId)?.status ?? '';
  await expect(subscriptionRow.getByRole('cell').nth(1)).toHaveText(seededStatus);

  expect(requests.map((request) => request.url()), 'requests made while sending').toEqual([]);
  // The tab keeps the subscriptions in its session storage; nothing in local storage or a cookie holds the key.
  const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }));
  expect(stored).toContain(String(subscriptionId));
  expect(stored).not.toContain(defaultApiKey);
  expect(await page.context().cookies()).toEqual([]);
});

test('the throttle answers the next requests only, with Retry-After, and the host error with its HTML page', async ({ page }) => {
  const [action] = model.actions;
  if (action === undefined) throw new Error('the contract has no action');
  await page.goto(actionPath(action.identifier));
  await openPanel(page);
  await page.getByLabel('Requests to throttle').fill('2');
  // Its Retry-After field left empty: the default the terminal sandbox's --retry-after has.
  await page.getByLabel('Retry-After (seconds)').fill('');
  await page.getByRole('button', { name: 'Throttle' }).click();
  for (let attempt = 0; attempt < 2; attempt += 1) {
    await page.getByLabel('Request body (JSON)').focus();
    await page.keyboard.press('Control+Enter');
    await expect(page.locator('[aria-label="The answer as received"]')).toContainText(`HTTP/1.1 ${contract.throttled.status}`);
    // Named as the Node sandbox sends them: in lower case.
    await expect(page.locator('[aria-label="The headers of the answer"]')).toContainText(new RegExp(`^${contract.retryAfterHeader.toLowerCase()}: ${defaultRetryAfterSeconds}$`, 'm'));
    await expect(page.locator('[aria-label="The request as sent"]')).toContainText('Sandbox-Throttle:');
  }
  // The third request passes; sent from the Send button with the keyboard, which keeps the focus.
  await page.getByRole('button', { name: 'Send', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[aria-label="The answer as received"]')).toContainText('HTTP/1.1 200');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeFocused();
  // Copy as curl copies what was sent: the method, the URL, the body.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`--request ${model.endpoint.method} `);
  // With the timeouts every sample has.
  expect(copied).toContain(`--connect-timeout ${retryPolicy.connectTimeoutSeconds} --max-time ${retryPolicy.attemptTimeoutSeconds}`);
  expect(copied).toContain(model.endpoint.urlPath);
  expect(copied).toContain(`"${model.envelope.selector}": "${action.identifier}"`);
  await page.getByRole('button', { name: 'Fail the next request' }).click();
  await page.getByLabel('Request body (JSON)').focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[aria-label="The answer as received"]')).toContainText('<!DOCTYPE html>');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('there is no Try it and no Send', async ({ page }) => {
    const [action] = model.actions;
    await page.goto(actionPath(action?.identifier ?? ''));
    await expect(page.getByRole('button', { name: 'Try it in this page' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Send' })).toHaveCount(0);
  });
});

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 375]) {
    test(`axe finds nothing in the open panel with an answer, ${scheme} theme, ${width} px`, async ({ browser }) => {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: 900 } });
      await context.addInitScript((theme) => localStorage.setItem('starlight-theme', theme), scheme);
      const page = await context.newPage();
      const [action] = model.actions;
      await page.goto(actionPath(action?.identifier ?? ''));
      await openPanel(page);
      await page.keyboard.press('Control+Enter');
      await expect(page.locator('[aria-label="The answer as received"]')).toContainText('HTTP/1.1');
      const results = await new AxeBuilder({ page }).include('try-it-panel').withTags(wcagTags).setLegacyMode(true).analyze();
      expect(results.violations.map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
      await context.close();
    });
  }
}

test('the sandbox guide’s steps run in the page and answer as the guide shows', async ({ page }) => {
  const walkthrough = readWalkthrough(expectedDocument);
  const requests = recordRequests(page);
  await page.goto('/sandbox/');
  await page.getByRole('button', { name: 'Run the steps in this page' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/ready|not usable/);
  await page.getByRole('button', { name: 'Reset to the seed' }).click();
  await expect(page.getByRole('status')).toHaveText(/back to the seed/);
  requests.length = 0;
  const steps = [
    ['A success', walkthrough.success],
    ['The same again', walkthrough.repeat],
    ['A refusal', walkthrough.conflict],
    ['A throttled request', walkthrough.throttled],
  ] as const;
  for (const [label, step] of steps) {
    await page.getByRole('button', { name: label, exact: true }).click();
    const answer = page.locator('[aria-label="The answer as received"]');
    const before = (await answer.textContent()) ?? '';
    await page.keyboard.press('Control+Enter');
    await expect(answer).not.toHaveText(before);
    const text = (await answer.textContent()) ?? '';
    expect(text.startsWith(`HTTP/1.1 ${step.status} `), `${label}: ${text.slice(0, 40)}`).toBe(true);
    const body = text.slice(text.indexOf('\n\n') + 2);
    if (typeof step.body === 'string') expect(body.trim()).toBe(step.body.trim());
    else expect(JSON.parse(body)).toEqual(step.body);
    const headers = (await page.locator('[aria-label="The headers of the answer"]').textContent()) ?? '';
    for (const [name, value] of Object.entries(step.headers)) expect(headers.toLowerCase()).toContain(`${name}: ${value}`.toLowerCase());
  }
  expect(requests.map((request) => request.url())).toEqual([]);
});

test('a whole base URL in the site field points every sample at a local sandbox, scheme included', async ({ page }) => {
  const [action] = model.actions;
  await page.goto(actionPath(action?.identifier ?? ''));
  const builder = page.locator('request-builder');
  const site = builder.locator('input[data-site]');
  await expect(site).toHaveCount(model.endpoint.variables.length);
  const localBase = readWalkthrough(expectedDocument).baseUrl;
  await site.first().pressSequentially(localBase);
  const localHost = new URL(localBase).host;
  for (const { language, label } of sampleLanguages) {
    await page.locator('.code-samples').getByRole('tab', { name: label, exact: true }).click();
    const sample = page.locator(`[data-sample-language="${language}"] pre`);
    await expect(sample, `the ${language} sample names the local host`).toContainText(localHost);
    await expect(sample, `the ${language} sample speaks plain HTTP to it`).toContainText('http://');
    await expect(sample, `the ${language} sample keeps no https:// before the site`).not.toContainText('https://');
    await expect(sample).not.toContainText(model.endpoint.variables[0]?.defaultValue ?? '');
  }
});

test('what the reader asks of the host lives in the tab, Link names the site as typed, and a site that is no URL is said', async ({ page }) => {
  const [action, next] = model.actions;
  if (action === undefined || next === undefined) throw new Error('the contract has fewer than two actions');
  await page.goto(actionPath(action.identifier));
  const site = page.locator('request-builder input[data-site]').first();
  const localBase = readWalkthrough(expectedDocument).baseUrl;
  await site.fill(localBase);
  await openPanel(page);
  await page.keyboard.press('Control+Enter');
  // WordPress names its own URL in Link: the scheme and the host the reader gave.
  await expect(page.locator('[aria-label="The headers of the answer"]')).toContainText(`link: <${localBase}${wordpressRestPrefix}/>`);
  await page.getByRole('button', { name: 'Throttle' }).click();
  await expect(page.getByText(/^Asked for: the next 1 request/)).toBeVisible();
  await page.goto(actionPath(next.identifier));
  await openPanel(page);
  await expect(page.getByText(/^Asked for: the next 1 request/)).toBeVisible();
  await page.locator('request-builder input[data-site]').first().fill('http://');
  await page.getByLabel('Request body (JSON)').focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('.try-check')).toContainText('is not a host name or an http(s) URL');
});

test('a sandbox that cannot load in the page says so', async ({ page }) => {
  const [action] = model.actions;
  await page.route('**/sandbox-worker.js', (route) => route.abort());
  await page.goto(actionPath(action?.identifier ?? ''));
  await page.getByRole('button', { name: 'Try it in this page' }).click();
  await expect(page.getByRole('status')).toHaveText(/could not start in this page/);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
]) {
  test(`after Send the status and the answer's body are in view, the focus stays, and the status tells a repeat, ${viewport.width}x${viewport.height}`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const { first } = exampleWalk();
    await page.goto(actionPath(first.identifier));
    await openPanel(page);
    await sendWithKeyboard(page);
    await expectAnswerInView(page);
    await expect(page.getByLabel('Request body (JSON)')).toBeFocused();
    const firstStatus = await page.getByRole('status').textContent();
    await page.getByRole('button', { name: 'Send', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).not.toHaveText(firstStatus ?? '');
    await expect(page.getByRole('status')).toContainText(`${result.changed}: false`);
    await expectAnswerInView(page);
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeFocused();
    await context.close();
  });
}

test('the panel answers for the path as sent: the endpoint pasted as the site gets no route, and the builder says why', async ({ page }) => {
  const [action] = model.actions;
  await page.goto(actionPath(action?.identifier ?? ''));
  const localBase = readWalkthrough(expectedDocument).baseUrl;
  const site = page.locator('request-builder input[data-site]').first();
  await site.fill(`${localBase}${model.endpoint.urlPath}`);
  await expect(page.locator('[data-endpoint-pasted]')).toBeVisible();
  await openPanel(page);
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[aria-label="The request as sent"]')).toContainText(`${model.endpoint.method} ${model.endpoint.urlPath}${model.endpoint.urlPath} HTTP/1.1`);
  await expect(page.locator('[aria-label="The answer as received"]')).toContainText(`"code":"${noRouteErrorCode}"`);
  await expect(page.getByRole('status')).toContainText(noRouteErrorCode);
  // A site in a subdirectory: the sandbox serves the root, so the path is a page it does not have.
  await site.fill(`${localBase}/shop`);
  await expect(page.locator('[data-endpoint-pasted]')).toBeHidden();
  await page.getByLabel('Request body (JSON)').focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[aria-label="The answer as received"]')).toContainText('HTTP/1.1 404');
  await expect(page.locator('[aria-label="The answer as received"]')).toContainText('<!DOCTYPE html>');
});

test('the verdict says what the next Send carries and gets, names the JSON error, and gives each reason once', async ({ page }) => {
  const [action] = model.actions;
  await page.goto(actionPath(action?.identifier ?? ''));
  await openPanel(page);
  const verdict = page.locator('.try-check');
  await expect(verdict).toContainText('would get 200');
  await page.getByRole('button', { name: 'Throttle' }).click();
  await expect(verdict).toContainText(`would get ${contract.throttled.status}`);
  await expect(verdict).toContainText('Sandbox-Throttle');
  await page.getByRole('button', { name: 'Reset to the seed' }).click();

  await replaceBody(page, {});
  await page.keyboard.insertText('\n{"broken": ');
  const syntax = decodeJson(new TextEncoder().encode('{"broken": '));
  if (syntax.kind !== 'invalid') throw new Error('the sandbox parses a broken body');
  await expect(verdict).toContainText(syntax.errorMessage);
  await expect(verdict).toContainText(/line \d+, column \d+/);
  const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
  const tooDeep = decodeJson(new TextEncoder().encode(deep));
  if (tooDeep.kind !== 'invalid') throw new Error('the sandbox parses a body nested 600 deep');
  await page.getByLabel('Request body (JSON)').fill(deep);
  await expect(verdict).toContainText(tooDeep.errorMessage);

  await replaceBody(page, { ...(action?.requestExample.value as Record<string, unknown>), [model.envelope.credential]: defaultApiKey, [model.envelope.subject]: 'not-a-number' });
  await expect(verdict).toContainText(errors.invalidParameter.code);
  const said = (await verdict.textContent()) ?? '';
  expect(said).not.toContain(`${model.envelope.subject} ${model.envelope.subject}`);
});

test('a preset without a throttle clears the one a throttled preset queued', async ({ page }) => {
  await page.goto('/sandbox/');
  await page.getByRole('button', { name: 'Run the steps in this page' }).click();
  await expect(page.getByRole('status')).toHaveText(/ready|not usable/);
  await page.getByRole('button', { name: 'A throttled request', exact: true }).click();
  await page.getByRole('button', { name: 'A success', exact: true }).click();
  await expect(page.locator('.try-check')).not.toContainText('Sandbox-Throttle');
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('[aria-label="The request as sent"]')).not.toContainText('Sandbox-Throttle');
  await expect(page.locator('[aria-label="The answer as received"]')).not.toContainText(`HTTP/1.1 ${contract.throttled.status}`);
});

test('on a slow connection the panel says it is starting, keeps Send off, focuses the editor and keeps what the reader typed', async ({ page }) => {
  const [action] = model.actions;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/sandbox-worker.js', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(actionPath(action?.identifier ?? ''));
  await page.getByRole('button', { name: 'Try it in this page' }).click();
  await expect(page.getByRole('status')).toContainText('Starting the sandbox');
  await expect(page.getByLabel('Request body (JSON)')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toHaveAttribute('aria-disabled', 'true');
  const typed = JSON.stringify({ ...(action?.requestExample.value as Record<string, unknown>), [model.envelope.credential]: defaultApiKey, typed: true });
  await page.keyboard.insertText(typed);
  release();
  await expect(page.getByRole('status')).toHaveText(/ready/);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByLabel('Request body (JSON)')).toHaveValue(typed);
});

test('the tab keeps no note typed in a body, and a tampered stored state gives the seed, not an error', async ({ page }) => {
  const { first } = exampleWalk();
  const errorsSeen: string[] = [];
  page.on('pageerror', (error) => errorsSeen.push(error.message));
  await page.goto(actionPath(first.identifier));
  await openPanel(page);
  const note = 'a-note-typed-by-the-reader-81Qz';
  await replaceBody(page, { ...(first.requestExample.value as Record<string, unknown>), [model.envelope.credential]: defaultApiKey, note });
  await sendWithKeyboard(page);
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }));
  expect(stored).toContain(first.identifier);
  expect(stored).not.toContain(note);
  // Headers as the Node sandbox sends them.
  const headers = (await page.locator('[aria-label="The headers of the answer"]').textContent()) ?? '';
  expect(headers.split('\n').map((line) => line.slice(0, line.indexOf(':'))).filter((name) => name !== name.toLowerCase())).toEqual([]);

  for (const tampered of ['null', '{"simulation":null,"pending":null}', '[]', '{"simulation":{"store":{"subscriptions":"x"}}}']) {
    await page.evaluate((value) => sessionStorage.setItem('try-it-sandbox', value), tampered);
    await page.reload();
    await openPanel(page);
    await expect(page.locator('.try-subscriptions tbody tr')).toHaveCount(seed.length);
    await expect(page.getByRole('status')).not.toContainText(/Error|undefined|null/);
  }
  expect(errorsSeen).toEqual([]);
});
