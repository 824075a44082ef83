/** The top-level member names of a JSON body in the order PHP keeps them, which the sandbox lists unknown fields in. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topLevelMemberNames } from '../../src/sandbox/json-member-order.ts';

test('names the top-level members in the order of the text, integer-like names included', () => {
  assert.deepEqual(topLevelMemberNames('{"1":2,"0":1,"b":{"z":1,"0":[{"y":2}]},"a":"x"}'), ['1', '0', 'b', 'a']);
  // JavaScript's own order differs, which is why the helper exists.
  assert.deepEqual(Object.keys(JSON.parse('{"1":2,"0":1}') as object), ['0', '1']);
});

test('reads escaped names and strings holding quotes, braces and commas', () => {
  assert.deepEqual(topLevelMemberNames(' { "a\\"b" : "x,\\"y\\": {", "\\u0030" : [1, {"c": 2}] } '), ['a"b', '0']);
});

test('keeps a duplicated name once, where it first appears, as PHP keeps it', () => {
  assert.deepEqual(topLevelMemberNames('{"a":1,"b":2,"a":3}'), ['a', 'b']);
});

test('names nothing in a body that is no object', () => {
  assert.deepEqual(topLevelMemberNames('[{"a":1}]'), []);
  assert.deepEqual(topLevelMemberNames('[1, "x", "y"]'), []);
  assert.deepEqual(topLevelMemberNames('"text"'), []);
  assert.deepEqual(topLevelMemberNames('{}'), []);
});
