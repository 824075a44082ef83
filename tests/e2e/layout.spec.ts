import { expect, test, type Page } from '@playwright/test';
import { longIdentifierLength } from '../../src/lib/site/identifier-breaks.ts';
import { actions } from './support/contract.ts';
import { actionPath, sitemapPagePaths } from './support/site.ts';

/**
 * The layout claims, measured in the browser (boxes and scroll sizes, not pictures): on a wide
 * screen nothing stands empty beside the errors and no code block scrolls sideways; at every
 * width no header or identifier breaks inside a word and the sample tabs fit; and with
 * JavaScript off every box that can scroll can take the keyboard's focus.
 */

const widths = { wide: { width: 1440, height: 900 }, phone: { width: 390, height: 844 }, narrowPhone: { width: 360, height: 780 } };
const wideWidths = [widths.wide, { width: 1280, height: 800 }];
const phoneWidths = { phone: widths.phone, smallPhone: { width: 375, height: 812 }, narrowPhone: widths.narrowPhone };

/**
 * Every place where a line of a header or of inline code ends between two letters or digits:
 * a word broken in two. An identifier may only wrap after `_`, `-`, `/` or `.`, and a header
 * only between words.
 */
async function wordsBrokenMidWord(page: Page): Promise<string[]> {
  return page.locator('main :is(thead th, code:not(pre code), h1, h2, h3)').evaluateAll((elements) => {
    const broken: string[] = [];
    const isWordCharacter = (character: string): boolean => /[\p{L}\p{N}]/u.test(character);
    for (const element of elements) {
      if (element.getClientRects().length === 0) continue;
      // A break needs a second line: when every box of the element's content starts within 2 px
      // of the others, no letter can be lower than the one before it, so its letters go unmeasured.
      const content = document.createRange();
      content.selectNodeContents(element);
      const tops = [...content.getClientRects()].map((box) => box.top);
      if (Math.max(...tops) - Math.min(...tops) <= 2) continue;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      let previous: { character: string; top: number } | undefined;
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let index = 0; index < text.length; index += 1) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const box = range.getClientRects()[0];
          if (box === undefined) continue;
          const character = text.charAt(index);
          if (previous !== undefined && box.top > previous.top + 2 && isWordCharacter(previous.character) && isWordCharacter(character)) {
            broken.push(`${(element.textContent ?? '').slice(0, 60)} (between "${previous.character}" and "${character}")`);
          }
          previous = { character, top: box.top };
        }
      }
    }
    return broken;
  });
}

/**
 * The inline code identifiers (no space inside) whose text runs over more than one line: the
 * whole identifier when `atBreakMarks` is false, else any stretch between two `<wbr>`s, so an
 * identifier may wrap where a `<wbr>` lets it and nowhere else. Measured with a Range per stretch.
 * Identifiers longer than `upToLength` are left out.
 */
async function identifiersOverLines(page: Page, atBreakMarks: boolean, upToLength = Infinity): Promise<string[]> {
  return page.locator('main code:not(pre code)').evaluateAll((codes, [allowed, longest]) => {
    const lineTops = (range: Range): number => {
      const tops: number[] = [];
      for (const box of range.getClientRects()) {
        if (box.width > 0 && !tops.some((top) => Math.abs(top - box.top) < 2)) tops.push(box.top);
      }
      return tops.length;
    };
    const broken: string[] = [];
    for (const code of codes) {
      const text = code.textContent ?? '';
      if (code.getClientRects().length === 0 || /\s/.test(text) || text.length === 0 || text.length > longest) continue;
      const stretches: Range[] = [];
      if (allowed) {
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          stretches.push(range);
        }
      } else {
        const range = document.createRange();
        range.selectNodeContents(code);
        stretches.push(range);
      }
      if (stretches.some((range) => lineTops(range) > 1)) broken.push(text);
    }
    return broken;
  }, [atBreakMarks, upToLength] as const);
}

