import type { Action, Field } from '../lib/contract/model.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { reachableByMoves } from '../lib/contract/lifecycle.ts';
import type { CaseSettings, ConformanceCase } from './case-model.ts';
import { lifecycleExpectation, postRequest, validBody } from './case-model.ts';

/**
 * The acceptance side of every field, at both ends: for each field the document bounds, the last
 * value inside each bound; at each end no bound names, the values installs refuse though the
 * contract allows them (`openEndValues`); and for each optional field, the request without it. Each
 * must succeed with the documented result; the first value past each bound, which must be refused,
 * is a request case.
 *
 * Each is sent where the action changes nothing (`changed: false`): to a subscription already in
 * the status the action leads to, or, for an action whose request chooses the status, asking for
 * the status it is in. So the acceptance side costs no subscription, and it judges the fields, not
 * the lifecycle, whose every move the lifecycle cases send.
 */

/** A letter UTF-8 writes in two bytes, which PHP's `strlen` counts twice. */
const twoByteCharacter = 'é';
/** A character outside the Basic Multilingual Plane: four bytes in UTF-8, two units in JavaScript's length. */
const astralCharacter = '😀';

/**
 * One character of each length UTF-8 gives one: one byte, two, three (what a latin1 column refuses),
 * and four, outside the Basic Multilingual Plane (what MySQL's three-byte utf8 refuses, and which
 * JavaScript counts as two units where the schema and PHP's `mb_strlen` count one character).
 */
const characterSizes = [
  { character: 'x', label: 'one ASCII character' },
  { character: twoByteCharacter, label: 'one two-byte character' },
  { character: '€', label: 'one three-byte character' },
  { character: astralCharacter, label: 'one character outside the Basic Multilingual Plane' },
];

/** A value inside a bound of the field, at its edge, with how the case names it. */
export interface EdgeValue {
  label: string;
  value: unknown;
}

/** The last valid value of each bound a field has: its length's ends, its minimum and maximum, each value of its enumeration. */
export function edgeValues(field: Field): EdgeValue[] {
  const values: EdgeValue[] = [];
  const integer = /^integer/.test(field.type);
  for (const constraint of field.constraints) {
    const limit = constraint.limit ?? Number.NaN;
    if (constraint.keyword === 'minLength' && Number.isFinite(limit)) values.push({ label: `of ${limit} characters (its minimum)`, value: 'x'.repeat(limit) });
    if (constraint.keyword === 'maxLength' && Number.isFinite(limit)) {
      values.push({ label: `of ${limit} characters (its maximum)`, value: 'x'.repeat(limit) });
      // A bound of characters, not of bytes: PHP's strlen counts bytes, mb_strlen characters.
      if (limit > 0) values.push({ label: `of ${limit} characters, none of them ASCII (its maximum)`, value: twoByteCharacter.repeat(limit) });
      // JavaScript's length counts a character outside the Basic Multilingual Plane twice.
      if (limit > 0) values.push({ label: `of ${limit} characters, all outside the Basic Multilingual Plane (its maximum)`, value: astralCharacter.repeat(limit) });
    }
    if (constraint.keyword === 'minimum' && Number.isFinite(limit)) values.push({ label: `${limit} (its minimum)`, value: limit });
    if (constraint.keyword === 'maximum' && Number.isFinite(limit)) values.push({ label: `${limit} (its maximum)`, value: limit });
    if (constraint.keyword === 'exclusiveMinimum' && Number.isFinite(limit) && integer) values.push({ label: `${limit + 1} (just above its exclusive minimum)`, value: limit + 1 });
    if (constraint.keyword === 'exclusiveMaximum' && Number.isFinite(limit) && integer) values.push({ label: `${limit - 1} (just below its exclusive maximum)`, value: limit - 1 });
    if (constraint.keyword === 'enum') {
      for (const value of constraint.values ?? []) values.push({ label: `${JSON.stringify(value)} (a value its enumeration lists)`, value });
    }
  }
  return values;
}

/**
 * Integers an install commonly keeps a number in, each with the largest value it holds: a value one
 * past it is what a column or a PHP integer of that size refuses, or wraps round.
 */
const storedIntegerSizes = [
  { largest: 2 ** 31 - 1, holder: "a signed 32-bit integer, such as MySQL's INT or PHP's int on a 32-bit build" },
  { largest: 2 ** 32 - 1, holder: "an unsigned 32-bit integer, such as MySQL's INT UNSIGNED" },
];

/** Strings an install commonly keeps text in, with the most characters each holds. */
const storedStringSizes = [
  { largest: 255, holder: 'a VARCHAR(255)' },
  { largest: 65_535, holder: "MySQL's TEXT" },
];

/** Whether the field's bounds (lengths, minimum and maximum) let it hold `value`; its type and list are the caller's. */
function withinBounds(field: Field, value: string | number): boolean {
  return field.constraints.every((constraint) => {
    const limit = constraint.limit;
    if (limit === undefined) return true;
    const size = typeof value === 'string' ? [...value].length : value;
    if (typeof value === 'string') return constraint.keyword === 'minLength' ? size >= limit : constraint.keyword === 'maxLength' ? size <= limit : true;
    if (constraint.keyword === 'minimum') return size >= limit;
    if (constraint.keyword === 'maximum') return size <= limit;
    if (constraint.keyword === 'exclusiveMinimum') return size > limit;
    if (constraint.keyword === 'exclusiveMaximum') return size < limit;
    return true;
  });
}

function hasBound(field: Field, ...keywords: string[]): boolean {
  return field.constraints.some((constraint) => keywords.includes(constraint.keyword) && constraint.limit !== undefined);
}

