import { isRecord } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { ChosenTransition } from '../lib/contract/lifecycle.ts';
import { errorDataField } from '../lib/contract/responses.ts';
import type { CaseRequest, ConformanceCase, Expectation } from './cases.ts';
import { generateCases, postRequest, probeTarget, validBody } from './cases.ts';
import type { ReceivedAnswer } from './check-answer.ts';
import { judgeAnswer, reviewAnswer } from './check-answer.ts';
import type { Client, Exchange } from './client.ts';
import { describeExpectation } from './expectation.ts';
import { courtesyPaceMs, createClient, defaultMaxRetryAfterSeconds, isLoopback, joinUrl } from './client.ts';
import type { Forecast } from './plan.ts';
import { createPlanner, forecastRun } from './plan.ts';
import { connectionAdvice, hostRefusal } from './setup-messages.ts';
import { answerSummary } from './shown-text.ts';

export { describeRequest } from './shown-text.ts';
export { forecastLine } from './setup-messages.ts';

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
  /** The longest `Retry-After` waited out; a host asking for more ends the request with its 429. */
  maxRetryAfterSeconds?: number;
  log?: (line: string) => void;
  /** Called with the forecast once the subscriptions are placed, before the first case. */
  onForecast?: (forecast: Forecast) => void;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  case: ConformanceCase;
  status: CaseStatus;
  subscriptionId?: number;
  exchange?: Exchange;
  expected?: Expectation;
  /** The expectation as the report prints it, in the wire's names. */
  expectedText?: string;
  /** What did not match, each in a sentence: each fault once. */
  problems: string[];
  /** Mismatches that only follow from those faults (the schema of a status answered instead): counted, not listed. */
  following?: string[];
  /** Members the document does not name: reported, never a failure. */
  notes: string[];
  /** Why a skipped case was not run. */
  reason?: string;
  /**
   * The refusal case the deployment accepted, which changed this case's subscription: this case was
   * answered for the status that left it in, or not reached for it. Counted under that finding.
   */
  knockOnOf?: CaseResult;
}

/** What stopped a run before a single case was judged: the set-up, not the deployment's answers. */
export type SetupFailureKind = 'cannot-connect' | 'host-refused' | 'not-wordpress' | 'key-refused' | 'unknown-subscription';

export interface SetupFailure {
  kind: SetupFailureKind;
  /** One paragraph: what happened, and what to do. */
  message: string;
}

export interface ConformanceReport {
  baseUrl: string;
  results: CaseResult[];
  /** Requests that only moved a subscription to the status a case needed, or back at the end. */
  setupRequests: number;
  requestCount: number;
  /** Where each named subscription stood before and after the run. */
  subscriptions: { id: number; before?: string; after?: string; restored: boolean }[];
  /** What stopped the run before the cases, when the set-up was wrong. */
  setup?: SetupFailure;
  /** Answers off the document that stopped or hampered the placing of subscriptions: mismatches. */
  fatal: string[];
  /** What the run needs and could reach, forecast before it ran. */
  forecast?: Forecast;
  durationMs: number;
}