/** Tables wider than the column they stand in, and the page itself when it is wider than the window. */
async function overflowingTablesAndPage(page: Page): Promise<string[]> {
  const tables = await page.locator('main table').evaluateAll((elements) =>
    elements
      .filter((table) => table.getClientRects().length > 0)
      .filter((table) => {
        const column = table.parentElement?.getBoundingClientRect();
        const box = table.getBoundingClientRect();
        return table.scrollWidth > table.clientWidth + 1 || (column !== undefined && box.right > column.right + 1);
      })
      .map((table) => `table: ${(table.textContent ?? '').trim().slice(0, 50)} (${table.scrollWidth} px in ${table.clientWidth} px)`),
  );
  const pageWidth = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, window: window.innerWidth }));
  return pageWidth.scroll > pageWidth.window ? [...tables, `the page: ${pageWidth.scroll} px in ${pageWidth.window} px`] : tables;
}

/** Boxes in the page's main part that scroll sideways, by a short description. */
async function sidewaysScrollingCode(page: Page): Promise<string[]> {
  return page.locator('main pre').evaluateAll((blocks) =>
    blocks
      .filter((block) => block.getClientRects().length > 0 && block.scrollWidth > block.clientWidth + 1)
      .map((block) => `${(block.textContent ?? '').slice(0, 50)}… (${block.scrollWidth} px in ${block.clientWidth} px)`),
  );
}

test('at 1440 px the errors use the full width beside nothing', async ({ page }) => {
  await page.setViewportSize(widths.wide);
  for (const action of actions) {
    await test.step(action.identifier, async () => {
      await page.goto(actionPath(action.identifier));
      const layout = await page.locator('.action-layout').boundingBox();
      const errors = await page.locator('main table.errors').boundingBox();
      expect(layout && errors, 'the page has a layout and an errors table').toBeTruthy();
      if (layout === null || errors === null) return;
      // The errors run under both columns: as wide as the two-pane part, give or take a margin.
      expect(errors.width, `the errors table is ${Math.round(errors.width)} px of ${Math.round(layout.width)} px`).toBeGreaterThan(layout.width * 0.9);
    });
  }
});

for (const viewport of wideWidths) {
  // Below 90rem a full URL may break at its <wbr>s, so that a table keeps to its column (longIdentifierLength).
  const upToLength = viewport.width >= 1440 ? Infinity : longIdentifierLength;
  // At the widest, the same visit also finds code blocks scrolling sideways and words broken in two.
  const widest = viewport === widths.wide;
  test(`at ${viewport.width} px no identifier in inline code${upToLength === Infinity ? '' : ` up to ${upToLength} characters`} breaks over lines, and no table or page is wider than its room${widest ? ', no code block scrolls sideways and no word breaks' : ''}`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    for (const pagePath of await sitemapPagePaths(request)) {
      await test.step(pagePath, async () => {
        await page.goto(pagePath);
        await page.locator('main details').evaluateAll((disclosures) => disclosures.forEach((element) => element.setAttribute('open', '')));
        expect.soft(await identifiersOverLines(page, false, upToLength), `identifiers over two lines on ${pagePath}`).toEqual([]);
        expect.soft(await overflowingTablesAndPage(page), `too wide on ${pagePath}`).toEqual([]);
        if (widest) {
          expect.soft(await sidewaysScrollingCode(page), `code blocks scrolling sideways on ${pagePath}`).toEqual([]);
          expect.soft(await wordsBrokenMidWord(page), `headers or identifiers broken mid-word on ${pagePath}`).toEqual([]);
        }
      });
    }
  });
}

