/**
 * `npm run bench:scale` reports a size whose copy the gate or the build refused as a finding with
 * the refusal's lines, never as a stack trace (src/bench/scale-bench.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatFindings } from '../../src/bench/scale-bench.ts';

describe('the findings of the scale bench', () => {
  test('a refused size is named with what refused it and every line it said', () => {
    const refusal = 'dist/reference/endpoint/index.html: 1525 elements, over the bound of 1500 (25 too many)';
    const text = formatFindings([], [{ actions: 22, refusedBy: 'astro build', lines: ['[ERROR] [page-elements-guard] Pages over 1500 elements', refusal] }]);
    assert.match(text, /^With 22 actions astro build refused the copy, so nothing was measured at that size\. It said:$/m);
    assert.ok(text.includes(`    ${refusal}`));
    assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');
  });

  test('a measured size names its largest page', () => {
    const row = { actions: 200, largestPage: 'reference/endpoint/index.html', largestPageElements: 1403 } as Parameters<typeof formatFindings>[0][number];
    assert.equal(formatFindings([row], []), 'With 200 actions the largest page is reference/endpoint/index.html, 1403 elements (the bound is 1500).');
  });
});
