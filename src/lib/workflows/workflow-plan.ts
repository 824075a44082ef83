/**
 * The lifecycle as workflows: which requests each workflow sends, from which status, and what it
 * expects back, read from the model alone (the lifecycle table `x-transitions`, the actions, their
 * examples, the responses). `arazzo-document.ts` writes the plan as an Arazzo description; the
 * sandbox seeds the subscriptions it starts from; the tests hand a real site's subscriptions to it.
 */
import type { Action, ActionTransition, Lifecycle } from '../contract/model.ts';
import { isRecord } from '../contract/document.ts';
import type { ExecutableContract } from '../contract/executable-contract.ts';
import { acceptedStates, actionsThatChange, refusedStates } from '../contract/lifecycle.ts';
import { conflictStatus } from '../contract/response-names.ts';
import { refusalDetails } from '../contract/refusal-details.ts';

/** What a step expects of a success: the status before and after, and whether it changed. */
export interface ExpectedResult {
  previousStatus: string;
  status: string;
  changed: boolean;
}

/** The action a step sends: one the plan names, or the one a refusal listed at a position. */
export type StepAction = { kind: 'named'; identifier: string } | { kind: 'listed'; fromStep: string };

export interface PlannedStep {
  stepId: string;
  description: string;
  action: StepAction;
  /** Fields beyond the key, the action and the subscription: the action's example values, and a chosen target. */
  extraFields: Record<string, unknown>;
  expect:
    | { kind: 'result'; result: ExpectedResult }
    /** A 409 naming the status and listing `listed`, which the next step reads at `position`. */
    | { kind: 'refusal'; currentStatus: string; listed: string; position: number }
    /** The success of the action a refusal listed, from the status the refusal named. */
    | { kind: 'followed'; fromStep: string };
  /** Whether a throttled answer is waited out and the request sent again. */
  retriesThrottling: boolean;
}

export type WorkflowKind = 'action' | 'refusal' | 'round-trip' | 'throttled';

export interface PlannedWorkflow {
  workflowId: string;
  kind: WorkflowKind;
  summary: string;
  description: string;
  /** The status the workflow's subscription must be in when it starts. */
  startStatus: string;
  /** Whether a run changes the subscription: a subscription a run changes serves that run only. */
  changesSubscription: boolean;
  steps: PlannedStep[];
}

/** One way to start a workflow: a status and, for an action that lets the request choose, the target. */
interface Start {
  from: string;
  to: string;
}

/** The starts from which an action changes a subscription, the example's own first. */
function changingStarts(action: Action, lifecycle: Lifecycle, previousField: string, statusField: string): Start[] {
  const transition = action.transition;
  const starts: Start[] =
    transition.kind === 'fixed'
      ? transition.from.filter((from) => from !== transition.to).map((from) => ({ from, to: transition.to }))
      : transition.moves.flatMap((move) => move.to.filter((to) => to !== move.from).map((to) => ({ from: move.from, to })));
  const example: unknown = action.successExample.value;
  const ordered = [...starts].sort((a, b) => lifecycle.states.indexOf(a.from) - lifecycle.states.indexOf(b.from));
  if (!isRecord(example)) return ordered;
  const exampleFirst = ordered.findIndex((start) => start.from === example[previousField] && start.to === example[statusField]);
  if (exampleFirst <= 0) return ordered;
  return [ordered[exampleFirst] as Start, ...ordered.filter((_, index) => index !== exampleFirst)];
}

/** The starts from which an action is accepted but changes nothing, since the status it leads to already holds. */
function holdingStarts(action: Action, lifecycle: Lifecycle): Start[] {
  const transition = action.transition;
  const starts: Start[] =
    transition.kind === 'fixed'
      ? transition.from.filter((from) => from === transition.to).map((from) => ({ from, to: from }))
      : transition.moves.filter((move) => move.to.includes(move.from)).map((move) => ({ from: move.from, to: move.from }));
  return [...starts].sort((a, b) => lifecycle.states.indexOf(a.from) - lifecycle.states.indexOf(b.from));
}

/** The fields an action requires beyond the ones every action requires. */
function ownRequiredFields(action: Action, contract: ExecutableContract): string[] {
  const shared = new Set(contract.model.envelope.sharedFields.filter((field) => field.required).map((field) => field.name));
  return action.fields.filter((field) => field.required && !shared.has(field.name)).map((field) => field.name);
}