for (const [name, viewport] of Object.entries(phoneWidths)) {
  test(`at ${viewport.width} px no header or identifier breaks mid-word, and the sample tabs fit (${name})`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    for (const pagePath of await sitemapPagePaths(request)) {
      await test.step(pagePath, async () => {
        await page.goto(pagePath);
        await page.locator('main details').evaluateAll((disclosures) => disclosures.forEach((element) => element.setAttribute('open', '')));
        expect.soft(await wordsBrokenMidWord(page), `headers or identifiers broken mid-word on ${pagePath}`).toEqual([]);
        expect.soft(await identifiersOverLines(page, true), `identifiers broken other than at a <wbr> on ${pagePath}`).toEqual([]);
        expect.soft(await overflowingTablesAndPage(page), `too wide on ${pagePath}`).toEqual([]);
        // An identifier that does not break must still fit: inside its cell and inside the window.
        const overflowing = await page.locator('main code:not(pre code)').evaluateAll((codes) =>
          codes
            .filter((code) => {
              const box = code.getBoundingClientRect();
              const cell = code.closest('td, th')?.getBoundingClientRect();
              return box.width > 0 && (box.right > window.innerWidth + 1 || (cell !== undefined && box.right > cell.right + 1));
            })
            .map((code) => code.textContent ?? ''),
        );
        expect.soft(overflowing, `identifiers sticking out of their cell or the window on ${pagePath}`).toEqual([]);
        const tabsOutside = await page.locator('main [role="tab"]').evaluateAll((tabs) =>
          tabs
            .filter((tab) => {
              const box = tab.getBoundingClientRect();
              const list = tab.closest('[role="tablist"]')?.getBoundingClientRect();
              return box.left < 0 || box.right > window.innerWidth || (list !== undefined && box.right > list.right + 1);
            })
            .map((tab) => tab.textContent?.trim() ?? ''),
        );
        expect.soft(tabsOutside, `tabs cut off on ${pagePath}`).toEqual([]);
      });
    }
  });
}

test('the mid-word check finds a header and an identifier broken inside a word, and passes one broken between words', async ({ page }) => {
  await page.setViewportSize(widths.phone);
  await page.goto('/');
  await page.locator('main').evaluate((main) => {
    const broken = document.createElement('h2');
    broken.style.cssText = 'width: 4ch; word-break: break-all';
    broken.textContent = 'Subscriptions';
    const code = document.createElement('code');
    code.style.cssText = 'display: inline-block; width: 5ch; word-break: break-all';
    code.textContent = 'pause_subscription';
    const betweenWords = document.createElement('h3');
    betweenWords.style.cssText = 'width: 6ch';
    betweenWords.textContent = 'one two three';
    main.prepend(broken, code, betweenWords);
  });
  const found = await wordsBrokenMidWord(page);
  expect(found.some((line) => line.startsWith('Subscriptions')), found.join('\n')).toBe(true);
  expect(found.some((line) => line.startsWith('pause_subscription')), found.join('\n')).toBe(true);
  expect(found.some((line) => line.startsWith('one two three')), found.join('\n')).toBe(false);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every box that can scroll takes the keyboard focus, at 1440, 390 and 360 px', async ({ page, request }) => {
    const pagePaths = await sitemapPagePaths(request);
    // Without JavaScript nothing on a page reacts to its width but the style sheet, so each page
    // is loaded once and laid out again at each width, instead of loaded once per width.
    for (const pagePath of pagePaths) {
      await page.goto(pagePath);
      for (const viewport of Object.values(widths)) {
        await test.step(`${viewport.width} px ${pagePath}`, async () => {
          await page.setViewportSize(viewport);
          const unfocusable = await page.locator('main *').evaluateAll((elements) =>
            elements
              .filter((element) => {
                const style = getComputedStyle(element);
                const scrollsX = /auto|scroll/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1;
                const scrollsY = /auto|scroll/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
                return (scrollsX || scrollsY) && element.getClientRects().length > 0 && element.getAttribute('tabindex') !== '0';
              })
              .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}"> ${(element.textContent ?? '').slice(0, 40)}`),
          );
          expect.soft(unfocusable, `boxes that scroll but take no focus at ${viewport.width} px on ${pagePath}`).toEqual([]);
        });
      }
    }
  });
});
