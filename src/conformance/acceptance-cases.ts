import type { Action, Field } from '../lib/contract/model.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { reachableByMoves } from '../lib/contract/lifecycle.ts';
import type { CaseSettings, ConformanceCase } from './case-model.ts';
import { lifecycleExpectation, postRequest, validBody } from './case-model.ts';

/**
 * The acceptance side of every bound: for each field the document bounds, the last value inside
 * each bound, and for each optional field, the request without it. Each must succeed with the
 * documented result; the first value past each bound, which must be refused, is a request case.
 *
 * Each is sent where the action changes nothing (`changed: false`): to a subscription already in
 * the status the action leads to, or, for an action whose request chooses the status, asking for
 * the status it is in. So the acceptance side costs no subscription, and it judges the fields, not
 * the lifecycle, whose every move the lifecycle cases send.
 */

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
      if (limit > 0) values.push({ label: `of ${limit} characters, none of them ASCII (its maximum)`, value: 'é'.repeat(limit) });
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
      for (const edge of edgeValues(field)) cases.push(accepted(`with ${field.name} ${edge.label}`, (body) => (body[field.name] = edge.value)));
      if (!field.required) cases.push(accepted(`without ${field.name}, which is optional`, (body) => delete body[field.name]));
    }
  }
  return cases;
}
