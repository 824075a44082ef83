import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSpecRuleId, ruleLabel, specRule, specRules } from '../../src/lib/spec-rules.ts';

test('lists the 35 rules of the specification once each, each with its section, a statement and where it shows', () => {
  assert.equal(specRules.length, 35);
  const ids = specRules.map((rule) => rule.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const rule of specRules) {
    assert.match(rule.id, /^\d\.\d[a-e]?$|^\d\.\d-r\d$/, rule.id);
    assert.ok(rule.section.startsWith(rule.id.split(/[.-]/)[0] ?? ''), `${rule.id} is in section ${rule.section}`);
    assert.match(rule.statement, /^[A-Z].+\.$/, `${rule.id}: a sentence`);
    assert.ok(rule.where.length > 0, `${rule.id} shows somewhere`);
  }
});

test('names rules the way gate messages print them', () => {
  assert.ok(isSpecRuleId('4.1-r2'));
  assert.equal(isSpecRuleId('4.1d'), false);
  assert.equal(specRule('5.3').section, '5 Authentication');
  assert.equal(ruleLabel(['4.1a', '4.1-r1']), 'rule 4.1a, 4.1-r1');
  assert.equal(ruleLabel([]), '');
});