/**
 * The values at the ends of a field that no bound names, which installs refuse though the contract
 * allows them. For a string: the empty string where no `minLength` forbids it, one character of each
 * UTF-8 length, and where no `maxLength` bounds it, one character past what a VARCHAR(255) and a TEXT
 * column hold. For an integer with no maximum: one past what a signed and an unsigned 32-bit integer
 * hold, and the largest a JSON number carries exactly (2^53 - 1); with no minimum, the same below
 * zero. Each value is one the field's bounds allow; a field with a list of values has none here, its
 * every value being an edge value.
 */
export function openEndValues(field: Field): EdgeValue[] {
  if (field.constraints.some((constraint) => constraint.keyword === 'enum' || constraint.keyword === 'const')) return [];
  const type = field.type.replace(/ \(.*\)$/, '');
  const values: EdgeValue[] = [];
  if (type === 'string') {
    values.push({ label: 'empty (no minLength forbids it)', value: '' });
    for (const { character, label } of characterSizes) values.push({ label: `of ${label}`, value: character });
    if (!hasBound(field, 'maxLength')) {
      for (const { largest, holder } of storedStringSizes) values.push({ label: `of ${largest + 1} characters (past ${holder}; no maxLength bounds it)`, value: 'x'.repeat(largest + 1) });
    }
  }
  if (type === 'integer') {
    const largestExact = Number.MAX_SAFE_INTEGER;
    if (!hasBound(field, 'maximum', 'exclusiveMaximum')) {
      for (const { largest, holder } of storedIntegerSizes) values.push({ label: `${largest + 1} (past ${holder}; no maximum bounds it)`, value: largest + 1 });
      values.push({ label: `${largestExact} (the largest integer a JSON number carries exactly; no maximum bounds it)`, value: largestExact });
    }
    if (!hasBound(field, 'minimum', 'exclusiveMinimum')) {
      const [signed] = storedIntegerSizes;
      if (signed !== undefined) values.push({ label: `${-signed.largest - 2} (below ${signed.holder}; no minimum bounds it)`, value: -signed.largest - 2 });
      values.push({ label: `${-largestExact} (the smallest integer a JSON number carries exactly; no minimum bounds it)`, value: -largestExact });
    }
  }
  return values.filter((edge) => (typeof edge.value === 'string' || typeof edge.value === 'number') && withinBounds(field, edge.value));
}

/** The edge values and the open-end values of a field, each value once (an edge value's label where both give it). */
export function acceptedValues(field: Field): EdgeValue[] {
  const seen = new Set<string>();
  return [...edgeValues(field), ...openEndValues(field)].filter((edge) => {
    const key = JSON.stringify(edge.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Where a request of `action` changes nothing: the status its fixed transition leads to, or, for
 * an action whose request chooses the status, a status the moves lead back to (so a subscription
 * is there again after the cases that leave it), asked for itself.
 */
export function unchangedStatus(contract: ExecutableContract, action: Action): { fromStatus: string; requestedStatus?: string } {
  const { transition } = action;
  if (transition.kind === 'fixed') return { fromStatus: transition.to };
  const { states } = contract.model.lifecycle;
  const inCycle = states.find((status) => [...reachableByMoves(transition, status).keys()].some((other) => other !== status && reachableByMoves(transition, other).has(status)));
  const fromStatus = inCycle ?? states[0] ?? '';
  return { fromStatus, requestedStatus: fromStatus };
}

/** The fields a case varies: not the key, the action's name, the subscription, nor the status a request chooses (each of its values is a lifecycle case). */
export function variedFields(contract: ExecutableContract, action: Action): Field[] {
  const { envelope } = contract.model;
  const chosenField = action.transition.kind === 'chosen' ? action.transition.field : undefined;
  return action.fields.filter((field) => ![envelope.credential, envelope.selector, envelope.subject, chosenField].includes(field.name));
}

/**
 * The values of `field` the acceptance side sends with `action`: its edge and open-end values that
 * the action's request schema accepts. An open end the rest of the schema forbids (a pattern, a
 * format) is no value the contract allows.
 */
export function acceptanceValues(contract: ExecutableContract, action: Action, field: Field): EdgeValue[] {
  const validate = contract.schemas.schemaAt(action.pointer);
  const { requestedStatus } = unchangedStatus(contract, action);
  const { transition } = action;
  const example = { ...action.requestExample.value, ...(transition.kind === 'chosen' && requestedStatus !== undefined ? { [transition.field]: requestedStatus } : {}) };
  return acceptedValues(field).filter((edge) => validate({ ...example, [field.name]: edge.value }));
}

export function acceptanceCases(contract: ExecutableContract, settings: CaseSettings): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  for (const action of contract.model.actions) {
    const { fromStatus, requestedStatus } = unchangedStatus(contract, action);
    const accepted = (name: string, change: (body: Record<string, unknown>) => void): ConformanceCase => ({
      name: `${action.identifier} ${name}`,
      group: 'acceptance',
      action: action.identifier,
      fromStatus,
      ...(requestedStatus === undefined ? {} : { requestedStatus }),
      outcome: 'unchanged',
      needs: { kind: 'status', status: fromStatus },
      request: (id) => {
        const body = validBody(contract, action, settings, id, requestedStatus);
        change(body);
        return postRequest(contract, body);
      },
      expect: (id) => lifecycleExpectation(contract, action, fromStatus, requestedStatus, id),
    });
    for (const field of variedFields(contract, action)) {
      for (const edge of acceptanceValues(contract, action, field)) cases.push(accepted(`with ${field.name} ${edge.label}`, (body) => (body[field.name] = edge.value)));
      if (!field.required) cases.push(accepted(`without ${field.name}, which is optional`, (body) => delete body[field.name]));
    }
  }
  return cases;
}
