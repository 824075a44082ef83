/**
 * The acceptance side of the conformance suite, against the document itself: each acceptance case
 * sends a body the request schema accepts, each edge value is the last one inside its bound (one
 * step further, the schema refuses it), every end no bound names has its values (the shortest
 * string, integers past 32 bits up to 2^53 - 1), every optional field has its case without it, and
 * every value the generated pass makes is one the schema accepts, the ends among them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { acceptedValues, edgeValues, openEndValues, variedFields } from '../../src/conformance/acceptance-cases.ts';
import { generateCases, validBody } from '../../src/conformance/cases.ts';
import { fieldValues } from '../../src/conformance/generated-pass.ts';
import type { Field } from '../../src/lib/contract/model.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { successResponse } from '../../src/lib/contract/response-lookups.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const settings = { apiKey: 'conformance-acceptance-key-not-a-secret', unknownSubscriptionId: 1, throttleHeader: 'X-Example-Throttle' };
const cases = generateCases(contract, settings);

/** The largest values a signed and an unsigned 32-bit integer hold: what installs commonly store a number in. */
const int32 = 2 ** 31 - 1;
const uint32 = 2 ** 32 - 1;

function hasKeyword(field: Field, ...keywords: string[]): boolean {
  return field.constraints.some((constraint) => keywords.includes(constraint.keyword));
}

/** A field made up for a test, with the constraints given. */
function madeUpField(type: string, constraints: Field['constraints']): Field {
  return { name: 'made_up', type, required: false, constraints, description: '', deprecated: false, pointer: '#/made-up', members: [] };
}

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

  test('every end no bound names gets its values in the fixed cases: the shortest strings, and integers past 32 bits up to the largest a JSON number carries exactly', () => {
    let ends = 0;
    for (const action of contract.model.actions) {
      const sent = cases
        .filter((testCase) => testCase.group === 'acceptance' && testCase.action === action.identifier)
        .map((testCase) => JSON.parse(String(testCase.request(7).body)) as Record<string, unknown>);
      for (const field of variedFields(contract, action)) {
        if (hasKeyword(field, 'enum', 'const')) continue;
        const values = sent.map((body) => body[field.name]);
        const label = `${action.identifier} ${field.name}`;
        if (/^string/.test(field.type) && !hasKeyword(field, 'minLength', 'pattern', 'format')) {
          ends += 1;
          assert.ok(values.includes(''), `${label}: the empty string`);
          // One character of each length UTF-8 writes one in: 1, 2, 3 and 4 bytes.
          const oneCharacter = values.filter((value): value is string => typeof value === 'string' && [...value].length === 1);
          assert.deepEqual([...new Set(oneCharacter.map((value) => Buffer.byteLength(value)))].sort(), [1, 2, 3, 4], label);
        }
        if (/^integer/.test(field.type) && !hasKeyword(field, 'maximum', 'exclusiveMaximum')) {
          ends += 1;
          const numbers = values.filter((value): value is number => typeof value === 'number');
          assert.ok(numbers.some((value) => value > int32 && value <= uint32), `${label}: past a signed 32-bit integer`);
          assert.ok(numbers.some((value) => value > uint32 && value < Number.MAX_SAFE_INTEGER), `${label}: past an unsigned 32-bit integer`);
          assert.ok(numbers.includes(Number.MAX_SAFE_INTEGER), `${label}: the largest integer a JSON number carries exactly`);
        }
      }
    }
    assert.ok(ends > 0, 'some field has an open end');
  });

  test('an ID the site does not have is sent past 32 bits and at 2^53 - 1, never one of the named subscriptions', () => {
    const named = [int32 + 1, 3];
    const notFound = generateCases(contract, { ...settings, namedSubscriptions: named })
      .filter((testCase) => testCase.needs.kind === 'none' && testCase.expect(0).code === contract.errors.subscriptionNotFound.code)
      .map((testCase) => (JSON.parse(String(testCase.request(0).body)) as Record<string, unknown>)[contract.model.envelope.subject]);
    assert.ok(notFound.includes(uint32 + 1), JSON.stringify(notFound));
    assert.ok(notFound.includes(Number.MAX_SAFE_INTEGER), JSON.stringify(notFound));
    assert.deepEqual(notFound.filter((id) => named.includes(id as number)), [], 'a named subscription is left alone');
    const unnamed = generateCases(contract, settings).filter((testCase) => testCase.needs.kind === 'none' && testCase.expect(0).code === contract.errors.subscriptionNotFound.code);
    assert.equal(unnamed.length, notFound.length + 1, 'without names, the ID past a signed 32-bit integer is sent too');
  });

  test('the open ends follow the field: a string with no maxLength is sent past 255 and 65,535 characters, an integer with no minimum below zero, a list has none', () => {
    const longest = openEndValues(madeUpField('string', [])).map((edge) => (typeof edge.value === 'string' ? [...edge.value].length : -1));
    assert.ok(longest.includes(256) && longest.includes(65_536), JSON.stringify(longest));
    const twoAtLeast = openEndValues(madeUpField('string', [{ keyword: 'minLength', label: 'at least 2 characters', limit: 2 }, { keyword: 'maxLength', label: 'at most 9 characters', limit: 9 }]));
    assert.deepEqual(twoAtLeast, [], 'neither the empty string nor one character where minLength is 2, nothing past 9 characters');
    const below = openEndValues(madeUpField('integer', [{ keyword: 'maximum', label: 'at most 10', limit: 10 }])).map((edge) => edge.value);
    assert.deepEqual(below, [-int32 - 2, Number.MIN_SAFE_INTEGER]);
    assert.deepEqual(openEndValues(madeUpField('string', [{ keyword: 'enum', label: 'one of', values: ['a', 'b'] }])), []);
  });

  test('the generated pass draws the ends too: every edge and open-end value of a field among 400 generated values', () => {
    for (const action of contract.model.actions) {
      for (const field of variedFields(contract, action)) {
        const values = fieldValues(field);
        assert.ok(values !== undefined);
        const drawn = new Set(fc.sample(values, { numRuns: 400, seed: 1 }).map((value) => JSON.stringify(value)));
        const missing = acceptedValues(field).filter((edge) => !drawn.has(JSON.stringify(edge.value)));
        assert.deepEqual(missing.map((edge) => edge.label), [], `${action.identifier} ${field.name}`);
      }
    }
  });
});
