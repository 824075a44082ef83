import { expect, test, type Locator, type Page } from '@playwright/test';
import { sampleLanguages as sampleLanguageList } from '../../src/lib/samples/code-samples.ts';
import { clientMethodName, pythonMethodName } from '../../src/lib/samples/client-libraries.ts';
import { actions, expectedStates } from './support/contract.ts';
import { codeText } from './support/code-block.ts';
import { actionPath, sitemapPagePaths } from './support/site.ts';

/** The languages every action page offers a sample in, from the one list the pages read. */
const sampleLanguages = sampleLanguageList.map((entry) => entry.language);
/** The samples that call a client library: its method names the action, and the library knows the endpoint. */
const libraryLanguages = new Set<string>(sampleLanguageList.filter((entry) => entry.library).map((entry) => entry.language));

/** The sections every action page has, by heading id. */
const actionSections = ['fields', 'request-example', 'success-response', 'errors', 'code-samples'];

function heading(page: Page, id: string): Locator {
  return page.locator(`:is(h2, h3, h4)[id="${id}"]`);
}

/** The first code block after a heading, which is how the page pairs a section with its code. */
function codeAfter(page: Page, id: string): Locator {
  return page.locator(`xpath=//*[@id="${id}"]/following::pre[1]`);
}


/** What assistive technology can read for an image: its name and its description. */
async function textAlternative(image: Locator): Promise<string> {
  return image.evaluate((element) => {
    const referenced = (attribute: string): string =>
      (element.getAttribute(attribute) ?? '')
        .split(/\s+/)
        .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
        .join(' ');
    return [
      element.getAttribute('aria-label') ?? '',
      referenced('aria-labelledby'),
      referenced('aria-describedby'),
      element.querySelector(':scope > title')?.textContent ?? '',
      element.querySelector(':scope > desc')?.textContent ?? '',
    ].join(' ');
  });
}

test.describe('read without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const action of actions) {
    test(`the ${action.identifier} page shows its fields, examples and a sample in every language`, async ({ page }) => {
      const response = await page.goto(actionPath(action.identifier));
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveText(action.identifier);
      for (const id of actionSections) {
        await expect.soft(heading(page, id), `section #${id}`).toBeVisible();
      }

      const fields = page.locator('table.fields');
      await expect(fields).toBeVisible();
      const listed = await fields
        .locator('tr[data-field]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-field') ?? ''));
      expect(listed.toSorted(), 'the fields the schema declares, each once').toEqual(action.fields.toSorted());
      for (const field of action.fields) {
        await expect.soft(fields.locator(`tr[data-field="${field}"]`), `field ${field}`).toBeVisible();
      }

      const requestExample = codeAfter(page, 'request-example');
      await expect(requestExample).toBeVisible();
      expect(JSON.parse(await codeText(requestExample)), 'request example').toEqual(action.requestExample);
      const successExample = codeAfter(page, 'success-response');
      await expect(successExample).toBeVisible();
      expect(JSON.parse(await codeText(successExample)), 'success response').toEqual(action.successExample);

      const apiKeyPlaceholder = String((action.requestExample as { api_key?: unknown }).api_key);
      for (const language of sampleLanguages) {
        const sample = page.locator(`[data-sample-language="${language}"]`);
        await expect(sample, `${language} sample`).toHaveCount(1);
        const code = sample.locator('pre');
        await expect.soft(code, `${language} sample is visible`).toBeVisible();
        const text = await codeText(code);
        if (libraryLanguages.has(language)) {
          const method = language === 'python-library' ? pythonMethodName(action.identifier) : clientMethodName(action.identifier);
          expect.soft(text, `${language} sample calls the action's method`).toContain(`${method}(`);
        } else {
          expect.soft(text, `${language} sample calls the endpoint`).toContain(action.endpointPath);
          expect.soft(text, `${language} sample sends the action`).toContain(action.identifier);
        }
        expect.soft(text, `${language} sample keeps the example's key placeholder`).toContain(apiKeyPlaceholder);
      }
    });
  }

  test('the architecture and state diagrams are drawn at build time with text alternatives', async ({
    page,
  }) => {
    for (const pagePath of ['/', '/states-and-transitions/']) {
      await page.goto(pagePath);
      // The state diagram is drawn twice, wide and narrow, and a width shows one: a hidden one is
      // out of the accessibility tree, so only the shown one can have a name.
      const diagrams = page.locator('main svg[role="img"]:visible');
      await expect(diagrams.first(), `a diagram on ${pagePath}`).toBeVisible();
      for (const diagram of await diagrams.all()) {
        await expect(diagram, `the diagram on ${pagePath} has a name`).toHaveAccessibleName(/\w+\s+\w+/);
      }
    }
    // The state diagram says in words what it shows: every state of the lifecycle.
    const alternative = await textAlternative(page.locator('main svg[role="img"]:visible').first());
    for (const state of expectedStates()) {
      expect.soft(alternative, `the state diagram's text alternative names ${state}`).toContain(state);
    }
  });
});

