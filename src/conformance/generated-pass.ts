import fc from 'fast-check';
import type { Action, Field } from '../lib/contract/model.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { outcomeOf } from '../lib/contract/lifecycle.ts';
import type { ConformanceCase } from './case-model.ts';
import { lifecycleExpectation, postRequest } from './case-model.ts';
import { acceptedValues, variedFields } from './acceptance-cases.ts';
import { revealedStatus } from './answer-reading.ts';
import type { CaseResult, GeneratedPass } from './results.ts';
import type { RunState } from './run-state.ts';
import { judge } from './run-state.ts';

/**
 * The generated pass: valid bodies generated from the request schemas of the one model (fast-check,
 * seeded), each sent where it changes no subscription (to one already in the status it leads to, or
 * one whose status refuses it, so the answer is a success with `changed: false` or the lifecycle's
 * refusal). A body refused as a request (a 4xx other than the lifecycle's) or answered with a crash
 * fails the pass; fast-check then shrinks it to the smallest body still refused, which the report
 * prints with the seed that replays it.
 */

/** Bodies sent unless told (`--generated`): a few dozen, about half a minute at the courtesy pace. */
export const defaultGeneratedRuns = 30;
/** The most requests shrinking a refused body may send, so a run's length stays bounded. */
export const maxShrinkRequests = 100;
/** The longest string generated for a field with no maximum length. */
const unboundedLength = 64;

function limitOf(field: Field, keyword: string): number | undefined {
  return field.constraints.find((constraint) => constraint.keyword === keyword)?.limit;
}

/**
 * The values a field's schema allows, as fast-check generates them; undefined where the model says
 * too little to generate one. One value in four is drawn from the field's ends (`acceptedValues`:
 * the edge of each bound and the ends no bound names), which the schema's own ranges reach too
 * seldom to meet in a few dozen bodies.
 */
export function fieldValues(field: Field): fc.Arbitrary<unknown> | undefined {
  const values = schemaValues(field);
  const ends = acceptedValues(field).map((edge) => edge.value);
  if (values === undefined || ends.length === 0) return values;
  return fc.oneof({ weight: 3, arbitrary: values }, { weight: 1, arbitrary: fc.constantFrom(...ends) });
}

function schemaValues(field: Field): fc.Arbitrary<unknown> | undefined {
  const listed = field.constraints.find((constraint) => constraint.keyword === 'enum' || constraint.keyword === 'const')?.values;
  if (listed !== undefined && listed.length > 0) return fc.constantFrom(...listed);
  const type = field.type.replace(/ \(.*\)$/, '');
  if (type === 'string') {
    const minLength = limitOf(field, 'minLength') ?? 0;
    const maxLength = limitOf(field, 'maxLength');
    // One code point per unit, none a lone surrogate: a length the schema counts as WordPress does. A
    // bounded length is explored up to its bound, not only fast-check's small sizes.
    return fc.string({ unit: 'binary', minLength, maxLength: maxLength ?? Math.max(minLength, unboundedLength), ...(maxLength === undefined ? {} : { size: 'max' as const }) });
  }
  if (type === 'integer') {
    const exclusiveMinimum = limitOf(field, 'exclusiveMinimum');
    const exclusiveMaximum = limitOf(field, 'exclusiveMaximum');
    return fc.integer({
      min: limitOf(field, 'minimum') ?? (exclusiveMinimum === undefined ? Number.MIN_SAFE_INTEGER : exclusiveMinimum + 1),
      max: limitOf(field, 'maximum') ?? (exclusiveMaximum === undefined ? Number.MAX_SAFE_INTEGER : exclusiveMaximum - 1),
    });
  }
  if (type === 'number') return fc.double({ noNaN: true, noDefaultInfinity: true, min: limitOf(field, 'minimum') ?? -1e9, max: limitOf(field, 'maximum') ?? 1e9 });
  if (type === 'boolean') return fc.boolean();
  return undefined;
}

/** The fields of a generated body besides the key, the action's name and the subscription: each optional one present or not. */
function fieldsOf(contract: ExecutableContract, action: Action): fc.Arbitrary<Record<string, unknown>> {
  const { transition } = action;
  const chosenField = transition.kind === 'chosen' ? action.fields.find((field) => field.name === transition.field) : undefined;
  const fields = [...(chosenField === undefined ? [] : [chosenField]), ...variedFields(contract, action)];
  const generated = fields.flatMap((field) => {
    const values = fieldValues(field);
    return values === undefined ? [] : [[field.name, values, field.required] as const];
  });
  return fc.record(Object.fromEntries(generated.map(([name, values]) => [name, values])), {
    requiredKeys: generated.filter(([, , required]) => required).map(([name]) => name),
  });
}

