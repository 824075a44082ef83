import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { CaseRequest, ConformanceCase } from './case-model.ts';
import { postRequest, probeTarget, validBody } from './case-model.ts';
import { allowedRefusal } from './allowed-refusal.ts';
import { actedOn, keyEchoed, revealedStatus, statusFound } from './answer-reading.ts';
import { judgeAnswer, reviewAnswer } from './check-answer.ts';
import type { Exchange } from './client.ts';
import { describeExpectation } from './expectation.ts';
import type { Planner } from './plan.ts';
import type { CaseResult } from './results.ts';

/**
 * What one run knows as it goes, shared by its stages (placing the subscriptions, the cases, the
 * lifecycle, the moves back): where each subscription stands, what the answers so far left
 * unclear, and what it found.
 */
export interface RunState {
  contract: ExecutableContract;
  apiKey: string;
  baseUrl: string;
  /** The deployment imitates its host on request (the sandbox does). */
  imitatesHost: boolean;
  maxRetryAfterSeconds?: number;
  subscriptions: readonly number[];
  /** The request that reads a status without changing it, and the action it uses for moves. */
  probe: ReturnType<typeof probeTarget>;
  planner: Planner;
  send(request: CaseRequest, acceptThrottle?: boolean): Promise<Exchange>;
  log(line: string): void;
  /** Where each subscription stands, as far as the answers have told. */
  known: Map<number, string | undefined>;
  /** A failed case whose answer told no status, by subscription: whether it changed the subscription shows in the next answer. */
  unclear: Map<number, { result: CaseResult; assumed: string | undefined }>;
  /** A request the document refuses that the deployment accepted and that changed the subscription, by subscription. */
  changedByRefusal: Map<number, CaseResult>;
  results: CaseResult[];
  /** Answers off the document that stopped or hampered the placing of subscriptions. */
  fatal: string[];
  /** Moves of the set-up refused though the lifecycle table allows them. */
  setupFindings: CaseResult[];
  /** Requests that only placed a subscription: read its status, or moved it. */
  setupRequests: number;
}

/** The request that reads where a subscription stands without moving it. */
export function probeRequest(state: RunState, id: number): CaseRequest | undefined {
  const { probe, contract, apiKey } = state;
  return probe === undefined ? undefined : postRequest(contract, validBody(contract, probe.action, { apiKey }, id, probe.status));
}

/** Judges one case's exchange: the expectation and the document, the key never sent back, a host's case only where it applies. */
export function judge(state: RunState, testCase: ConformanceCase, exchange: Exchange, subscriptionId?: number): CaseResult {
  const { contract, apiKey } = state;
  const expected = testCase.expect(subscriptionId ?? 0);
  const base = { case: testCase, exchange, expected, expectedText: describeExpectation(contract, expected), ...(subscriptionId === undefined ? {} : { subscriptionId }) };
  if (exchange.answer === undefined) return { ...base, status: 'failed', problems: [exchange.failure ?? 'no answer'], following: [], notes: [] };
  if (testCase.hostImitation === true && !state.imitatesHost && exchange.answer.status !== expected.status) {
    // Not applicable: what the answer shows of the deployment, the cases that apply to it show too.
    return { ...base, status: 'skipped', problems: [], following: [], notes: reviewAnswer(contract, exchange.answer).notes, reason: 'the deployment does not imitate a throttling host' };
  }
  const { problems, following, notes } = judgeAnswer(contract, exchange.answer, expected);
  const refused = allowedRefusal(contract, testCase, expected, exchange.request, exchange.answer);
  if (refused !== undefined) {
    // One fault: what else differs in the refusal (its schema, its members) follows from it; the status is in the finding.
    const differences = [...problems, ...following].filter((problem) => !problem.startsWith('expected status '));
    return { ...base, status: 'failed', problems: [refused.finding], following: differences, notes, allowedBy: refused.allowedBy };
  }
  const echoed = keyEchoed(exchange.answer, apiKey) ? [`the answer sends the ${contract.model.envelope.credential} back, which the document says the service never does`] : [];
  return { ...base, status: problems.length + echoed.length === 0 ? 'passed' : 'failed', problems: [...problems, ...echoed], following, notes };
}

/**
 * Sends one case and judges it, and keeps track of the subscription: a failed answer that told no
 * status is blamed once the next answer shows whether it changed the subscription, and a refusal
 * the deployment accepted and that moved the subscription takes the blame for what follows on it.
 */
export async function runCase(state: RunState, testCase: ConformanceCase, subscriptionId?: number): Promise<CaseResult> {
  const { contract, known, unclear, changedByRefusal } = state;
  const exchange = await state.send(testCase.request(subscriptionId ?? 0), testCase.hostImitation === true);
  const assumed = subscriptionId === undefined ? undefined : known.get(subscriptionId);
  if (subscriptionId !== undefined) known.set(subscriptionId, revealedStatus(contract, exchange.answer) ?? known.get(subscriptionId));
  const result = judge(state, testCase, exchange, subscriptionId);
  if (subscriptionId !== undefined) {
    const earlier = unclear.get(subscriptionId);
    unclear.delete(subscriptionId);
    const found = statusFound(contract, exchange.answer);
    if (earlier !== undefined && result.status === 'failed' && found !== undefined && found !== assumed && earlier.result.problems.length > 0) {
      // The error answer's request changed the subscription after all: one fault, counted under the error's finding.
      const blamed = `${earlier.result.problems[0]}, yet the request changed the subscription: the next request on it found it in another status`;
      earlier.result.problems[0] = blamed;
      result.following = [...(result.following ?? []), ...result.problems];
      result.problems = [blamed];
    } else if (result.status === 'failed' && exchange.answer !== undefined && revealedStatus(contract, exchange.answer) === undefined) {
      unclear.set(subscriptionId, { result, assumed });
    }
    const changer = changedByRefusal.get(subscriptionId);
    if (testCase.group === 'request' && result.status === 'failed' && actedOn(contract, exchange.answer)) {
      if (changer !== undefined) {
        // Answered for the status an earlier accepted refusal left the subscription in: that one fault.
        result.problems = [changer.problems[0] ?? ''];
        result.following = [];
        result.knockOnOf = changer;
      } else if (assumed !== undefined && known.get(subscriptionId) !== assumed) {
        changedByRefusal.set(subscriptionId, result);
      }
    }
  }
  state.log(`${result.status === 'passed' ? '✔' : result.status === 'failed' ? '✖' : '–'} ${testCase.name}${subscriptionId === undefined ? '' : ` (subscription ${subscriptionId})`}`);
  state.results.push(result);
  return result;
}
