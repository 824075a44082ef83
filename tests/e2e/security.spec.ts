/**
 * The hardened documentation domain, seen from a real browser and from Mozilla's scanner: every
 * page carries the policy, and reading the site the way people do (searching, copying a sample,
 * switching the colour scheme, changing a tab) breaks none of it.
 */
import { expect, test, type Page } from '@playwright/test';
import { hostPolicy } from '../../src/lib/site/content-security-policy.ts';
import { hostOnlyTests, scanWithObservatory } from '../../src/security/observatory.ts';
import { sitemapPagePaths } from './support/site.ts';

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

declare global {
  interface Window {
    policyViolations: Violation[];
  }
}

/** Registered before any script of the page runs, so even a blocked inline script in `<head>` is seen. */
function recordPolicyViolations(): void {
  window.policyViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.policyViolations.push({ directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample });
  });
}

async function violationsOn(page: Page): Promise<Violation[]> {
  return page.evaluate(() => window.policyViolations);
}

/** What a reader does on a page, where the page offers it. */
async function useThePage(page: Page): Promise<void> {
  const search = page.getByRole('button', { name: 'Search' });
  await search.click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Search' }).fill('subscription');
  await expect(dialog.locator('a[href]').first(), 'the search shows results').toBeVisible();
  await page.keyboard.press('Escape');

  const copyButton = page.getByRole('button', { name: 'Copy to clipboard' }).first();
  if ((await copyButton.count()) > 0) {
    await copyButton.click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).not.toBe('');
  }

  const schemeSelect = page.locator('starlight-theme-select select').first();
  const scheme = (await page.locator('html').getAttribute('data-theme')) === 'light' ? 'dark' : 'light';
  await schemeSelect.selectOption(scheme);
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);

  const unselectedTab = page.locator('[role="tab"][aria-selected="false"]').first();
  if ((await unselectedTab.count()) > 0) {
    const tab = page.locator(`[id="${await unselectedTab.getAttribute('id')}"]`);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }
}

test.describe('with JavaScript and clipboard access', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('every page carries the policy, and reading it raises no policy violation and no console error', async ({ browser, request }) => {
    const pagePaths = await sitemapPagePaths(request);
    test.setTimeout(pagePaths.length * 15_000);
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    await context.addInitScript(recordPolicyViolations);

    await test.step('the recorder sees a violation when one happens', async () => {
      const page = await context.newPage();
      await page.goto('/');
      await page.evaluate(() => {
        const injected = document.createElement('script');
        injected.textContent = 'window.injectedScriptRan = true;';
        document.body.append(injected);
      });
      await expect.poll(() => violationsOn(page)).toContainEqual(expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' }));
      expect(await page.evaluate(() => 'injectedScriptRan' in window), 'the injected inline script did not run').toBe(false);
      await page.close();
    });

    for (const pagePath of pagePaths) {
      await test.step(pagePath, async () => {
        const page = await context.newPage();
        const consoleErrors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
        });
        page.on('pageerror', (error) => consoleErrors.push(error.message));

        const response = await page.goto(pagePath, { waitUntil: 'networkidle' });
        expect.soft(response?.status(), `${pagePath} answers 200`).toBe(200);
        expect.soft(response?.headers()['content-security-policy'], `${pagePath}: the host's policy`).toBe(hostPolicy);
        const metaPolicy = (await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content')) ?? '';
        const scriptSources = /(?:^|;)\s*script-src ([^;]*)/.exec(metaPolicy)?.[1] ?? '';
        expect.soft(scriptSources, `${pagePath}: the page's script-src`).toMatch(/'sha256-/);
        expect.soft(scriptSources, `${pagePath}: no inline script or eval allowed`).not.toMatch(/'unsafe-(inline|eval)'/);

        await useThePage(page);
        expect.soft(await violationsOn(page), `policy violations on ${pagePath}`).toEqual([]);
        expect.soft(consoleErrors, `console errors on ${pagePath}`).toEqual([]);
        await page.close();
      });
    }
    await context.close();
  });
});

test('no page can be framed, not even by the site itself', async ({ page }) => {
  await page.goto('/');
  const framed = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const frame = document.createElement('iframe');
        frame.src = '/quickstart/';
        // A refused frame shows the browser's error page, whose document this page cannot reach.
        frame.addEventListener('load', () => resolve(frame.contentDocument?.querySelector('h1') != null));
        document.body.append(frame);
      }),
  );
  expect(framed, 'the framed page rendered').toBe(false);
});

test('Mozilla’s HTTP Observatory passes every test the site itself can pass', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const report = await scanWithObservatory(baseURL ?? '');
  test.info().annotations.push({ type: 'observatory', description: `grade ${report.grade}, score ${report.score}; with the host's two: ${report.withHostTests.grade}, ${report.withHostTests.score}` });
  const failed = report.tests.filter((result) => !result.pass && !hostOnlyTests.has(result.name));
  expect(failed, 'failed Observatory tests other than HTTPS redirection and HSTS').toEqual([]);
  expect(report.tests.find((result) => result.name === 'content-security-policy')?.result).toMatch(/^csp-implemented-with-no-unsafe/);
  expect(report.withHostTests.grade).toBe('A+');
});
