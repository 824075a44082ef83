import { isRecord } from '../lib/document.ts';
import type { ExecutableContract } from '../lib/executable-contract.ts';
import type { ChosenTransition } from '../lib/lifecycle.ts';
import { reachableByMoves } from '../lib/lifecycle.ts';
import { errorDataField } from '../lib/responses.ts';
import type { CaseRequest, ConformanceCase, Expectation } from './cases.ts';
import { generateCases, postRequest, probeTarget, validBody } from './cases.ts';
import type { ReceivedAnswer } from './check-answer.ts';
import { checkAgainstDocument, checkExpectation } from './check-answer.ts';
import type { Client, Exchange } from './client.ts';
import { courtesyPaceMs, createClient, isLoopback } from './client.ts';

export interface ConformanceOptions {
  contract: ExecutableContract;
  /** The site's base URL (the specification's `{base_url}`): origin, plus the path of a subdirectory install. */
  baseUrl: string;
  apiKey: string;
  /** The subscriptions the suite may change; no other is touched. */
  subscriptions: readonly number[];
  /**
   * The deployment imitates its host on request (the sandbox does): its answer to a throttling
   * header must then be the document's 429. A real install ignores that header.
   */
  imitatesHost?: boolean;
  throttleHeader: string;
  /** Least time between two requests; by default none on loopback, about one second elsewhere. */
  paceMs?: number;
  /** An ID no subscription of the site has. */
  unknownSubscriptionId?: number;
  log?: (line: string) => void;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  case: ConformanceCase;
  status: CaseStatus;
  subscriptionId?: number;
  exchange?: Exchange;
  expected?: Expectation;
  /** What did not match, each in a sentence. */
  problems: string[];
  /** Why a skipped case was not run. */
  reason?: string;
}

export interface ConformanceReport {
  baseUrl: string;
  results: CaseResult[];
  /** Requests that only moved a subscription to the status a case needed, or back at the end. */
  setupRequests: number;
  requestCount: number;
  /** Where each named subscription stood before and after the run. */
  subscriptions: { id: number; before?: string; after?: string; restored: boolean }[];
  /** Problems that stopped the run before the cases, such as a refused key or an unknown subscription. */
  fatal: string[];
  durationMs: number;
}

/**
 * The status an answer reveals: the status after a success, or the current status a refusal
 * names. Read whatever the HTTP status, so that a deployment answering a refusal with the wrong
 * status still lets the suite place its subscriptions, and the cases report the wrong status.
 */