test.describe('with JavaScript and clipboard access', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('the copy button copies the curl sample exactly', async ({ page }) => {
    for (const action of actions) {
      await test.step(action.identifier, async () => {
        const response = await page.goto(actionPath(action.identifier));
        expect(response?.status()).toBe(200);
        const sample = page.locator('[data-sample-language="curl"]');
        await expect(sample).toBeVisible();
        const shown = await codeText(sample.locator('pre'));
        expect(shown.startsWith('curl')).toBe(true);
        await page.evaluate(() => navigator.clipboard.writeText(''));
        await sample.getByRole('button', { name: 'Copy to clipboard' }).click();
        await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
      });
    }
  });
});

test('the search finds each action by its identifier', async ({ page, baseURL }) => {
  // Pagefind fetches its index and WebAssembly only when a search runs; those stay local too.
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto('/');
  await page.getByRole('button', { name: 'Search' }).click();
  const dialog = page.getByRole('dialog');
  const input = dialog.getByRole('textbox', { name: 'Search' });
  for (const action of actions) {
    await test.step(action.identifier, async () => {
      await input.fill(action.identifier);
      await expect(
        dialog.locator(`a[href$="${actionPath(action.identifier)}"]`).first(),
        `a result links to the ${action.identifier} page`,
      ).toBeVisible();
    });
  }
  const origin = new URL(baseURL ?? '').origin;
  expect(requested.filter((url) => /^https?:/.test(url) && new URL(url).origin !== origin)).toEqual([]);
  expect(requested.some((url) => url.includes('/pagefind/')), 'the search loaded its index').toBe(true);
  expect(consoleErrors).toEqual([]);
});

test('the sidebar reaches every page in the sitemap, and only those', async ({ page, request }) => {
  const pagePaths = await sitemapPagePaths(request);
  // The home page is a splash page without a sidebar; the reference's index has it.
  await page.goto('/reference/');
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  // Collapsed groups still count as reachable: open them as a reader would.
  for (const summary of await sidebar.locator('details:not([open]) > summary').all()) {
    await summary.click();
  }
  const links = sidebar.getByRole('link');
  const linked = new Set<string>();
  for (const link of await links.all()) {
    await expect.soft(link).toBeVisible();
    const href = await link.getAttribute('href');
    if (href !== null) linked.add(new URL(href, page.url()).pathname);
  }
  expect([...linked].sort()).toEqual(pagePaths);
});

test('the sample language a reader picks is kept on the next action page and after a reload', async ({ page }) => {
  const [first, second] = actions;
  if (first === undefined || second === undefined) throw new Error('the contract has fewer than two actions');
  await page.goto(actionPath(first.identifier));
  await page.locator('.code-samples').getByRole('tab', { name: 'Python', exact: true }).click();
  await expect(page.locator('[data-sample-language="python"]')).toBeVisible();
  await page.goto(actionPath(second.identifier));
  await expect(page.locator('.code-samples').getByRole('tab', { name: 'Python', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-sample-language="python"]')).toBeVisible();
  await expect(page.locator('[data-sample-language="curl"]')).toBeHidden();
  await page.reload();
  await expect(page.locator('[data-sample-language="python"]')).toBeVisible();
});

test('on a wide screen a code sample stays in view beside the fields, on every action page', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const action of actions) {
    await test.step(action.identifier, async () => {
      await page.goto(actionPath(action.identifier));
      await page.locator('#fields').evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
      const sample = page.locator('.code-samples [role="tabpanel"]:not([hidden])').first();
      await expect(sample).toBeInViewport({ ratio: 0.3 });
      const fields = await page.locator('#fields').boundingBox();
      const code = await sample.boundingBox();
      expect(fields && code && code.x > fields.x + fields.width / 2, 'the sample stands beside the fields, not under them').toBe(true);
    });
  }
});