/**
 * The example's values of the fields beyond the key, the action and the subscription, with the
 * target of an action whose request chooses it set to the status the plan leads to.
 */
function extraFieldsOf(action: Action, contract: ExecutableContract, to: string): Record<string, unknown> {
  const { credential, selector, subject } = contract.model.envelope;
  const extra = Object.fromEntries(Object.entries(action.requestExample.value).filter(([name]) => ![credential, selector, subject].includes(name)));
  if (action.transition.kind === 'chosen') extra[action.transition.field] = to;
  return extra;
}

/** Picks, among the starts offered, the one whose status the fewest workflows start from so far. */
class StartBalancer {
  private readonly uses = new Map<string, number>();

  pick<T extends { from: string }>(candidates: readonly T[]): T | undefined {
    let best: T | undefined;
    for (const candidate of candidates) {
      if (best === undefined || this.count(candidate.from) < this.count(best.from)) best = candidate;
    }
    if (best !== undefined) this.uses.set(best.from, this.count(best.from) + 1);
    return best;
  }

  private count(status: string): number {
    return this.uses.get(status) ?? 0;
  }
}

function resultStep(stepId: string, description: string, action: Action, contract: ExecutableContract, start: Start, changed: boolean): PlannedStep {
  return {
    stepId,
    description,
    action: { kind: 'named', identifier: action.identifier },
    extraFields: extraFieldsOf(action, contract, start.to),
    expect: { kind: 'result', result: { previousStatus: changed ? start.from : start.to, status: start.to, changed } },
    retriesThrottling: false,
  };
}

function actionWorkflow(action: Action, contract: ExecutableContract, balancer: StartBalancer): PlannedWorkflow {
  const { result, model } = contract;
  const start = balancer.pick(changingStarts(action, model.lifecycle, result.previousStatus, result.status));
  if (start === undefined) return holdingWorkflow(action, contract, balancer);
  return {
    workflowId: action.identifier,
    kind: 'action',
    summary: `${action.identifier}: applied once, then repeated`,
    description:
      `Sends ${action.identifier} to a subscription that is ${start.from} and expects it ${start.to} with \`${result.changed}: true\`; ` +
      `then sends the same request again and expects \`${result.changed}: false\`: a repeated action changes nothing.`,
    startStatus: start.from,
    changesSubscription: true,
    steps: [
      resultStep('apply', `${action.identifier} moves the subscription from ${start.from} to ${start.to}.`, action, contract, start, true),
      resultStep('repeat', `The same request again: ${start.to} already holds, so nothing changes.`, action, contract, start, false),
    ],
  };
}

/**
 * An action the table lets change nothing (it leads to the status it is sent from, as a renewal of an
 * active subscription would): sent twice, both answers say nothing changed, and the subscription can
 * serve other runs.
 */
function holdingWorkflow(action: Action, contract: ExecutableContract, balancer: StartBalancer): PlannedWorkflow {
  const { result, model } = contract;
  const start = balancer.pick(holdingStarts(action, model.lifecycle));
  if (start === undefined) throw new Error(`${action.identifier} is accepted from no status in the lifecycle table, so no workflow can show it.`);
  return {
    workflowId: action.identifier,
    kind: 'action',
    summary: `${action.identifier}: applied twice, changing nothing`,
    description:
      `Sends ${action.identifier} to a subscription that is ${start.from}, which the action leads to, and expects it ${start.to} with ` +
      `\`${result.changed}: false\`; then sends the same request again and expects the same answer.`,
    startStatus: start.from,
    changesSubscription: false,
    steps: [
      resultStep('apply', `${action.identifier} is accepted from ${start.from} and leaves it ${start.to}.`, action, contract, start, false),
      resultStep('repeat', `The same request again: still nothing changes.`, action, contract, start, false),
    ],
  };
}

/** An action that always leads to one status and needs no field beyond the ones every action sends. */
function isPlainFixed(action: Action, contract: ExecutableContract): action is Action & { transition: ActionTransition & { kind: 'fixed' } } {
  return action.transition.kind === 'fixed' && ownRequiredFields(action, contract).length === 0;
}

/**
 * A refusal and what follows it: an action the status refuses, then one of the actions the 409
 * lists, read from the answer. The status is the one the document's own 409 examples show with a
 * non-empty list, else the first status that refuses an action and lists a plain one; the action
 * followed is the one made for that status alone (such as ending a trial), else the first plain one.
 */
