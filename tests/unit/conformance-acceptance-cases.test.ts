/**
 * The acceptance side of the conformance suite, against the document itself: each acceptance case
 * sends a body the request schema accepts, each edge value is the last one inside its bound (one
 * step further, the schema refuses it), every optional field has its case without it, and every
 * value the generated pass makes is one the schema accepts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { edgeValues, variedFields } from '../../src/conformance/acceptance-cases.ts';
import { generateCases, validBody } from '../../src/conformance/cases.ts';
import { fieldValues } from '../../src/conformance/generated-pass.ts';
import type { Field } from '../../src/lib/contract/model.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { successResponse } from '../../src/lib/contract/response-lookups.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const settings = { apiKey: 'conformance-acceptance-key-not-a-secret', unknownSubscriptionId: 1, throttleHeader: 'X-Example-Throttle' };
const cases = generateCases(contract, settings);

/** The value one step past the bound an edge value sits at, or undefined for a value of a list. */
function oneStepFurther(field: Field, value: unknown): unknown {
  const limits = new Map(field.constraints.map((constraint) => [constraint.keyword, constraint.limit]));
  if (typeof value === 'string') {
    const length = [...value].length;
    if (limits.get('maxLength') === length) return `${value}x`;
    if (limits.get('minLength') === length && length > 0) return [...value].slice(1).join('');
  }
  if (typeof value === 'number') {
    if (limits.get('minimum') === value || limits.get('exclusiveMinimum') === value - 1) return value - 1;
    if (limits.get('maximum') === value || limits.get('exclusiveMaximum') === value + 1) return value + 1;
  }
  return undefined;
}

describe('the acceptance side of the conformance suite', () => {
  test('every acceptance case sends a body the request schema of its action accepts, and expects a success', () => {
    const acceptance = cases.filter((testCase) => testCase.group === 'acceptance');
    assert.ok(acceptance.length > 0);
    for (const testCase of acceptance) {
      const action = contract.action(testCase.action ?? '');
      assert.ok(action !== undefined, testCase.name);
      const body: unknown = JSON.parse(String(testCase.request(7).body));
      const validate = contract.schemas.schemaAt(action.pointer);
      assert.ok(validate(body), `${testCase.name}: ${JSON.stringify(validate.errors)}`);
      assert.equal(testCase.expect(7).status, Number(successResponse(contract.model.responses).status), testCase.name);
      assert.equal(testCase.outcome, 'unchanged', `${testCase.name} costs no subscription`);
    }
  });

  test('each edge value is the last inside its bound: one step further, the schema refuses the body', () => {
    let bounded = 0;
    for (const action of contract.model.actions) {
      const validate = contract.schemas.schemaAt(action.pointer);
      for (const field of variedFields(contract, action)) {
        for (const edge of edgeValues(field)) {
          const body = { ...validBody(contract, action, settings, 7), [field.name]: edge.value };
          assert.ok(validate(body), `${action.identifier} ${field.name} ${edge.label}`);
          const further = oneStepFurther(field, edge.value);
          if (further === undefined) continue;
          bounded += 1;
          assert.equal(validate({ ...body, [field.name]: further }), false, `${action.identifier} ${field.name} one step past ${edge.label}`);
        }
      }
    }
    assert.ok(bounded > 0, 'some field is bounded');
  });

  test('every bound a field has gets an edge value, and every optional field a case without it', () => {
    const bounds = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'enum'];
    for (const action of contract.model.actions) {
      for (const field of variedFields(contract, action)) {
        const names = cases.filter((testCase) => testCase.group === 'acceptance' && testCase.action === action.identifier).map((testCase) => testCase.name);
        const expected = field.constraints.filter((constraint) => bounds.includes(constraint.keyword)).length;
        assert.ok(edgeValues(field).length >= expected, `${action.identifier} ${field.name}`);
        if (!field.required) assert.ok(names.includes(`${action.identifier} without ${field.name}, which is optional`), `${action.identifier} without ${field.name}`);
      }
    }
  });

  test('every value the generated pass makes for a field is one its request schema accepts', () => {
    for (const action of contract.model.actions) {
      const validate = contract.schemas.schemaAt(action.pointer);
      for (const field of variedFields(contract, action)) {
        const values = fieldValues(field);
        assert.ok(values !== undefined, `${action.identifier} ${field.name} can be generated`);
        for (const value of fc.sample(values, { numRuns: 200, seed: 1 })) {
          const body = { ...validBody(contract, action, settings, 7), [field.name]: value };
          assert.ok(validate(body), `${action.identifier} ${field.name} ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
        }
      }
    }
  });
});
