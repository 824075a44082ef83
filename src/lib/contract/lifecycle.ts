import type { OpenApiDocument } from './document.ts';
import { isRecord } from './document.ts';
import type { ReportProblem } from './problems.ts';
import { childPointer } from './schemas.ts';
import type { ChosenTransition, Move, ActionTransition, Lifecycle } from './model.ts';

/** One arrow of the lifecycle: a status change and every action that makes it. */
export interface LifecycleEdge {
  from: string;
  to: string;
  actions: string[];
}

const statusSchemaPointer = '#/components/schemas/SubscriptionStatus';
export const transitionsPointer = '#/x-transitions';

/** The statuses an action accepts: any other status makes the service refuse it. */
export function acceptedStates(transition: ActionTransition): string[] {
  return transition.kind === 'fixed' ? transition.from : transition.moves.map((move) => move.from);
}

/** The statuses an action can lead to. */
export function targetStates(transition: ActionTransition): string[] {
  return transition.kind === 'fixed' ? [transition.to] : [...new Set(transition.moves.flatMap((move) => move.to))];
}

/**
 * The actions that would change a subscription in `status`, in the order of the request body:
 * what a refusal's `allowed_actions` lists. An action whose target status already holds is left
 * out, since it would only answer `changed: false`; from a final status the list is empty.
 */
export function actionsThatChange(lifecycle: Lifecycle, status: string): string[] {
  return lifecycle.transitions
    .filter((transition) =>
      transition.kind === 'fixed'
        ? transition.from.includes(status) && transition.to !== status
        : transition.moves.some((move) => move.from === status && move.to.some((target) => target !== status)),
    )
    .map((transition) => transition.action);
}

/**
 * The statuses from which an action is refused, in the enum's order. A subscription already in
 * a fixed transition's target is not refused: the action succeeds and changes nothing, which is
 * what makes a retried request safe.
 */
export function refusedStates(lifecycle: Lifecycle, transition: ActionTransition): string[] {
  const accepted = new Set(acceptedStates(transition));
  if (transition.kind === 'fixed') accepted.add(transition.to);
  return lifecycle.states.filter((state) => !accepted.has(state));
}

/** Every status change of the lifecycle, each with the actions that make it. */
export function lifecycleEdges(lifecycle: Lifecycle): LifecycleEdge[] {
  const edges = new Map<string, LifecycleEdge>();
  for (const transition of lifecycle.transitions) {
    const pairs =
      transition.kind === 'fixed'
        ? transition.from.map((from) => [from, transition.to] as const)
        : transition.moves.flatMap((move) => move.to.map((to) => [move.from, to] as const));
    for (const [from, to] of pairs) {
      const key = `${from}\u0000${to}`;
      const edge = edges.get(key) ?? { from, to, actions: [] };
      edge.actions.push(transition.action);
      edges.set(key, edge);
    }
  }
  return [...edges.values()];
}

