import { countInWords, listInWords } from '../prose.ts';

/**
 * The one retry policy of the project. The errors guide states it and every code sample follows
 * it; the numbers live here only, so the guide and the samples cannot drift apart. The statuses
 * the contract itself documents (the throttled `429`, the service's own `500`) come from the
 * reference model; the answers a host may give outside the contract are listed here.
 */
export interface RetryPolicy {
  /** Seconds to wait for the connection to the site before the attempt counts as failed. */
  connectTimeoutSeconds: number;
  /** Seconds one attempt may take in all, from connecting to the end of the answer. */
  attemptTimeoutSeconds: number;
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** The nominal wait before the second attempt; it doubles before each further one. */
  backoffBaseSeconds: number;
  /** No nominal wait grows beyond this. */
  backoffMaxSeconds: number;
  /**
   * The part of each nominal wait that is always waited; the rest is random (jitter), so that
   * clients that failed together do not all come back at the same moment.
   */
  backoffFixedShare: number;
  /** The longest `Retry-After` worth waiting for; asked to wait longer, the client stops and reports. */
  retryAfterCapSeconds: number;
  /** Seconds between two requests to the same site: the courtesy pace, about one a second. */
  courtesyIntervalSeconds: number;
  /**
   * Answers of a host, firewall or CDN in front of the site that are worth another attempt:
   * a bad gateway, a site unavailable for the moment, a gateway that timed out.
   */
  transientHostStatuses: readonly number[];
}

export const retryPolicy: RetryPolicy = {
  connectTimeoutSeconds: 5,
  attemptTimeoutSeconds: 30,
  maxAttempts: 5,
  backoffBaseSeconds: 1,
  backoffMaxSeconds: 30,
  backoffFixedShare: 0.5,
  retryAfterCapSeconds: 300,
  courtesyIntervalSeconds: 1,
  transientHostStatuses: [502, 503, 504],
};

/** The nominal wait, in seconds, after a failed attempt (1 for the first) before the next one. */
export function nominalBackoffSeconds(policy: RetryPolicy, failedAttempt: number): number {
  return Math.min(policy.backoffMaxSeconds, policy.backoffBaseSeconds * 2 ** (failedAttempt - 1));
}

/** The shortest and longest wait the jitter can make of a failed attempt's nominal backoff. */
export function backoffRangeSeconds(policy: RetryPolicy, failedAttempt: number): { shortest: number; longest: number } {
  const nominal = nominalBackoffSeconds(policy, failedAttempt);
  return { shortest: nominal * policy.backoffFixedShare, longest: nominal };
}

/** The nominal waits between the attempts, in order: what the guide lists as 1, 2, 4, 8 seconds. */
export function backoffSchedule(policy: RetryPolicy): number[] {
  return Array.from({ length: policy.maxAttempts - 1 }, (_, index) => nominalBackoffSeconds(policy, index + 1));
}

/** Seconds as prose reads them: `1 second`, `30 seconds`, `300 seconds (5 minutes)`. */
function seconds(value: number): string {
  const plain = `${value} second${value === 1 ? '' : 's'}`;
  return value >= 120 && value % 60 === 0 ? `${plain} (${value / 60} minutes)` : plain;
}

/**
 * The policy's numbers as the errors guide writes them, one phrase per name, so a guide names a
 * number (`<Policy name="maxAttempts" />`) instead of typing it.
 */
export function policyPhrases(policy: RetryPolicy = retryPolicy) {
  const schedule = backoffSchedule(policy);
  return {
    connectTimeout: seconds(policy.connectTimeoutSeconds),
    attemptTimeout: seconds(policy.attemptTimeoutSeconds),
    maxAttempts: `${countInWords(policy.maxAttempts)} attempts`,
    backoffSchedule: `${listInWords(schedule.map(String), 'and')} seconds`,
    backoffMax: seconds(policy.backoffMaxSeconds),
    jitter: `${Math.round((1 - policy.backoffFixedShare) * 100)} %`,
    retryAfterCap: seconds(policy.retryAfterCapSeconds),
    courtesyInterval: seconds(policy.courtesyIntervalSeconds),
    transientHostStatuses: listInWords(policy.transientHostStatuses.map(String), 'and'),
  } as const;
}

export type PolicyPhrase = keyof ReturnType<typeof policyPhrases>;
