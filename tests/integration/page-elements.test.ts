/**
 * Issue 27: no page of the built site has more than 1,500 elements. The build refuses such a page
 * already (src/integrations/page-elements-guard.ts); this reads the site the integration tier
 * built, so a guard taken out of the configuration is noticed too. The largest pages are named
 * in the message, whichever fails.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { builtPageElements, overBoundMessage, pageElementBound } from '../../src/lib/site/page-elements.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';

before(() => ensureBuiltSite(projectDirectory));

test(`every page of dist/ has at most ${pageElementBound} elements`, () => {
  const pages = builtPageElements(path.join(projectDirectory, 'dist'));
  assert.ok(pages.some(({ page }) => page === 'errors-and-rate-limits/index.html'), 'the errors guide is among the pages counted');
  assert.ok(pages.some(({ page }) => page.startsWith('reference/actions/')), 'the action pages are among the pages counted');
  const over = pages.filter(({ elements }) => elements > pageElementBound);
  assert.deepEqual(over.map((page) => overBoundMessage(page)), [], `the largest pages: ${pages.slice(0, 3).map(({ page, elements }) => `${page} ${elements}`).join(', ')}`);
});

// A block rendered as one text, to keep the element count down, has no line elements: the
// Markdown of the pages (llms-full.txt, and the product-information server's read_page) must
// still carry its code whole, not an empty fence.
test('the retrying clients rendered as one text reach llms-full.txt whole, and no fenced block there is empty', () => {
  const model = readReferenceModel(bundledDocument());
  const [first] = model.actions;
  assert.ok(first !== undefined, 'the contract has an action');
  const llmsFull = readFileSync(path.join(projectDirectory, 'dist/llms-full.txt'), 'utf8');
  for (const sample of retryingClientSamples(model.endpoint, sampleStatuses(model.responses), first.requestExample.value)) {
    assert.ok(llmsFull.includes(sample.code.trim()), `the ${sample.label} retrying client is in llms-full.txt whole`);
  }
  const emptyFences = [...llmsFull.matchAll(/^```[\w-]*\n```$/gm)].map((match) => llmsFull.slice(0, match.index).split('\n').length);
  assert.deepEqual(emptyFences, [], 'lines of llms-full.txt that open an empty code block');
});
