/**
 * The one table of error kinds the client libraries share: every status the contract documents
 * gets one class name, the same stem in every language, and no two kinds share a name.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorClassName, errorClassSuffixes, fixedErrorClassName, fixedErrorKinds, statusErrorClassName, statusErrorStem, type ClientLanguage, type FixedErrorKindId } from '../../src/clients/shared/error-kinds.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const languages = Object.keys(errorClassSuffixes) as ClientLanguage[];
const documentedStatuses = [...new Set(contract.model.responses.filter((response) => response.isError).map((response) => Number(response.status)))];

describe('the error kinds the client libraries share', () => {
  test('every documented error status has a class, with the same stem in every language', () => {
    assert.ok(documentedStatuses.length >= 4, 'the contract documents its errors');
    for (const status of documentedStatuses) {
      const stem = statusErrorStem(status);
      assert.match(stem, /^[A-Z][A-Za-z0-9]*$/, `${status} gets a class name`);
      for (const language of languages) {
        const name = statusErrorClassName(status, language);
        assert.equal(name, errorClassName(stem, language));
        assert.ok(name.startsWith(stem) && name.endsWith(errorClassSuffixes[language]), `${name} is ${stem} in ${language}`);
        assert.doesNotMatch(name, new RegExp(`(${errorClassSuffixes[language]}){2}$`), `${name} does not repeat its language's word`);
      }
    }
  });

  test('the throttled status is named by what happened, not by its reason phrase', () => {
    assert.equal(statusErrorStem(contract.throttled.status), fixedErrorKinds.throttled.stem);
    assert.equal(statusErrorClassName(contract.throttled.status, 'typescript'), 'ThrottledError');
    assert.equal(statusErrorClassName(contract.throttled.status, 'php'), 'ThrottledException');
  });

  test('no two kinds share a name, and every kind but the base refines one that exists', () => {
    const fixed = Object.keys(fixedErrorKinds) as FixedErrorKindId[];
    for (const language of languages) {
      const names = [...fixed.map((kind) => fixedErrorClassName(kind, language)), ...documentedStatuses.filter((status) => status !== Number(contract.throttled.status)).map((status) => statusErrorClassName(status, language))];
      assert.equal(new Set(names).size, names.length, `${language}: ${names.join(', ')}`);
    }
    for (const kind of fixed) {
      const parent = fixedErrorKinds[kind].parent;
      if (kind === 'base') assert.equal(parent, undefined);
      else assert.ok(parent !== undefined && parent in fixedErrorKinds, `${kind} refines a kind`);
    }
  });

  test('a status no reason phrase names is refused with where to add it', () => {
    assert.throws(() => statusErrorStem(499), /499 has no reason phrase in src\/lib\/http\/status-reasons\.ts/);
  });
});
