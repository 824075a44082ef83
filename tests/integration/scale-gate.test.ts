/**
 * Version 1 may add actions (rule 9.4), so the gate must take a contract of any size: a copy with
 * 200 actions, each a copy of an existing one under a new name, passes `npm run lint` as an
 * additive change, through the real Redocly CLI, whose diff report of such a document is larger
 * than a child process's default output buffer.
 */
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addActions, spreadCopies } from '../../src/bench/scaled-contract.ts';
import { checkCopy } from '../support/compatibility-fixture.ts';
import { copyContract, projectDirectory, type ContractCopy } from '../support/contract-copy.ts';
import { runLint } from '../support/lint-run.ts';

const actionCount = 200;

describe(`a contract grown to ${actionCount} actions`, () => {
  let copy: ContractCopy;
  let added: string[];

  before(() => {
    copy = copyContract();
    // `npm run lint` also reads the product facts, which a copy of the contract alone lacks.
    cpSync(path.join(projectDirectory, 'product'), path.join(copy.directory, 'product'), { recursive: true });
    const actions = spreadCopies(copy.directory, actionCount - 8);
    addActions(copy.directory, actions);
    added = actions.map((action) => action.identifier);
  });

  after(() => copy.remove());

  test('passes the whole gate', () => {
    const run = runLint('--format', 'stylish', '--project', copy.directory);
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /The contract passes the gate/);
  });

  test('is compared with the release by Redocly diff and rated additive, every new action named', () => {
    const report = checkCopy(copy);
    assert.deepEqual(report.problems, []);
    assert.equal(report.impact, 'minor');
    const named = new Set(report.changes.map((change) => change.sentence));
    for (const identifier of [added[0], added.at(-1)]) {
      assert.ok([...named].some((sentence) => sentence.includes(`\`${identifier}\``)), `the changes name ${identifier}`);
    }
  });
});
