/**
 * The element bound of issue 27: the counter counts as the browser does, and the check names each
 * page over the bound. The pages are written here, so each case can fail.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { builtPageElements, countElements, driversMessage, elementDrivers, overBoundMessage, pageAddress, pageElementBound, pagesOverElementBound } from '../../src/lib/site/page-elements.ts';

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

describe('what grows a page', () => {
  const rows = (mark: string, count: number): string => Array.from({ length: count }, (_, index) => `<tr ${mark}="${index}"><th><a><code>x</code></a></th><td>y</td></tr>`).join('');

  test('counts the elements of the actions’ rows and of the fields’ rows, a nested field row once', () => {
    const html = `<table>${rows('data-action', 3)}</table><p data-actions="40"><a>a</a><a>b</a></p><table><tr data-field="data"><td><table><tr data-field="data.x"><td>z</td></tr></table></td></tr></table>`;
    assert.deepEqual(elementDrivers(html), { actions: 3 + 40, actionElements: 3 * 5 + 3, fieldRows: 1, fieldElements: 6 });
  });

  test('names the actions and the fields as what grows the page, or says the page itself is long', () => {
    assert.equal(
      driversMessage({ actions: 25, actionElements: 250, fieldRows: 0, fieldElements: 0 }),
      'of them 250 where it lists actions (25 named), which grows with the actions the contract has',
    );
    assert.match(driversMessage({ actions: 0, actionElements: 0, fieldRows: 30, fieldElements: 240 }), /^of them 240 in the rows of its fields \(30\)/);
    assert.equal(driversMessage({ actions: 0, actionElements: 0, fieldRows: 0, fieldElements: 0 }), 'none of them in rows of actions or fields: the page itself is too long');
  });

  test('gives the page’s address from its file', () => {
    assert.equal(pageAddress(path.join('reference', 'endpoint', 'index.html')), '/reference/endpoint/');
    assert.equal(pageAddress('404.html'), '/404.html');
  });
});
