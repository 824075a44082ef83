import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median, percentile } from '../../src/lib/measures/statistics.ts';

test('the median is the middle value, or the mean of the two middle ones, whatever the order', () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('a percentile is read from sorted values by nearest rank, never past the last', () => {
  const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
  assert.equal(percentile(sorted, 0.5), 51);
  assert.equal(percentile(sorted, 0.99), 100);
  assert.equal(percentile(sorted, 1), 100);
  assert.ok(Number.isNaN(percentile([], 0.5)));
});
