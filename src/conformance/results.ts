import type { ConformanceCase, Expectation } from './case-model.ts';
import type { Exchange } from './client.ts';
import type { Forecast } from './plan.ts';

/** What a run of the suite found: each case's result, the set-up's failure, and the report they make. */

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
  /** For a refused request the document allows: the rule that allows it, as it applies to this request. */
  allowedBy?: string;
  /** Why a skipped case was not run. */
  reason?: string;
  /**
   * The refusal case the deployment accepted, which changed this case's subscription: this case was
   * answered for the status that left it in, or not reached for it. Counted under that finding.
   */
  knockOnOf?: CaseResult;
}

/** What stopped a run before a single case was judged: the set-up, not the deployment's answers. */
export type SetupFailureKind = 'cannot-connect' | 'host-refused' | 'not-wordpress' | 'key-refused' | 'unknown-subscription' | 'off-document-at-setup';

export interface SetupFailure {
  kind: SetupFailureKind;
  /** One paragraph: what happened, and what to do. */
  message: string;
}

/** The seeded pass of generated valid bodies: how many were sent, and the smallest refused. */
export interface GeneratedPass {
  /** The bodies asked for (`--generated`) and the seed that replays them (`--seed`). */
  runs: number;
  seed: number;
  /** Bodies sent before any was refused, or all of them. */
  sent: number;
  /** Requests sent while shrinking a refused body. */
  shrinkRequests: number;
  /** The actions a body was generated for: those a named subscription could take without changing. */
  actions: string[];
  /** The smallest body refused, after shrinking: a failed case. */
  smallest?: CaseResult;
  /** Why the pass stopped without a body refused (no body the subscriptions allow could be generated). */
  stopped?: string;
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
  /** Moves of the set-up refused though the lifecycle table allows them, judged as the lifecycle case of the move: findings like a case's. */
  setupFindings: CaseResult[];
  /** What the run needs and could reach, forecast before it ran. */
  forecast?: Forecast;
  /** The generated pass, when it ran. */
  generated?: GeneratedPass;
  durationMs: number;
}

/** Whether the run found a mismatch: a case failed, or the set-up met an answer off the document. */
export function hasMismatch(report: ConformanceReport): boolean {
  return report.fatal.length > 0 || report.setupFindings.length > 0 || report.results.some((result) => result.status === 'failed');
}

/** A case the run did not reach, as opposed to the throttling case a real host need not imitate. */
export function isUnreached(result: CaseResult): boolean {
  return result.status === 'skipped' && result.case.hostImitation !== true;
}
