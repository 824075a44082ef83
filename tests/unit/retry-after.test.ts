/**
 * The one reading of `Retry-After` (src/lib/http/retry-after.ts), which the sandbox's host
 * imitation and the conformance suite share, held to the table every client is held to
 * (tests/support/retry-after-cases.ts): seconds, or the IMF-fixdate and nothing looser. The
 * retrying clients published in the guides carry their own parsers, since a reader copies them
 * whole; tests/integration/retry-after-cases.test.ts runs them against the same table.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isRetryAfter, parseHttpDate, retryAfterDelay } from '../../src/lib/http/retry-after.ts';
import { retryAfterCases } from '../support/retry-after-cases.ts';

describe('Retry-After', () => {
  for (const { header, nowIso, expectedSeconds, why } of retryAfterCases) {
    test(`${JSON.stringify(header)}: ${expectedSeconds === undefined ? 'unreadable' : `${expectedSeconds} s`} (${why})`, () => {
      const delay = retryAfterDelay(header, Date.parse(nowIso));
      assert.equal(delay, expectedSeconds === undefined ? undefined : expectedSeconds * 1000);
      assert.equal(isRetryAfter(header), expectedSeconds !== undefined);
    });
  }

  test('an IMF-fixdate names its moment', () => {
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), Date.UTC(1994, 10, 6, 8, 49, 37));
  });
});
