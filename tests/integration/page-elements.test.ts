/**
 * Issue 27: no page of the built site has more than 1,500 elements. The build refuses such a page
 * already (src/integrations/page-elements-guard.ts); this reads the site the integration tier
 * built, so a guard taken out of the configuration is noticed too. The largest pages are named
 * in the message, whichever fails.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { builtPageElements, overBoundMessage, pageElementBound } from '../../src/lib/site/page-elements.ts';
import { projectDirectory } from '../support/contract-copy.ts';

before(() => ensureBuiltSite(projectDirectory));

test(`every page of dist/ has at most ${pageElementBound} elements`, () => {
  const pages = builtPageElements(path.join(projectDirectory, 'dist'));
  assert.ok(pages.some(({ page }) => page === 'errors-and-rate-limits/index.html'), 'the errors guide is among the pages counted');
  assert.ok(pages.some(({ page }) => page.startsWith('reference/actions/')), 'the action pages are among the pages counted');
  const over = pages.filter(({ elements }) => elements > pageElementBound);
  assert.deepEqual(over.map((page) => overBoundMessage(page)), [], `the largest pages: ${pages.slice(0, 3).map(({ page, elements }) => `${page} ${elements}`).join(', ')}`);
});
