/**
 * What every client library's tests against a sandbox derive alike from the model: the fields a
 * caller passes for an action's example, a status the action changes and the one it moves to, an
 * action refused from a status that allows others, the subscriptions to seed, and the date form of
 * `Retry-After`. Each language's test calls its library with them in its own way.
 */
import type { Action, ReferenceModel } from '../../src/lib/contract/model.ts';
import { allowedActions, outcomeOf } from '../../src/lib/contract/lifecycle.ts';

export type Fields = Record<string, unknown>;

/** The fields a caller passes for the action's request example: the selector and the key left out, as the client sets them. */
export function callerExample(model: Pick<ReferenceModel, 'envelope'>, action: Action): Fields {
  const { selector, credential } = model.envelope;
  const { [selector]: _selector, [credential]: _key, ...fields } = action.requestExample.value;
  return fields;
}

/** The first status, in the lifecycle's order, that the action changes; the status it moves to; and the status asked for when the example names it. */
export function startingPoint(model: Pick<ReferenceModel, 'lifecycle'>, action: Action): { from: string; to: string; requested?: string } {
  const example = action.requestExample.value;
  const requested = action.transition.kind === 'chosen' ? String(example[action.transition.field]) : undefined;
  for (const from of model.lifecycle.states) {
    const outcome = outcomeOf(action.transition, from, requested);
    if (outcome.kind === 'changed') return { from, to: outcome.to, ...(requested === undefined ? {} : { requested }) };
  }
  throw new Error(`No status of the lifecycle accepts ${action.identifier}.`);
}

/** An action refused from a status that allows other actions, and that status: the case of a 409 naming what is allowed. */
export function refusalCase(model: Pick<ReferenceModel, 'actions' | 'lifecycle'>): { action: Action; status: string } {
  for (const action of model.actions) {
    const status = action.refusedStates.find((state) => allowedActions(model.lifecycle, state).length > 0);
    if (status !== undefined) return { action, status };
  }
  throw new Error('No action is refused from a status that allows others.');
}

/** The subscriptions a test seeds its sandbox with, each placed in a status under the next free id from `firstId`. */
export function subscriptionSeed(firstId: number): { seeded: { id: number; status: string }[]; place: (status: string) => number } {
  const seeded: { id: number; status: string }[] = [];
  let nextId = firstId;
  return {
    seeded,
    place(status) {
      const id = nextId++;
      seeded.push({ id, status });
      return id;
    },
  };
}

/** An IMF-fixdate `seconds` from now, as a host writes Retry-After in its date form. */
export function httpDateIn(seconds: number): string {
  return new Date(Math.ceil(Date.now() / 1000) * 1000 + seconds * 1000).toUTCString();
}

/** The variables a page's one-line `export NAME=value …` sets, by name: values hold no spaces. */
export function exportedVariables(command: string): Record<string, string> {
  return Object.fromEntries(command.replace(/^export /, '').split(' ').map((pair) => pair.split('=') as [string, string]));
}
