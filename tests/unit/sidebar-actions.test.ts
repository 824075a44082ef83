/**
 * The sidebar lists a window of actions, so that a page does not grow with every action the
 * contract adds (src/lib/site/navigation.ts says why): all of them while they fit, else the ones
 * around the page's own action, which is always among them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sidebarActionLimit, sidebarActionRange } from '../../src/lib/site/navigation.ts';

describe('the actions a page lists in its sidebar', () => {
  test('every action while they fit', () => {
    for (let count = 0; count <= sidebarActionLimit; count += 1) {
      assert.deepEqual(sidebarActionRange(count, undefined), [0, count]);
      if (count > 0) assert.deepEqual(sidebarActionRange(count, count - 1), [0, count]);
    }
  });

  test('beyond the limit, the first ones on a page that is not an action', () => {
    assert.deepEqual(sidebarActionRange(200, undefined), [0, sidebarActionLimit]);
  });

  test('beyond the limit, a window of the same size that holds the page own action, centred where it can be', () => {
    const count = 200;
    for (let current = 0; current < count; current += 1) {
      const [start, end] = sidebarActionRange(count, current);
      assert.equal(end - start, sidebarActionLimit, `${current}: the window has the limit's size`);
      assert.ok(start >= 0 && end <= count, `${current}: the window lies in the list`);
      assert.ok(current >= start && current < end, `${current}: the page's own action is listed`);
      if (current >= sidebarActionLimit && current < count - sidebarActionLimit) {
        assert.equal(current - start, Math.floor(sidebarActionLimit / 2), `${current}: as many before it as after`);
      }
    }
  });
});
