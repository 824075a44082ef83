/**
 * The element bound of issue 27: the counter counts as the browser does, and the check names each
 * page over the bound. The pages are written here, so each case can fail.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { builtPageElements, countElements, overBoundMessage, pageElementBound, pagesOverElementBound } from '../../src/lib/site/page-elements.ts';

const page = (bodyElements: number): string => `<!doctype html><html lang="en"><head><title>t</title></head><body>${'<p>text</p>'.repeat(bodyElements)}</body></html>`;

describe('countElements', () => {
  test('counts every element, html, head and body included', () => {
    assert.equal(countElements(page(3)), 4 + 3);
  });

  test('counts the elements the parser adds to a page that leaves them out', () => {
    assert.equal(countElements('<p>one</p><p>two <code>x</code></p>'), 3 + 3);
  });

  test('leaves a template’s content aside, as the browser does', () => {
    assert.equal(countElements('<template><p>a</p><p>b</p></template>'), 3 + 1);
  });
});

describe('the pages over the bound', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'page-elements-'));
  after(() => rmSync(dist, { recursive: true, force: true }));
  const write = (file: string, html: string): void => {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), html);
  };
  write('index.html', page(10));
  write('guide/index.html', page(pageElementBound - 4));
  write('reference/actions/long/index.html', page(pageElementBound));
  write('404.html', page(pageElementBound + 20));
  write('notes.txt', '<p>not a page</p>'.repeat(pageElementBound));

  test('are named, largest first, and a page at the bound is not among them', () => {
    assert.deepEqual(pagesOverElementBound(dist), [
      { page: '404.html', elements: pageElementBound + 24 },
      { page: 'reference/actions/long/index.html', elements: pageElementBound + 4 },
    ]);
  });

  test('every HTML page is counted, and only HTML pages', () => {
    assert.deepEqual(builtPageElements(dist).map(({ page }) => page).sort(), ['404.html', 'guide/index.html', 'index.html', 'reference/actions/long/index.html']);
  });

  test('the message names the page, its count and the excess', () => {
    assert.equal(overBoundMessage({ page: 'a/index.html', elements: 1600 }), 'a/index.html: 1600 elements, over the bound of 1500 (100 too many)');
  });
});