function refusalWorkflow(contract: ExecutableContract, balancer: StartBalancer): PlannedWorkflow | undefined {
  const { model, errors } = contract;
  const { lifecycle } = model;
  const exampleStatuses = refusalDetails(model.responses, lifecycle.states).examples.filter((example) => example.actions.length > 0).map((example) => example.status);
  const statuses = [...new Set([...exampleStatuses, ...lifecycle.states])];
  const candidates = statuses.flatMap((status) => {
    const refused = model.actions.find((action) => refusedStates(lifecycle, action.transition).includes(status));
    const listed = actionsThatChange(lifecycle, status);
    const plain = listed.map((identifier) => model.actions.find((action) => action.identifier === identifier)).filter((action): action is Action => action !== undefined && isPlainFixed(action, contract));
    const followed = plain.find((action) => acceptedStates(action.transition).length === 1) ?? plain[0];
    if (refused === undefined || followed === undefined) return [];
    return [{ from: status, refused, followed, position: listed.indexOf(followed.identifier) }];
  });
  const chosen = candidates[0] === undefined ? undefined : balancer.pick([candidates[0]]);
  if (chosen === undefined) return undefined;
  const { from, refused, followed, position } = chosen;
  const transition = followed.transition as ActionTransition & { kind: 'fixed' };
  return {
    workflowId: 'follow_a_refusal',
    kind: 'refusal',
    summary: `A refusal (${conflictStatus}) followed by an action it lists`,
    description:
      `Sends ${refused.identifier} to a subscription that is ${from}, which refuses it with ${conflictStatus}; reads ` +
      `\`${errors.currentStatusMember}\` and \`${errors.allowedActionsMember}\` from the answer, and sends the action the list names ` +
      `(${followed.identifier}, which leads to ${transition.to}) to the same subscription.`,
    startStatus: from,
    changesSubscription: true,
    steps: [
      {
        stepId: 'meet_refusal',
        description: `${from} does not accept ${refused.identifier}: the answer names the status and the actions it accepts.`,
        action: { kind: 'named', identifier: refused.identifier },
        extraFields: extraFieldsOf(refused, contract, from),
        expect: { kind: 'refusal', currentStatus: from, listed: followed.identifier, position },
        retriesThrottling: false,
      },
      {
        stepId: 'follow_the_list',
        description: `Sends the action the refusal listed at position ${position + 1} (${followed.identifier} in the document's order).`,
        action: { kind: 'listed', fromStep: 'meet_refusal' },
        extraFields: {},
        expect: { kind: 'followed', fromStep: 'meet_refusal' },
        retriesThrottling: false,
      },
    ],
  };
}

/**
 * The ways there and back two actions make: one leads from a status to another and the other
 * leads back (pause and resume, cancel and reactivate). Each pair of statuses once, started from
 * the status more actions accept.
 */
function roundTripWorkflows(contract: ExecutableContract, balancer: StartBalancer): PlannedWorkflow[] {
  const plain = contract.model.actions.filter((action) => action.transition.kind === 'fixed');
  const workflows: PlannedWorkflow[] = [];
  // One walk between two statuses, by the first pair of actions that makes it: a later action
  // making the same walk (payment_failed leads where pause does) adds no walk, so the number of
  // walks is bounded by the statuses, not by the square of the actions.
  const walked = new Set<string>();
  plain.forEach((first, index) => {
    for (const second of plain.slice(index + 1)) {
      const there = first.transition as ActionTransition & { kind: 'fixed' };
      const back = second.transition as ActionTransition & { kind: 'fixed' };
      if (there.to === back.to || !back.from.includes(there.to) || !there.from.includes(back.to)) continue;
      const statuses = [there.to, back.to].sort().join('\u0000');
      if (walked.has(statuses)) continue;
      walked.add(statuses);
      const directions = [
        { from: back.to, via: there.to, actions: [first, second] as const },
        { from: there.to, via: back.to, actions: [second, first] as const },
      ];
      // From the status more actions accept (active rather than on-hold): pause then resume.
      const acceptedBy = (status: string): number => contract.model.actions.filter((action) => acceptedStates(action.transition).includes(status)).length;
      const [natural] = [...directions].sort((a, b) => acceptedBy(b.from) - acceptedBy(a.from));
      const direction = natural === undefined ? undefined : balancer.pick([natural]);
      if (direction === undefined) continue;
      const [out, home] = direction.actions;
      workflows.push({
        workflowId: `${out.identifier}_then_${home.identifier}`,
        kind: 'round-trip',
        summary: `${out.identifier}, then ${home.identifier}`,
        description: `Takes a subscription from ${direction.from} to ${direction.via} with ${out.identifier} and back to ${direction.from} with ${home.identifier}.`,
        startStatus: direction.from,
        changesSubscription: true,
        steps: [
          resultStep(`${out.identifier}`, `${out.identifier}: ${direction.from} to ${direction.via}.`, out, contract, { from: direction.from, to: direction.via }, true),
          resultStep(`${home.identifier}`, `${home.identifier}: ${direction.via} back to ${direction.from}.`, home, contract, { from: direction.via, to: direction.from }, true),
        ],
      });
    }
  });
  return workflows;
}

