import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contractRules, runContractRules } from '../checks.ts';
import { isSpecRuleId } from '../../lib/spec-rules.ts';
import { smallContract } from './small-contract.ts';
import type { OpenApiDocument } from '../../lib/contract/document.ts';

describe('the contract rules', () => {
  test('each name the rules of src/lib/spec-rules.ts they guard, and cite nothing outside the repository', () => {
    const names = contractRules.map((rule) => rule.name);
    assert.equal(new Set(names).size, names.length, 'rule names must be unique');
    for (const rule of contractRules) {
      assert.ok(rule.rules.length > 0, `${rule.name} names no rule`);
      for (const id of rule.rules) assert.ok(isSpecRuleId(id), `${rule.name}: ${id} is not a rule id`);
      assert.doesNotMatch(rule.rule, /interface-spec\.md|v1-contract\.md|§/);
    }
  });

  test('all accept the small document their tests break', () => {
    assert.deepEqual(runContractRules(smallContract() as OpenApiDocument), []);
  });

  test('a rule that cannot read the document is reported as that rule failing, not as a crash', () => {
    const document = smallContract();
    document.servers = [null];
    const found = runContractRules(document as OpenApiDocument).filter((finding) => finding.pointer === '#');
    assert.ok(found.length > 0 && found.every((finding) => finding.message.startsWith('The rule could not read the document:')), JSON.stringify(found));
  });
});