/** A named subscription where this request changes nothing: one already where it leads first, else one whose status refuses it. */
function quietSubscription(state: RunState, action: Action, requested: string | undefined): { id: number; status: string } | undefined {
  const placed = state.subscriptions.flatMap((id) => {
    const status = state.known.get(id);
    return status === undefined ? [] : [{ id, status, outcome: outcomeOf(action.transition, status, requested).kind }];
  });
  return placed.find((entry) => entry.outcome === 'unchanged') ?? placed.find((entry) => entry.outcome === 'refused');
}

function generatedCase(contract: ExecutableContract, action: Action, fromStatus: string, requested: string | undefined, body: Record<string, unknown>, name: string): ConformanceCase {
  return {
    name,
    group: 'generated',
    action: action.identifier,
    fromStatus,
    ...(requested === undefined ? {} : { requestedStatus: requested }),
    needs: { kind: 'any' },
    request: () => postRequest(contract, body),
    expect: (id) => lifecycleExpectation(contract, action, fromStatus, requested, id),
  };
}

/** The generators of each action's fields, made before a run sends its first request (`generatedBodies`). */
export type GeneratedBodies = ReadonlyMap<Action, fc.Arbitrary<Record<string, unknown>>>;

/**
 * The generators of every action's fields. The first string generator a process makes costs fast-check
 * a table of every Unicode code point, over a second of CPU on a busy machine; made in the middle of
 * a run, that pause would fall between two requests on a kept-alive connection, and with a sandbox
 * in the same process both ends' idle timers would fire late together, the next request meeting a
 * closed socket. So the runner makes them before it sends anything.
 */
export function generatedBodies(contract: ExecutableContract): GeneratedBodies {
  return new Map(contract.model.actions.map((action) => [action, fieldsOf(contract, action)] as const));
}

/** Runs the generated pass: `runs` bodies from `seed`, then the shrinking of a refused one. */
export async function runGeneratedPass(state: RunState, runs: number, seed: number, generators: GeneratedBodies = generatedBodies(state.contract)): Promise<GeneratedPass> {
  const { contract, apiKey } = state;
  const { envelope } = contract.model;
  const pass: GeneratedPass = { runs, seed, sent: 0, shrinkRequests: 0, actions: [] };
  const actions = contract.model.actions.filter((action) =>
    (action.transition.kind === 'chosen' ? contract.model.lifecycle.states : [undefined]).some((requested) => quietSubscription(state, action, requested) !== undefined),
  );
  pass.actions = actions.map((action) => action.identifier);
  if (runs === 0 || actions.length === 0) return pass;
  let smallest: CaseResult | undefined;
  let failedOnce = false;
  const bodies = fc.oneof(...actions.map((action) => (generators.get(action) ?? fieldsOf(contract, action)).map((fields) => ({ action, fields }))));
  const property = fc.asyncProperty(bodies, async ({ action, fields }) => {
    const requested = action.transition.kind === 'chosen' ? fields[action.transition.field] : undefined;
    const requestedStatus = typeof requested === 'string' ? requested : undefined;
    const target = quietSubscription(state, action, requestedStatus);
    fc.pre(target !== undefined);
    if (target === undefined) return true;
    const body = { [envelope.credential]: apiKey, [envelope.selector]: action.identifier, [envelope.subject]: target.id, ...fields };
    fc.pre(contract.schemas.schemaAt(action.pointer)(body));
    // Past the budget for shrinking, the smallest body refused so far stands.
    if (failedOnce && pass.shrinkRequests >= maxShrinkRequests) return true;
    const testCase = generatedCase(contract, action, target.status, requestedStatus, body, `a generated ${action.identifier} body (seed ${seed})`);
    const exchange = await state.send(testCase.request(target.id));
    if (failedOnce) pass.shrinkRequests += 1;
    else pass.sent += 1;
    state.known.set(target.id, revealedStatus(contract, exchange.answer) ?? state.known.get(target.id));
    const result = judge(state, testCase, exchange, target.id);
    const answer = exchange.answer;
    const refused = result.allowedBy !== undefined || answer === undefined || answer.status >= 500;
    if (refused) {
      failedOnce = true;
      smallest = result;
    }
    return !refused;
  });
  const details = await fc.check(property, { numRuns: runs, seed, maxSkipsPerRun: 1000 });
  if (details.failed && smallest !== undefined) {
    smallest.case = { ...smallest.case, name: `the smallest generated body refused (seed ${seed}, after ${details.numShrinks} shrinks)` };
    pass.smallest = smallest;
  } else if (details.failed) {
    pass.stopped = details.errorInstance instanceof Error ? details.errorInstance.message : 'fast-check could not generate enough bodies the subscriptions allow';
  }
  return pass;
}
