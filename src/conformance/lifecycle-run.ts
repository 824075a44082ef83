import type { ConformanceCase } from './case-model.ts';
import { lifecycleExpectation, postRequest, validBody } from './case-model.ts';
import type { Exchange } from './client.ts';
import { revealedStatus } from './answer-reading.ts';
import type { Forecast } from './plan.ts';
import type { CaseResult, ConformanceReport } from './results.ts';
import { isUnreached } from './results.ts';
import type { RunState } from './run-state.ts';
import { judge, runCase } from './run-state.ts';
import { learnStatus } from './setup.ts';
import { answerSummary } from './shown-text.ts';

/**
 * A move of the set-up refused though the lifecycle table allows it, judged as the lifecycle case
 * of that move (the same request): a finding like that case's, counted with it.
 */
function refusedMove(state: RunState, id: number, from: string, to: string, exchange: Exchange): CaseResult | undefined {
  const { contract, probe } = state;
  if (probe === undefined) return undefined;
  const moveCase: ConformanceCase = {
    name: `${probe.action.identifier} to ${to} from ${from}, a move of the set-up`,
    group: 'lifecycle',
    action: probe.action.identifier,
    fromStatus: from,
    requestedStatus: to,
    needs: { kind: 'status', status: from },
    request: () => exchange.request,
    expect: (subscriptionId) => lifecycleExpectation(contract, probe.action, from, to, subscriptionId),
  };
  const result = judge(state, moveCase, exchange, id);
  return result.allowedBy === undefined ? undefined : result;
}

/** Moves a subscription along a chain of `change_status` moves; false when a move went wrong. */
export async function move(state: RunState, id: number, path: readonly string[]): Promise<boolean> {
  const { contract, apiKey, known } = state;
  const moveAction = state.probe?.action;
  if (moveAction === undefined) return path.length === 0;
  for (const status of path) {
    const from = known.get(id);
    const exchange = await state.send(postRequest(contract, validBody(contract, moveAction, { apiKey }, id, status)));
    state.setupRequests += 1;
    const now = revealedStatus(contract, exchange.answer);
    known.set(id, now);
    if (now !== status) {
      // A refusal that finds the subscription elsewhere is a change not kept, said below; one that finds it where it was refuses the move.
      const refused = from === undefined || (now !== undefined && now !== from) ? undefined : refusedMove(state, id, from, status, exchange);
      if (refused !== undefined) {
        state.setupFindings.push(refused);
        return false;
      }
      const notKept =
        from !== undefined && now !== undefined && now !== from
          ? `: the last answer left subscription ${id} ${from}, but this one finds it ${now}, so a change answered was not kept (or another client changed it)`
          : '';
      state.fatal.push(`moving subscription ${id} from ${from ?? 'an unknown status'} to ${status} with ${moveAction.identifier}, a move the document allows, got ${answerSummary(exchange, apiKey)}${notKept}`);
      return false;
    }
  }
  return true;
}

/**
 * Runs the cases that need a subscription in a given status, in the planner's order: each on the
 * subscription it picks, after the moves that bring it there. A subscription whose move went wrong
 * is not used again; the cases no subscription can reach are recorded as not reached.
 */
export async function runLifecycle(state: RunState, lifecycle: readonly ConformanceCase[]): Promise<void> {
  const { known, planner } = state;
  const remaining = [...lifecycle];
  const retired = new Set<number>();
  for (;;) {
    const candidates = new Map(state.subscriptions.filter((id) => !retired.has(id)).map((id) => [id, known.get(id)] as const));
    const step = planner.next(remaining, candidates);
    if (step === undefined) break;
    const [chosenCase] = remaining.splice(step.index, 1);
    if (chosenCase === undefined) break;
    if (!(await move(state, step.subscriptionId, step.path))) {
      // A deployment that refuses a documented move: that subscription is not used again.
      retired.add(step.subscriptionId);
      remaining.push(chosenCase);
      if (known.get(step.subscriptionId) === undefined) await learnStatus(state, step.subscriptionId);
      continue;
    }
    await runCase(state, chosenCase, step.subscriptionId);
  }
  for (const testCase of remaining) {
    const status = testCase.needs.kind === 'status' ? testCase.needs.status : '';
    state.results.push({
      case: testCase,
      status: 'skipped',
      problems: [],
      notes: [],
      reason: `no named subscription is ${status} or can be moved there with ${state.probe?.action.identifier ?? 'a move'}, but for one that is the last named subscription in its group of statuses (the suite keeps one there for the next run); name one more that is ${status}`,
    });
  }
}

/**
 * Lifecycle cases not reached beyond those the forecast gave up on before the cases ran follow
 * from a refusal the deployment accepted and that moved a subscription: counted under it, and
 * no reason to name more subscriptions.
 */
export function blameUnreached(state: RunState, forecast: Forecast): void {
  const [changer] = state.changedByRefusal.values();
  if (changer === undefined) return;
  const expected = new Map(forecast.unreachable);
  for (const result of state.results) {
    if (!isUnreached(result) || result.case.needs.kind !== 'status') continue;
    const left = expected.get(result.case.needs.status) ?? 0;
    if (left > 0) expected.set(result.case.needs.status, left - 1);
    else {
      result.knockOnOf = changer;
      result.reason = `not reached: "${changer.case.name}", a request the document refuses, was accepted and changed subscription ${changer.subscriptionId ?? ''}`;
    }
  }
}

/** Moves each subscription back where it was, where the moves allow it, and says where each ended. */
export async function restoreSubscriptions(state: RunState, before: ReadonlyMap<number, string | undefined>, moveBack: boolean): Promise<ConformanceReport['subscriptions']> {
  const subscriptions: ConformanceReport['subscriptions'] = [];
  for (const id of state.subscriptions) {
    const original = before.get(id);
    let current = state.known.get(id);
    if (moveBack && original !== undefined && current !== undefined && current !== original) {
      const path = state.planner.pathBetween(current, original);
      if (path !== undefined && (await move(state, id, path))) current = original;
    }
    subscriptions.push({ id, ...(original === undefined ? {} : { before: original }), ...(current === undefined ? {} : { after: current }), restored: current === original });
  }
  return subscriptions;
}
