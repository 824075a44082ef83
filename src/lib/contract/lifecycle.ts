import type { OpenApiDocument } from './document.ts';
import { isRecord } from './document.ts';
import type { RequestBody } from './request-body.ts';
import { childPointer, contractError, requiredString, resolveSchema, stringList } from './schemas.ts';

/** An action that always leads to the same status. */
export interface FixedTransition {
  kind: 'fixed';
  action: string;
  from: string[];
  to: string;
}

/** An action whose target status is chosen by a request field, along a table of allowed moves. */
export interface ChosenTransition {
  kind: 'chosen';
  action: string;
  /** The request field that names the target status. */
  field: string;
  moves: Move[];
}

export interface Move {
  from: string;
  to: string[];
}

export type ActionTransition = FixedTransition | ChosenTransition;

export interface Lifecycle {
  /** Every status, in the order of the `SubscriptionStatus` enum. */
  states: string[];
  /** Statuses no action leads out of. */
  finalStates: string[];
  /** Markdown from `x-transitions.description`. */
  description: string;
  /** In the order of the request body's actions. */
  transitions: ActionTransition[];
}

/** One arrow of the lifecycle: a status change and every action that makes it. */
export interface LifecycleEdge {
  from: string;
  to: string;
  actions: string[];
}

const statusSchemaPointer = '#/components/schemas/SubscriptionStatus';
const transitionsPointer = '#/x-transitions';

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

/** The transition of one action, or a clear error when the lifecycle does not know it. */
export function transitionOf(lifecycle: Lifecycle, action: string): ActionTransition {
  const transition = lifecycle.transitions.find((candidate) => candidate.action === action);
  if (transition === undefined) throw contractError(transitionsPointer, `has no entry for \`${action}\``);
  return transition;
}

/**
 * Reads `x-transitions`, the lifecycle as data, and checks it against the rest of the contract:
 * every action of the request body has exactly one entry, every status named is a value of the
 * `SubscriptionStatus` enum, and nothing leads out of a final status.
 */
export function readLifecycle(document: OpenApiDocument, requestBody: RequestBody): Lifecycle {
  const status = resolveSchema(document, { $ref: statusSchemaPointer }, '#/components/schemas');
  const states = stringList(status.schema.enum, statusSchemaPointer, '`enum`');
  const known = new Set(states);
  const assertState = (state: string, pointer: string): string => {
    if (!known.has(state)) {
      throw contractError(pointer, `names the status \`${state}\`, which is not a value of SubscriptionStatus`);
    }
    return state;
  };

  const table: unknown = Reflect.get(document, 'x-transitions');
  if (!isRecord(table)) throw contractError(transitionsPointer, 'is missing: the lifecycle table is required');
  const finalStates = stringList(table.final ?? [], childPointer(transitionsPointer, 'final'), '`final`').map((state) =>
    assertState(state, childPointer(transitionsPointer, 'final')),
  );
  const actions = table.actions;
  if (!isRecord(actions)) throw contractError(childPointer(transitionsPointer, 'actions'), 'is expected to map actions');

  const variants = new Map(requestBody.variants.map((variant) => [variant.identifier, variant]));
  for (const name of Object.keys(actions)) {
    if (!variants.has(name)) {
      throw contractError(childPointer(transitionsPointer, 'actions', name), 'is not an action of the request body');
    }
  }

  const transitions = requestBody.variants.map(({ identifier, schema }): ActionTransition => {
    const pointer = childPointer(transitionsPointer, 'actions', identifier);
    const entry = actions[identifier];
    if (!isRecord(entry)) throw contractError(pointer, `is missing: every action needs its transitions`);
    if (typeof entry.toField === 'string') {
      if (!entry.toField || !schema.schema.required?.includes(entry.toField)) {
        throw contractError(pointer, `\`toField\` names \`${entry.toField}\`, which is not a required field of ${identifier}`);
      }
      if (!isRecord(entry.moves)) throw contractError(pointer, '`toField` needs `moves`: from each status, where to');
      const moves = Object.entries(entry.moves).map(([from, to]): Move => {
        const movePointer = childPointer(pointer, 'moves', from);
        return {
          from: assertState(from, movePointer),
          to: stringList(to, movePointer, 'the targets').map((target) => assertState(target, movePointer)),
        };
      });
      return { kind: 'chosen', action: identifier, field: entry.toField, moves };
    }
    const from = stringList(entry.from, childPointer(pointer, 'from'), '`from`').map((state) =>
      assertState(state, childPointer(pointer, 'from')),
    );
    const to = assertState(requiredString(entry.to, childPointer(pointer, 'to'), '`to`'), childPointer(pointer, 'to'));
    return { kind: 'fixed', action: identifier, from, to };
  });

  for (const transition of transitions) {
    const leaving = acceptedStates(transition).find((state) => finalStates.includes(state));
    if (leaving !== undefined) {
      throw contractError(
        childPointer(transitionsPointer, 'actions', transition.action),
        `leads out of \`${leaving}\`, which \`final\` says no action leaves`,
      );
    }
  }

  return {
    states,
    finalStates,
    description: typeof table.description === 'string' ? table.description : '',
    transitions,
  };
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