test('at 390 px no table cell lies outside the window, on any page, and the site title is whole', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const title = page.locator('.site-title span');
  expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), 'the site title is not cut').toBe(true);
  for (const pagePath of await sitemapPagePaths(request)) {
    await test.step(pagePath, async () => {
      await page.goto(pagePath);
      // Tables inside disclosures (an error's `data`) count too.
      await page.locator('main details').evaluateAll((disclosures) => disclosures.forEach((element) => element.setAttribute('open', '')));
      const outside = await page.locator('main :is(td, th)').evaluateAll((cells) =>
        cells
          .filter((cell) => cell.getClientRects().length > 0)
          .filter((cell) => {
            const box = cell.getBoundingClientRect();
            return box.left < -1 || box.right > window.innerWidth + 1;
          })
          .map((cell) => (cell.textContent ?? '').trim().slice(0, 40)),
      );
      expect(outside, `cells outside the window on ${pagePath}`).toEqual([]);
    });
  }
});

test('the reference index lists the endpoint and every action, and /reference/actions/ leads to it', async ({ page }) => {
  await page.goto('/reference/actions/');
  await expect(page).toHaveURL(/\/reference\/$/);
  await expect(page.locator('h1')).toHaveText('API reference');
  await expect(page.locator('main a[href="/reference/endpoint/"]').first()).toBeVisible();
  const endpointPath = actions[0]?.endpointPath ?? '';
  await expect(page.locator('main .endpoint-url')).toContainText(endpointPath);
  for (const action of actions) {
    await expect.soft(page.locator(`main .action-cards a[href="${actionPath(action.identifier)}"]`), action.identifier).toBeVisible();
  }
});

test('the home page says on one screen what this is: the endpoint, every action, the two ways in', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await expect(page.locator('.hero .brand-mark')).toBeInViewport();
  await expect(page.locator('.hero').getByRole('link', { name: 'Quickstart' })).toBeInViewport();
  await expect(page.locator('.hero').getByRole('link', { name: 'API reference' })).toBeInViewport();
  const endpoint = page.locator('.home-endpoint');
  await expect(endpoint).toContainText(actions[0]?.endpointPath ?? '');
  await expect(endpoint).toBeInViewport({ ratio: 1 });
  for (const action of actions) {
    await expect.soft(page.locator(`.action-cards a[href="${actionPath(action.identifier)}"]`), action.identifier).toBeInViewport({ ratio: 1 });
  }
});

test.describe('response bodies as a schema viewer, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('each body lists its members with badges, and a nested data opens to show its own', async ({ page, request }) => {
    const document = (await (await request.get('/openapi/v1.json')).json()) as {
      paths: Record<string, { post: { responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    const resolve = (node: unknown): Record<string, unknown> => {
      let value = node as Record<string, unknown>;
      while (typeof value.$ref === 'string') {
        value = value.$ref.slice(2).split('/').reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key], document) as Record<string, unknown>;
      }
      return value;
    };
    const [operation] = Object.values(document.paths);
    if (operation === undefined) throw new Error('the document has no path');
    await page.goto('/reference/endpoint/');
    for (const [status, response] of Object.entries(operation.post.responses)) {
      const content = resolve(response).content as Record<string, { schema: unknown }> | undefined;
      const schema = content?.['application/json']?.schema;
      if (schema === undefined) continue;
      const body = resolve(schema);
      const properties = body.properties as Record<string, unknown>;
      const table = page.locator(`table.body-${status}`);
      await expect(table, `the ${status} body`).toBeVisible();
      for (const [name, member] of Object.entries(properties)) {
        const row = table.locator(`tr[data-field="${name}"]`);
        const required = (body.required as string[] | undefined)?.includes(name) ?? false;
        await expect.soft(row.locator('.presence').first(), `${status} ${name}`).toHaveText(required ? 'required' : 'optional');
        const nested = resolve(member).properties as Record<string, unknown> | undefined;
        if (nested === undefined) continue;
        const disclosure = row.locator(`details[data-members-of="${name}"]`);
        const firstMember = disclosure.locator(`tr[data-field="${name}.${Object.keys(nested)[0]}"]`);
        await expect(firstMember).toBeHidden();
        await disclosure.locator('summary').click();
        for (const inner of Object.keys(nested)) {
          await expect.soft(disclosure.locator(`tr[data-field="${name}.${inner}"]`), `${status} ${name}.${inner}`).toBeVisible();
        }
      }
    }
  });
});
