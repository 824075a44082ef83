/**
 * The one reading of `Retry-After` (src/lib/http/retry-after.ts), which the sandbox's host
 * imitation and the conformance suite share: seconds, or the IMF-fixdate and nothing looser. The
 * retrying client published in the guides carries its own parser, since a reader copies it whole;
 * it must read every value this one reads the same way (it may read looser dates too).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { isRetryAfter, parseHttpDate, retryAfterDelay } from '../../src/lib/http/retry-after.ts';
import { retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const now = Date.UTC(2026, 10, 20, 14, 0, 0);

describe('Retry-After', () => {
  test('a number of seconds is that many seconds, surrounding spaces aside', () => {
    assert.equal(retryAfterDelay('120', now), 120_000);
    assert.equal(retryAfterDelay(' 0 ', now), 0);
    assert.equal(retryAfterDelay('007', now), 7_000);
  });

  test('an IMF-fixdate is the time until then, and nothing once it has passed', () => {
    assert.equal(retryAfterDelay('Fri, 20 Nov 2026 14:05:00 GMT', now), 300_000);
    assert.equal(retryAfterDelay('Fri, 20 Nov 2026 13:00:00 GMT', now), 0);
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  test('anything else is refused: negative or fractional seconds, looser dates, a wrong weekday, a day that does not exist', () => {
    for (const value of [
      '',
      'soon',
      '-1',
      '1.5',
      '+3',
      '2026-11-20T14:05:00Z',
      'Friday, 20-Nov-26 14:05:00 GMT',
      'Fri Nov 20 14:05:00 2026',
      'Fri, 20 Nov 2026 14:05:00 UTC',
      'fri, 20 nov 2026 14:05:00 GMT',
      'Fri, 20 Nov 2026 14:05 GMT',
      'Sat, 20 Nov 2026 14:05:00 GMT',
      'Mon, 31 Feb 2026 14:05:00 GMT',
      'Fri, 20 Nov 2026 24:05:00 GMT',
    ]) {
      assert.equal(retryAfterDelay(value, now), undefined, JSON.stringify(value));
      assert.equal(isRetryAfter(value), false, JSON.stringify(value));
    }
  });
});

/** The `retryAfter` function of the published JavaScript client, loaded as the reader would run it. */
async function publishedParser(): Promise<(value: string | null, now?: number) => number | null> {
  const model = readReferenceModel(bundledDocument());
  const [first] = model.actions;
  assert.ok(first, 'the contract has an action');
  const code = retryingClientSamples(model.endpoint, sampleStatuses(model.responses), first.requestExample.value).find((sample) => sample.language === 'javascript')?.code ?? '';
  const start = code.indexOf('export function retryAfter(');
  const end = code.indexOf('\n}\n', start);
  assert.ok(start >= 0 && end > start, 'the client has a retryAfter function');
  const module = (await import(`data:text/javascript,${encodeURIComponent(code.slice(start, end + 3))}`)) as { retryAfter: (value: string | null, now?: number) => number | null };
  return module.retryAfter;
}

test('the published JavaScript client reads every value this module reads, to the same wait', async () => {
  const retryAfter = await publishedParser();
  for (const value of ['0', '120', ' 7 ', 'Fri, 20 Nov 2026 14:05:00 GMT', 'Fri, 20 Nov 2026 13:00:00 GMT', 'Sun, 06 Nov 1994 08:49:37 GMT']) {
    assert.equal(retryAfter(value, now), retryAfterDelay(value, now) ?? null, JSON.stringify(value));
  }
  assert.equal(retryAfter('soon', now), null);
});
