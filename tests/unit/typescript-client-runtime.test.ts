/**
 * The TypeScript client's runtime, as written: a text a message quotes is cut between characters,
 * never inside a surrogate pair, and the error classes refine one another as the shared table of
 * error kinds says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixedErrorClassName, fixedErrorKinds, type FixedErrorKindId } from '../../src/clients/shared/error-kinds.ts';
import * as runtimeErrors from '../../src/clients/typescript/runtime/errors.ts';

describe('the TypeScript client runtime', () => {
  test('a long text is cut between characters, with how long it was', () => {
    const text = `a${'\u{1F600}'.repeat(10)}`;
    assert.equal(runtimeErrors.quotedText(text, 11), text);
    const cut = runtimeErrors.quotedText(text, 4);
    assert.equal(cut, `a${'\u{1F600}'.repeat(3)}… (11 characters in all)`);
    assert.ok(cut.isWellFormed(), 'no lone surrogate');
  });

  test('each error kind of the shared table is a class of the runtime, refining the class of its parent kind', () => {
    const classes = runtimeErrors as unknown as Record<string, new (...args: never[]) => Error>;
    for (const kind of Object.keys(fixedErrorKinds) as FixedErrorKindId[]) {
      const own = classes[fixedErrorClassName(kind, 'typescript')];
      assert.equal(typeof own, 'function', `${fixedErrorClassName(kind, 'typescript')} is defined`);
      const parent = fixedErrorKinds[kind].parent as FixedErrorKindId | undefined;
      const expected = parent === undefined ? Error : classes[fixedErrorClassName(parent, 'typescript')];
      assert.equal(Object.getPrototypeOf(own), expected, `${own?.name} extends ${expected?.name}`);
    }
  });
});