/** A case the run did not reach, as opposed to the throttling case a real host need not imitate. */
export function isUnreached(result: CaseResult): boolean {
  return result.status === 'skipped' && result.case.hostImitation !== true;
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

/** The status an answer says the subscription had when the request came: a success's previous status, a refusal's current one. */
function statusFound(contract: ExecutableContract, answer: ReceivedAnswer | undefined): string | undefined {
  const current = revealedStatus(contract, answer);
  if (current === undefined || answer === undefined) return undefined;
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  const before = body[contract.result.previousStatus];
  return typeof before === 'string' ? before : current;
}

/**
 * The key in an answer's body or headers: the document's `writeOnly` key is never sent back. A key
 * too short to be told from ordinary text is not looked for.
 */
function keyEchoed(answer: ReceivedAnswer, apiKey: string): boolean {
  if (apiKey.length < 8) return false;
  return answer.body.includes(apiKey) || Object.values(answer.headers).some((value) => value.includes(apiKey));
}

/** Why a refusal does not tell the status: the member that should say it, missing or not a status of the document. */
function unreadableStatus(contract: ExecutableContract, answer: ReceivedAnswer): string {
  const { transitionNotAllowed, currentStatusMember } = contract.errors;
  if (answer.status !== transitionNotAllowed.status || parsedCode(answer) !== transitionNotAllowed.code) return '';
  const body: unknown = JSON.parse(answer.body);
  const data = isRecord(body) ? body[errorDataField] : undefined;
  const current = isRecord(data) ? data[currentStatusMember] : undefined;
  const member = `\`${errorDataField}.${currentStatusMember}\``;
  return current === undefined ? `: its status cannot be read: ${member} is missing` : `: its status cannot be read: ${member} is ${JSON.stringify(current)}, not a status of the document`;
}

function parsedCode(answer: ReceivedAnswer | undefined): string | undefined {
  if (answer === undefined) return undefined;
  try {
    const body: unknown = JSON.parse(answer.body);
    return isRecord(body) && typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

function isJson(answer: ReceivedAnswer): boolean {
  try {
    JSON.parse(answer.body);
    return true;
  } catch {
    return false;
  }
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
    ...(options.maxRetryAfterSeconds === undefined ? {} : { maxRetryAfterSeconds: options.maxRetryAfterSeconds }),
    log,
  });
  const cases = generateCases(contract, {
    apiKey,
    unknownSubscriptionId: options.unknownSubscriptionId ?? 2_147_483_647,
    throttleHeader: options.throttleHeader,
  });
  const results: CaseResult[] = [];
  const fatal: string[] = [];
  let setup: SetupFailure | undefined;
  let forecast: Forecast | undefined;
  let setupRequests = 0;
  const probe = probeTarget(contract);
  const chosen: ChosenTransition | undefined = probe?.transition;
  const moveAction = probe?.action;
  const planner = createPlanner(contract, chosen);
  const { errors } = contract;

  const send = (request: CaseRequest, acceptThrottle = false) => client.send(request, { acceptThrottle });
  const post = (body: Record<string, unknown>): CaseRequest => postRequest(contract, body);

  /** Where each subscription stands, as far as the answers have told. */
  const known = new Map<number, string | undefined>();

  function judge(testCase: ConformanceCase, exchange: Exchange, subscriptionId?: number): CaseResult {
    const expected = testCase.expect(subscriptionId ?? 0);
    const base = { case: testCase, exchange, expected, expectedText: describeExpectation(contract, expected), ...(subscriptionId === undefined ? {} : { subscriptionId }) };
    if (exchange.answer === undefined) return { ...base, status: 'failed', problems: [exchange.failure ?? 'no answer'], following: [], notes: [] };
    if (testCase.hostImitation === true && options.imitatesHost !== true && exchange.answer.status !== expected.status) {
      // Not applicable: what the answer shows of the deployment, the cases that apply to it show too.
      return { ...base, status: 'skipped', problems: [], following: [], notes: reviewAnswer(contract, exchange.answer).notes, reason: 'the deployment does not imitate a throttling host' };
    }
    const { problems, following, notes } = judgeAnswer(contract, exchange.answer, expected);
    const echoed = keyEchoed(exchange.answer, apiKey) ? [`the answer sends the ${contract.model.envelope.credential} back, which the document says the service never does`] : [];
    return { ...base, status: problems.length + echoed.length === 0 ? 'passed' : 'failed', problems: [...problems, ...echoed], following, notes };
  }

  /** A failed case whose answer told no status, by subscription: whether it changed the subscription shows in the next answer. */
  const unclear = new Map<number, { result: CaseResult; assumed: string | undefined }>();
  /** A request the document refuses that the deployment accepted and that changed the subscription, by subscription. */
  const changedByRefusal = new Map<number, CaseResult>();
  /** The deployment went past the checks of the request to the subscription: a success or the lifecycle's refusal. */
  const actedOn = (answer: ReceivedAnswer | undefined) =>
    answer !== undefined && (revealedStatus(contract, answer) !== undefined || (answer.status === errors.transitionNotAllowed.status && parsedCode(answer) === errors.transitionNotAllowed.code));

  async function run(testCase: ConformanceCase, subscriptionId?: number): Promise<CaseResult> {
    const exchange = await send(testCase.request(subscriptionId ?? 0), testCase.hostImitation === true);
    const assumed = subscriptionId === undefined ? undefined : known.get(subscriptionId);
    if (subscriptionId !== undefined) known.set(subscriptionId, revealedStatus(contract, exchange.answer) ?? known.get(subscriptionId));
    const result = judge(testCase, exchange, subscriptionId);
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
      if (testCase.group === 'request' && result.status === 'failed' && actedOn(exchange.answer)) {
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
    log(`${result.status === 'passed' ? '✔' : result.status === 'failed' ? '✖' : '–'} ${testCase.name}${subscriptionId === undefined ? '' : ` (subscription ${subscriptionId})`}`);
    results.push(result);
    return result;
  }

  const probeRequest = (id: number): CaseRequest | undefined =>
    probe === undefined ? undefined : post(validBody(contract, probe.action, { apiKey }, id, probe.status));

  async function learnStatus(id: number): Promise<string | undefined> {
    const request = probeRequest(id);
    if (request === undefined) return undefined;
    const exchange = await send(request);
    setupRequests += 1;
    const status = revealedStatus(contract, exchange.answer);
    known.set(id, status);
    return status;
  }

  /** Moves a subscription along a chain of `change_status` moves; false when a move went wrong. */
  async function move(id: number, path: readonly string[]): Promise<boolean> {
    if (moveAction === undefined) return path.length === 0;
    for (const status of path) {
      const from = known.get(id);
      const exchange = await send(post(validBody(contract, moveAction, { apiKey }, id, status)));
      setupRequests += 1;
      const now = revealedStatus(contract, exchange.answer);
      known.set(id, now);
      if (now !== status) {
        const notKept =
          from !== undefined && now !== undefined && now !== from
            ? `: the last answer left subscription ${id} ${from}, but this one finds it ${now}, so a change answered was not kept (or another client changed it)`
            : '';
        fatal.push(`moving subscription ${id} from ${from ?? 'an unknown status'} to ${status} with ${moveAction.identifier}, a move the document allows, got ${answerSummary(exchange, apiKey)}${notKept}`);
        return false;
      }
    }
    return true;
  }

  /**
   * Reads where each named subscription stands, with the request that changes none, and tells a
   * set-up that cannot work (no connection, no WordPress, a refused key, an unknown subscription)
   * from a deployment that answers off the document.
   */
  async function placeSubscriptions(): Promise<SetupFailure | undefined> {
    const unknown: number[] = [];
    for (const [index, id] of options.subscriptions.entries()) {
      const request = probeRequest(id);
      if (request === undefined) {
        fatal.push('the document has no request that reads a status without changing it, so the suite cannot place the subscriptions');
        return undefined;
      }
      const exchange = await send(request);
      setupRequests += 1;
      const status = revealedStatus(contract, exchange.answer);
      known.set(id, status);
      if (status !== undefined) continue;
      const { answer } = exchange;
      if (answer === undefined && exchange.unreadableStatus !== undefined) {
        // An answer came: the host is reached, but what answers is not WordPress's endpoint.
        return {
          kind: 'not-wordpress',
          message: `${exchange.url} answered ${exchange.unreadableStatus}, but not as WordPress's REST API does: ${exchange.failure ?? 'the answer could not be read'}. Check that --base-url names the WordPress site and that the plugin answers there. No case was run.`,
        };
      }
      if (answer === undefined) {
        const host = new URL(options.baseUrl).host;
        return {
          kind: 'cannot-connect',
          message: `Cannot connect to ${host}: ${exchange.failure ?? 'no answer'}. ${connectionAdvice[exchange.failureKind ?? 'connection failed']} No case was run.`,
        };
      }
      const code = parsedCode(answer);
      const refusal = index === 0 && !isJson(answer) ? hostRefusal(exchange, Number(contract.throttled.status), options.maxRetryAfterSeconds ?? defaultMaxRetryAfterSeconds, apiKey) : undefined;
      if (refusal !== undefined) return { kind: 'host-refused', message: refusal };
      if (index === 0 && (!isJson(answer) || code === errors.noRoute.code)) {
        return { kind: 'not-wordpress', message: await notWordPressMessage(exchange) };
      }
      if (answer.status === errors.invalidKey.status && code === errors.invalidKey.code) {
        return {
          kind: 'key-refused',
          message: `The site refused the API key: a request that is valid in every field (${moveAction?.identifier ?? 'the probe'} for subscription ${id}) was answered ${answer.status} ${code}. Check --api-key against the key in the plugin's settings on this site (it changes when it is regenerated), and that --base-url names the site the key belongs to. No case was run.`,
        };
      }
      if (answer.status === errors.subscriptionNotFound.status && code === errors.subscriptionNotFound.code) {
        unknown.push(id);
        continue;
      }
      fatal.push(`subscription ${id}: the request that only reads its status (${moveAction?.identifier} to ${probe?.status}) got ${answerSummary(exchange, apiKey)}${unreadableStatus(contract, answer)}`);
    }
    if (unknown.length > 0) {
      const list = unknown.join(', ');
      return {
        kind: 'unknown-subscription',
        message: `The site has no subscription ${list}: it answered ${errors.subscriptionNotFound.status} ${errors.subscriptionNotFound.code}${unknown.length < options.subscriptions.length ? ' (the other named subscriptions exist)' : ''}. Name with --subscription the IDs of test subscriptions as the site's administration shows them. No case was run.`,
      };
    }
    return undefined;
  }

  async function notWordPressMessage(exchange: Exchange): Promise<string> {
    const restRoot = `/${contract.model.endpoint.urlPath.split('/')[1] ?? ''}/`;
    const index = await send({ method: 'GET', path: restRoot, headers: {} });
    setupRequests += 1;
    const restApi = index.answer !== undefined && index.answer.status === 200 && isJson(index.answer);
    const got = answerSummary(exchange, apiKey);
    return restApi
      ? `The site has a WordPress REST API at ${joinUrl(options.baseUrl, restRoot)}, but not the endpoint: ${exchange.url} answered ${got}. Activate the plugin on this site, or, if WordPress lives in a subdirectory, include it in --base-url. No case was run.`
      : `${options.baseUrl} does not answer as a WordPress REST API: ${exchange.url} answered ${got}, and ${joinUrl(options.baseUrl, restRoot)} gave no JSON index (${answerSummary(index, apiKey)}). Check --base-url: it is the site's address, with the subdirectory WordPress is installed in, if any; a site without pretty permalinks is not supported by the suite. No case was run.`;
  }

  const before = new Map<number, string | undefined>();
  setup = await placeSubscriptions();
  for (const id of options.subscriptions) before.set(id, known.get(id));

  const usable = () => options.subscriptions.filter((id) => known.get(id) !== undefined);
  if (setup === undefined && fatal.length === 0) {
    const named = new Map(options.subscriptions.map((id) => [id, known.get(id)] as const));
    forecast = forecastRun(planner, cases, named);
    options.onForecast?.(forecast);
    // Requests refused before any subscription is looked at.
    for (const testCase of cases.filter((candidate) => candidate.needs.kind === 'none')) await run(testCase);
    // Requests refused before the subscription's status matters.
    for (const testCase of cases.filter((candidate) => candidate.needs.kind === 'any')) {
      const [id] = usable();
      if (id === undefined) results.push({ case: testCase, status: 'skipped', problems: [], notes: [], reason: 'no named subscription is left in a known status' });
      else await run(testCase, id);
    }
    await runLifecycle(cases.filter((candidate) => candidate.needs.kind === 'status'));
    blameUnreached();
  } else {
    const reason = setup === undefined ? 'the run stopped before the cases' : `the run stopped before the cases: ${setup.kind}`;
    for (const testCase of cases) results.push({ case: testCase, status: 'skipped', problems: [], notes: [], reason });
  }

  /**
   * Lifecycle cases not reached beyond those the forecast gave up on before the cases ran follow
   * from a refusal the deployment accepted and that moved a subscription: counted under it, and
   * no reason to name more subscriptions.
   */
  function blameUnreached(): void {
    const [changer] = changedByRefusal.values();
    if (changer === undefined || forecast === undefined) return;
    const expected = new Map(forecast.unreachable);
    for (const result of results) {
      if (!isUnreached(result) || result.case.needs.kind !== 'status') continue;
      const left = expected.get(result.case.needs.status) ?? 0;
      if (left > 0) expected.set(result.case.needs.status, left - 1);
      else {
        result.knockOnOf = changer;
        result.reason = `not reached: "${changer.case.name}", a request the document refuses, was accepted and changed subscription ${changer.subscriptionId ?? ''}`;
      }
    }
  }

  async function runLifecycle(lifecycle: ConformanceCase[]): Promise<void> {
    const remaining = [...lifecycle];
    const retired = new Set<number>();
    for (;;) {
      const candidates = new Map(options.subscriptions.filter((id) => !retired.has(id)).map((id) => [id, known.get(id)] as const));
      const step = planner.next(remaining, candidates);
      if (step === undefined) break;
      const [chosenCase] = remaining.splice(step.index, 1);
      if (chosenCase === undefined) break;
      if (!(await move(step.subscriptionId, step.path))) {
        // A deployment that refuses a documented move: that subscription is not used again.
        retired.add(step.subscriptionId);
        remaining.push(chosenCase);
        if (known.get(step.subscriptionId) === undefined) await learnStatus(step.subscriptionId);
        continue;
      }
      await run(chosenCase, step.subscriptionId);
    }
    for (const testCase of remaining) {
      const status = testCase.needs.kind === 'status' ? testCase.needs.status : '';
      results.push({
        case: testCase,
        status: 'skipped',
        problems: [],
        notes: [],
        reason: `no named subscription is ${status} or can be moved there with ${moveAction?.identifier ?? 'a move'}, but for one that is the last named subscription in its group of statuses (the suite keeps one there for the next run); name one more that is ${status}`,
      });
    }
  }

  // Back where they were, where the moves allow it.
  const subscriptions: ConformanceReport['subscriptions'] = [];
  for (const id of options.subscriptions) {
    const original = before.get(id);
    let current = known.get(id);
    if (setup === undefined && original !== undefined && current !== undefined && current !== original) {
      const path = planner.pathBetween(current, original);
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
    ...(setup === undefined ? {} : { setup }),
    fatal,
    ...(forecast === undefined ? {} : { forecast }),
    durationMs: Date.now() - started,
  };
}