/** An action of the request body, as far as the lifecycle table is concerned. */
export interface LifecycleAction {
  identifier: string;
  /** The request fields the action requires: a chosen transition's `toField` must be one. */
  requiredFields: readonly string[];
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function quoteList(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(', ');
}

/**
 * Reads `x-transitions`, the lifecycle as data, and checks it against the rest of the contract,
 * reporting every problem and reading on: every action of the request body has exactly one
 * entry, every status named is a value of the `SubscriptionStatus` enum, and nothing leads out
 * of a final status (a decision recorded in openapi/README.md). The site, the servers, the gate's
 * transition-table rule and the changelog all read the table here. Undefined when there is no
 * table to read, or no states to read it against.
 */
export function readLifecycle(document: OpenApiDocument, actions: readonly LifecycleAction[], report: ReportProblem): Lifecycle | undefined {
  const table: unknown = Reflect.get(document, 'x-transitions');
  if (!isRecord(table)) {
    report({ location: transitionsPointer, message: 'The document has no x-transitions table; the states page and the 409 rules are generated from it.' });
    return undefined;
  }
  const statusSchema = document.components?.schemas?.SubscriptionStatus;
  const states = isRecord(statusSchema) && isStringList(statusSchema.enum) ? statusSchema.enum : undefined;
  if (states === undefined) {
    report({ location: statusSchemaPointer, message: 'There is no SubscriptionStatus schema with an enum of the states, so the transition table cannot be checked.' });
    return undefined;
  }
  /** The states a list names, once each problem with it is reported; only known states are kept. */
  const knownStates = (location: string, values: unknown, what: string): string[] => {
    if (!isStringList(values)) {
      report({ location, message: `${what} must be a list of states.` });
      return [];
    }
    const unknown = values.filter((value) => !states.includes(value));
    if (unknown.length > 0) {
      report({ location, message: `${what} names ${quoteList(unknown)}, which ${unknown.length === 1 ? 'is not a state' : 'are not states'} of SubscriptionStatus (${states.join(', ')}).` });
    }
    return values.filter((value) => states.includes(value));
  };

  const finalPointer = childPointer(transitionsPointer, 'final');
  const finalStates = knownStates(finalPointer, table.final, 'The list of final states');
  const actionsPointer = childPointer(transitionsPointer, 'actions');
  const entries = table.actions;
  const lifecycle: Lifecycle = { states, finalStates, description: typeof table.description === 'string' ? table.description : '', transitions: [] };
  if (!isRecord(entries)) {
    report({ location: transitionsPointer, message: 'x-transitions has no "actions" map from each action to the states it accepts.' });
    return lifecycle;
  }
  const identifiers = actions.map((action) => action.identifier);
  for (const name of Object.keys(entries).filter((candidate) => !identifiers.includes(candidate))) {
    report({ location: childPointer(actionsPointer, name), message: `x-transitions lists "${name}", which is not one of the actions of the request body.` });
  }
  for (const action of actions) {
    const transition = readTransition(action, entries[action.identifier], childPointer(actionsPointer, action.identifier), finalStates, knownStates, report);
    if (transition !== undefined) lifecycle.transitions.push(transition);
  }
  return lifecycle;
}

function readTransition(
  action: LifecycleAction,
  entry: unknown,
  pointer: string,
  finalStates: readonly string[],
  knownStates: (location: string, values: unknown, what: string) => string[],
  report: ReportProblem,
): ActionTransition | undefined {
  const { identifier } = action;
  if (entry === undefined) {
    report({ location: pointer, message: `x-transitions has no entry for ${identifier}; every action needs its transitions: the states it accepts.` });
    return undefined;
  }
  if (!isRecord(entry)) {
    report({ location: pointer, message: `The entry of ${identifier} must say which states it accepts.` });
    return undefined;
  }
  if ('moves' in entry) {
    const field = entry.toField;
    if (typeof field !== 'string' || !action.requiredFields.includes(field)) {
      report({ location: pointer, message: `The entry of ${identifier} has moves, so "toField" must name the request field that holds the target state, a required field of ${identifier}.` });
    }
    const movesPointer = childPointer(pointer, 'moves');
    if (!isRecord(entry.moves)) {
      report({ location: movesPointer, message: `The moves of ${identifier} must map each state to the states it may move to.` });
      return undefined;
    }
    knownStates(movesPointer, Object.keys(entry.moves), `The moves of ${identifier}`);
    const moves = Object.entries(entry.moves).map(([from, targets]): Move => {
      const movePointer = childPointer(movesPointer, from);
      const to = knownStates(movePointer, targets, `The moves of ${identifier} from ${from}`);
      if (finalStates.includes(from) && isStringList(targets) && targets.length > 0) {
        report({ location: movePointer, message: `${from} is a final state, yet ${identifier} moves out of it to ${targets.join(', ')}.` });
      }
      return { from, to };
    });
    return typeof field === 'string' ? { kind: 'chosen', action: identifier, field, moves } : undefined;
  }
  const fromPointer = childPointer(pointer, 'from');
  const from = knownStates(fromPointer, entry.from, `The "from" states of ${identifier}`);
  const toPointer = childPointer(pointer, 'to');
  const [to] = knownStates(toPointer, [entry.to], `The "to" state of ${identifier}`);
  for (const state of from.filter((candidate) => finalStates.includes(candidate))) {
    report({ location: fromPointer, message: `${state} is a final state, yet ${identifier} accepts it and leads out of it.` });
  }
  return to === undefined ? undefined : { kind: 'fixed', action: identifier, from, to };
}

/** What an action does to a subscription in a given status. */
export type TransitionOutcome =
  | { kind: 'changed'; to: string }
  /** The status the action leads to already holds: the action succeeds and changes nothing. */
  | { kind: 'unchanged' }
  /** The status does not accept the action, or `change_status` does not allow that move. */
  | { kind: 'refused' };

/**
 * Applies the lifecycle table to one request. `requested` is the target a chosen transition names
 * in its request field; a fixed transition ignores it. The target already holding comes first, for
 * either kind: a repeated request succeeds with nothing changed, even from a final status.
 */
export function outcomeOf(transition: ActionTransition, current: string, requested?: string): TransitionOutcome {
  if (transition.kind === 'fixed') {
    if (current === transition.to) return { kind: 'unchanged' };
    return transition.from.includes(current) ? { kind: 'changed', to: transition.to } : { kind: 'refused' };
  }
  if (requested === undefined) return { kind: 'refused' };
  if (requested === current) return { kind: 'unchanged' };
  const move = transition.moves.find((candidate) => candidate.from === current);
  return move?.to.includes(requested) === true ? { kind: 'changed', to: requested } : { kind: 'refused' };
}

/**
 * The actions a refusal lists as allowed: those that would change a subscription in `current`,
 * in the order of the request body. An action that would only answer `changed: false` is left
 * out, so a final status lists none (openapi/README.md records this decision).
 */
export function allowedActions(lifecycle: Lifecycle, current: string): string[] {
  return lifecycle.transitions
    .filter((transition) => acceptedStates(transition).includes(current))
    .map((transition) => transition.action);
}

/**
 * The statuses a subscription can be brought to from `from` by a chain of moves of the chosen
 * transition (`change_status`), with the shortest chain to each; `from` itself is reached by none.
 */
export function reachableByMoves(transition: ChosenTransition, from: string): Map<string, string[]> {
  const paths = new Map<string, string[]>([[from, []]]);
  const queue = [from];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    const path = paths.get(current) ?? [];
    for (const next of transition.moves.find((move) => move.from === current)?.to ?? []) {
      if (!paths.has(next)) {
        paths.set(next, [...path, next]);
        queue.push(next);
      }
    }
  }
  return paths;
}