/**
 * A request a throttling host answers with 429 is waited out and sent again. The request is a
 * repetition (the target status already holds, a final one when the lifecycle has one), so the
 * workflow changes nothing, whether the host throttles it or not.
 */
function throttledWorkflow(contract: ExecutableContract): PlannedWorkflow | undefined {
  const { model } = contract;
  const fixed = model.actions.filter((action) => isPlainFixed(action, contract));
  const action = fixed.find((candidate) => model.lifecycle.finalStates.includes((candidate.transition as ActionTransition & { kind: 'fixed' }).to)) ?? fixed[0];
  if (action === undefined) return undefined;
  const target = (action.transition as ActionTransition & { kind: 'fixed' }).to;
  return {
    workflowId: 'wait_out_a_throttled_request',
    kind: 'throttled',
    summary: `A throttled request (${contract.throttled.status}) waited out and sent again`,
    description:
      `Sends ${action.identifier} to a subscription that is already ${target}, so the answer is a success that changes nothing. ` +
      `When the host in front of the site answers ${contract.throttled.status}, the request is sent again after a wait, a bounded ` +
      `number of times: the wait \`retryAfter\` gives, or the host's \`${contract.retryAfterHeader}\` where a tool honours it, as the Arazzo Specification lets it.`,
    startStatus: target,
    changesSubscription: false,
    steps: [{ ...resultStep('send', `${action.identifier} to a subscription already ${target}.`, action, contract, { from: target, to: target }, false), retriesThrottling: true }],
  };
}

/** Every workflow of the lifecycle, in the order the description lists them: one per action first. */
export function planWorkflows(contract: ExecutableContract): PlannedWorkflow[] {
  const balancer = new StartBalancer();
  const actions = contract.model.actions.map((action) => actionWorkflow(action, contract, balancer));
  const refusal = refusalWorkflow(contract, balancer);
  const roundTrips = roundTripWorkflows(contract, balancer);
  const throttled = throttledWorkflow(contract);
  return [...actions, ...(refusal === undefined ? [] : [refusal]), ...roundTrips, ...(throttled === undefined ? [] : [throttled])];
}

/** A subscription a workflow starts from. */
export interface WorkflowSubscription {
  workflowId: string;
  id: number;
  status: string;
}

/**
 * The subscriptions the workflows start from, one per workflow, numbered after one subscription
 * in every status (the sandbox numbers those from 1) and past every subscription an example names,
 * so a sandbox can hold them beside its own without a clash, and a run changes each at most once.
 */
export function workflowSubscriptions(contract: ExecutableContract, workflows: readonly PlannedWorkflow[] = planWorkflows(contract)): WorkflowSubscription[] {
  const { model, result } = contract;
  const named = new Set<number>();
  for (const action of model.actions) {
    for (const value of [action.requestExample.value, ...[action.successExample, ...action.moreSuccessExamples].map((example) => example.value)]) {
      const id = isRecord(value) ? value[result.subject] : undefined;
      if (typeof id === 'number') named.add(id);
    }
  }
  let next = model.lifecycle.states.length + 1;
  return workflows.map((workflow) => {
    while (named.has(next)) next += 1;
    const id = next;
    next += 1;
    return { workflowId: workflow.workflowId, id, status: workflow.startStatus };
  });
}

/** The name of the input that carries a workflow's subscription. */
export function subscriptionInputName(workflowId: string): string {
  return `subscription_for_${workflowId}`;
}
