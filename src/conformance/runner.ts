import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { generateCases, probeTarget } from './cases.ts';
import { courtesyPaceMs, createClient, isLoopback } from './client.ts';
import { blameUnreached, restoreSubscriptions, runLifecycle } from './lifecycle-run.ts';
import type { Forecast } from './plan.ts';
import { createPlanner, forecastRun } from './plan.ts';
import type { ConformanceReport, GeneratedPass, SetupFailure } from './results.ts';
import { defaultGeneratedRuns, generatedBodies, runGeneratedPass } from './generated-pass.ts';
import type { RunState } from './run-state.ts';
import { runCase } from './run-state.ts';
import { placeSubscriptions } from './setup.ts';

export type { CaseResult, CaseStatus, ConformanceReport, GeneratedPass, SetupFailure, SetupFailureKind } from './results.ts';
export { defaultGeneratedRuns } from './generated-pass.ts';
export { hasMismatch, isUnreached } from './results.ts';
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
  /** How many valid bodies the generated pass sends (`defaultGeneratedRuns` unless told; 0: none). */
  generated?: number;
  /** The seed of the generated pass, to replay one; a new one each run unless told. */
  seed?: number;
}

/** A seed for the generated pass: any 31-bit number, printed with the report so the run can be replayed. */
export function newSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}

/**
 * Runs every case the document gives against one deployment; see `ConformanceOptions`. The stages:
 * place the named subscriptions (`setup.ts`), forecast the run (`plan.ts`), the cases that need no
 * subscription or any, the cases of the lifecycle (`lifecycle-run.ts`), the generated valid bodies
 * (`generated-pass.ts`), and the moves back.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const { contract, apiKey } = options;
  const log = options.log ?? (() => {});
  const client = createClient({
    baseUrl: options.baseUrl,
    paceMs: options.paceMs ?? (isLoopback(options.baseUrl) ? 0 : courtesyPaceMs),
    throttledStatus: Number(contract.throttled.status),
    ...(options.maxRetryAfterSeconds === undefined ? {} : { maxRetryAfterSeconds: options.maxRetryAfterSeconds }),
    log,
  });
  const cases = generateCases(contract, {
    apiKey,
    unknownSubscriptionId: options.unknownSubscriptionId ?? 2_147_483_647,
    namedSubscriptions: options.subscriptions,
    throttleHeader: options.throttleHeader,
  });
  const runs = options.generated ?? defaultGeneratedRuns;
  // Before the first request: see `generatedBodies`.
  const generators = runs > 0 ? generatedBodies(contract) : new Map();
  const probe = probeTarget(contract);
  const state: RunState = {
    contract,
    apiKey,
    baseUrl: options.baseUrl,
    imitatesHost: options.imitatesHost === true,
    ...(options.maxRetryAfterSeconds === undefined ? {} : { maxRetryAfterSeconds: options.maxRetryAfterSeconds }),
    subscriptions: options.subscriptions,
    probe,
    planner: createPlanner(contract, probe?.transition),
    send: (request, acceptThrottle = false) => client.send(request, { acceptThrottle }),
    log,
    known: new Map(),
    unclear: new Map(),
    changedByRefusal: new Map(),
    results: [],
    fatal: [],
    setupFindings: [],
    setupRequests: 0,
  };

  const setup: SetupFailure | undefined = await placeSubscriptions(state);
  const before = new Map(options.subscriptions.map((id) => [id, state.known.get(id)] as const));
  let forecast: Forecast | undefined;
  let generated: GeneratedPass | undefined;
  if (setup === undefined && state.fatal.length === 0) {
    forecast = forecastRun(state.planner, cases, before);
    options.onForecast?.(forecast);
    // Requests refused before any subscription is looked at.
    for (const testCase of cases.filter((candidate) => candidate.needs.kind === 'none')) await runCase(state, testCase);
    // Requests refused before the subscription's status matters.
    for (const testCase of cases.filter((candidate) => candidate.needs.kind === 'any')) {
      const id = options.subscriptions.find((candidate) => state.known.get(candidate) !== undefined);
      if (id === undefined) state.results.push({ case: testCase, status: 'skipped', problems: [], notes: [], reason: 'no named subscription is left in a known status' });
      else await runCase(state, testCase, id);
    }
    await runLifecycle(state, cases.filter((candidate) => candidate.needs.kind === 'status'));
    blameUnreached(state, forecast);
    generated = await runGeneratedPass(state, runs, options.seed ?? newSeed(), generators);
    if (generated.smallest !== undefined) state.results.push(generated.smallest);
  } else {
    const reason = setup === undefined ? 'the run stopped before the cases' : `the run stopped before the cases: ${setup.kind}`;
    for (const testCase of cases) state.results.push({ case: testCase, status: 'skipped', problems: [], notes: [], reason });
  }

  // Back where they were, where the moves allow it.
  const subscriptions = await restoreSubscriptions(state, before, setup === undefined);
  return {
    baseUrl: options.baseUrl,
    results: state.results,
    setupRequests: state.setupRequests,
    requestCount: client.requestCount,
    subscriptions,
    ...(setup === undefined ? {} : { setup }),
    fatal: state.fatal,
    setupFindings: state.setupFindings,
    ...(forecast === undefined ? {} : { forecast }),
    ...(generated === undefined ? {} : { generated }),
    durationMs: Date.now() - started,
  };
}