function revealedStatus(contract: ExecutableContract, answer: ReceivedAnswer | undefined): string | undefined {
  if (answer === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  if (!isRecord(body)) return undefined;
  const states = contract.model.lifecycle.states;
  const data = body[errorDataField];
  const current = isRecord(data) ? data[contract.errors.currentStatusMember] : undefined;
  if (typeof current === 'string' && states.includes(current)) return current;
  const after = body[contract.result.status];
  return typeof after === 'string' && states.includes(after) && body[contract.result.successFlag] === true ? after : undefined;
}

/** Shows a request as the report prints it, with the key replaced by the placeholder. */
export function describeRequest(exchange: Pick<Exchange, 'url' | 'request'>, apiKey: string): string {
  const { request } = exchange;
  const extraHeaders = Object.entries(request.headers)
    .filter(([name]) => name.toLowerCase() !== 'content-type')
    .map(([name, value]) => ` [${name}: ${value}]`)
    .join('');
  let body = '';
  if (typeof request.body === 'string') body = ` ${request.body.split(apiKey).join('<API_KEY>')}`;
  else if (request.body !== undefined) body = ` <${request.body.length} bytes: ${Buffer.from(request.body).toString('hex')}>`;
  if (body.length > 300) body = `${body.slice(0, 300)}…`;
  return `${request.method} ${exchange.url}${extraHeaders}${body}`;
}

/** Runs every case the document gives against one deployment; see `ConformanceOptions`. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const { contract, apiKey } = options;
  const log = options.log ?? (() => {});
  const client: Client = createClient({
    baseUrl: options.baseUrl,
    paceMs: options.paceMs ?? (isLoopback(options.baseUrl) ? 0 : courtesyPaceMs),
    throttledStatus: Number(contract.throttled.status),
    log,
  });
  const cases = generateCases(contract, {
    apiKey,
    unknownSubscriptionId: options.unknownSubscriptionId ?? 2_147_483_647,
    throttleHeader: options.throttleHeader,
  });
  const results: CaseResult[] = [];
  const fatal: string[] = [];
  let setupRequests = 0;
  const probe = probeTarget(contract);
  const chosen: ChosenTransition | undefined = probe?.transition;
  const moveAction = probe?.action;

  const send = (request: CaseRequest, acceptThrottle = false) => client.send(request, { acceptThrottle });
  const post = (body: Record<string, unknown>): CaseRequest => postRequest(contract, body);

  /** Where each subscription stands, as far as the answers have told. */
  const known = new Map<number, string | undefined>();

  function judge(testCase: ConformanceCase, exchange: Exchange, subscriptionId?: number): CaseResult {
    const expected = testCase.expect(subscriptionId ?? 0);
    const base = { case: testCase, exchange, expected, ...(subscriptionId === undefined ? {} : { subscriptionId }) };
    if (exchange.answer === undefined) return { ...base, status: 'failed', problems: [exchange.failure ?? 'no answer'] };
    const onDocument = checkAgainstDocument(contract, exchange.answer);
    if (testCase.hostImitation === true && options.imitatesHost !== true && exchange.answer.status !== expected.status) {
      return onDocument.length === 0
        ? { ...base, status: 'skipped', problems: [], reason: 'the deployment does not imitate a throttling host' }
        : { ...base, status: 'failed', problems: onDocument };
    }
    const problems = [...checkExpectation(contract, exchange.answer, expected), ...onDocument];
    return { ...base, status: problems.length === 0 ? 'passed' : 'failed', problems };
  }

  async function run(testCase: ConformanceCase, subscriptionId?: number): Promise<CaseResult> {
    const exchange = await send(testCase.request(subscriptionId ?? 0), testCase.hostImitation === true);
    if (subscriptionId !== undefined) known.set(subscriptionId, revealedStatus(contract, exchange.answer) ?? known.get(subscriptionId));
    const result = judge(testCase, exchange, subscriptionId);
    log(`${result.status === 'passed' ? '✔' : result.status === 'failed' ? '✖' : '–'} ${testCase.name}${subscriptionId === undefined ? '' : ` (subscription ${subscriptionId})`}`);
    results.push(result);
    return result;
  }

  async function learnStatus(id: number): Promise<string | undefined> {
    if (probe === undefined) return undefined;
    const exchange = await send(post(validBody(contract, probe.action, { apiKey }, id, probe.status)));
    setupRequests += 1;
    const status = revealedStatus(contract, exchange.answer);
    known.set(id, status);
    if (status === undefined) {
      const got = exchange.answer === undefined ? exchange.failure : `${exchange.answer.status} ${exchange.answer.body.slice(0, 200)}`;
      fatal.push(`subscription ${id}: the request that only reads its status (${moveAction?.identifier} to ${probe.status}) got ${got}`);
    }
    return status;
  }

  /** Moves a subscription along a chain of `change_status` moves; false when a move went wrong. */
  async function move(id: number, path: readonly string[]): Promise<boolean> {
    if (moveAction === undefined) return path.length === 0;
    for (const status of path) {
      const exchange = await send(post(validBody(contract, moveAction, { apiKey }, id, status)));
      setupRequests += 1;
      const now = revealedStatus(contract, exchange.answer);
      known.set(id, now);
      if (now !== status) {
        log(`  moving subscription ${id} to ${status} failed: got ${exchange.answer?.status ?? exchange.failure}`);
        return false;
      }
    }
    return true;
  }

  // Where each named subscription stands, read without changing it.
  const before = new Map<number, string | undefined>();
  for (const id of options.subscriptions) before.set(id, await learnStatus(id));
  if (probe === undefined) fatal.push('the document has no request that reads a status without changing it, so the suite cannot place the subscriptions');

  const usable = () => options.subscriptions.filter((id) => known.get(id) !== undefined);
  if (fatal.length === 0) {
    // Requests refused before any subscription is looked at.
    for (const testCase of cases.filter((candidate) => candidate.needs.kind === 'none')) await run(testCase);
    // Requests refused before the subscription's status matters.
    for (const testCase of cases.filter((candidate) => candidate.needs.kind === 'any')) {
      const [id] = usable();
      if (id === undefined) results.push({ case: testCase, status: 'skipped', problems: [], reason: 'no named subscription is left in a known status' });
      else await run(testCase, id);
    }
    await runLifecycle(cases.filter((candidate) => candidate.needs.kind === 'status'));
  } else {
    for (const testCase of cases) results.push({ case: testCase, status: 'skipped', problems: [], reason: 'the run stopped before the cases' });
  }

  async function runLifecycle(lifecycle: ConformanceCase[]): Promise<void> {
    const reachCache = new Map<string, Map<string, string[]>>();
    const reach = (status: string): Map<string, string[]> => {
      let paths = reachCache.get(status);
      if (paths === undefined) {
        paths = chosen === undefined ? new Map([[status, []]]) : reachableByMoves(chosen, status);
        reachCache.set(status, paths);
      }
      return paths;
    };
    const remaining = [...lifecycle];
    while (remaining.length > 0) {
      // Cheapest first: no moves before moves, a case that changes nothing before one that does,
      // and among changes the one that leaves the subscription the most places to go.
      let best: { id: number; index: number; path: string[]; score: number[] } | undefined;
      for (const id of usable()) {
        const paths = reach(known.get(id) ?? '');
        remaining.forEach((testCase, index) => {
          const needed = testCase.needs.kind === 'status' ? testCase.needs.status : '';
          const path = paths.get(needed);
          if (path === undefined) return;
          const after = testCase.outcome === 'changed' ? targetOf(testCase) : needed;
          const score = [path.length, testCase.outcome === 'changed' ? 1 : 0, -reach(after).size];
          if (best === undefined || compareScores(score, best.score) < 0) best = { id, index, path, score };
        });
      }
      if (best === undefined) break;
      const chosenCase = remaining.splice(best.index, 1)[0];
      if (chosenCase === undefined) break;
      if (!(await move(best.id, best.path))) {
        remaining.push(chosenCase);
        const id = best.id;
        if (known.get(id) === undefined) await learnStatus(id);
        continue;
      }
      await run(chosenCase, best.id);
    }
    for (const testCase of remaining) {
      const status = testCase.needs.kind === 'status' ? testCase.needs.status : '';
      results.push({
        case: testCase,
        status: 'skipped',
        problems: [],
        reason: `no named subscription is ${status} or can be moved there with ${moveAction?.identifier ?? 'a move'}; name one more that is ${status}`,
      });
    }
  }

  function targetOf(testCase: ConformanceCase): string {
    const transition = contract.action(testCase.action ?? '')?.transition;
    return transition?.kind === 'fixed' ? transition.to : (testCase.requestedStatus ?? '');
  }

  // Back where they were, where the moves allow it.
  const subscriptions: ConformanceReport['subscriptions'] = [];
  for (const id of options.subscriptions) {
    const original = before.get(id);
    let current = known.get(id);
    if (original !== undefined && current !== undefined && current !== original && chosen !== undefined) {
      const path = reachableByMoves(chosen, current).get(original);
      if (path !== undefined && (await move(id, path))) current = original;
    }
    subscriptions.push({ id, ...(original === undefined ? {} : { before: original }), ...(current === undefined ? {} : { after: current }), restored: current === original });
  }

  return {
    baseUrl: options.baseUrl,
    results,
    setupRequests,
    requestCount: client.requestCount,
    subscriptions,
    fatal,
    durationMs: Date.now() - started,
  };
}

function compareScores(left: number[], right: number[]): number {
  for (let index = 0; index < left.length; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
