import type { ConformanceReport, SetupFailureKind } from './results.ts';
import { hasMismatch, isUnreached } from './results.ts';

/**
 * The exit codes of `npm run conformance`. A set-up that cannot work gets a code of its own, found
 * before a single case is judged, so that CI tells "the install is wrong" (1) from "the run was
 * pointed at the wrong place" (3 to 6), from "the run was incomplete" (7) and from "the install
 * answered off the document before the first case, so none could run" (8).
 */
export const exitCodes = {
  /** Every case answered as the document says, and every case was reached. */
  passed: 0,
  /** At least one answer is not what the document says. */
  mismatch: 1,
  /** Options the command does not understand. */
  usage: 2,
  /** No connection: refused, a name that does not resolve, a time-out, a TLS error. */
  cannotConnect: 3,
  /** The host answers, but not as a WordPress REST API with the endpoint's route (its own 429, 403 or 5xx page too). */
  notWordPress: 4,
  /** The key is refused on a request that is otherwise valid. */
  keyRefused: 5,
  /** A named subscription does not exist on the site. */
  unknownSubscription: 6,
  /** Every case reached passed, but some were not reached (unless `--allow-unreached`). */
  unreached: 7,
  /** The request that only reads where a subscription stands was answered off the document: the run's one finding. */
  setupMismatch: 8,
} as const;

/** Each exit code in a few words, for the usage text and the package's README: one wording, beside the codes. */
export const exitCodeMeanings: Record<keyof typeof exitCodes, string> = {
  passed: 'every case reached, and every answer as the document says',
  mismatch: 'a mismatch: an answer off the document, or a contract that cannot be used',
  usage: 'wrong options (a --junit file that cannot be written too)',
  cannotConnect: 'cannot connect (connection refused, a name that does not resolve, a time-out, a TLS error)',
  notWordPress: 'the host answers, but not as a WordPress REST API with the endpoint (an HTML page, no route, the host\'s own 429, 403 or 5xx)',
  keyRefused: 'the key is refused on a request that is otherwise valid',
  unknownSubscription: 'a named subscription does not exist on the site',
  unreached: 'every case reached passed, but some were not reached (0 instead with --allow-unreached)',
  setupMismatch: 'an answer off the document at set-up, before any case: the request that only reads where a subscription stands got an answer the document does not give (the run\'s one finding; no case was run)',
};

/** Every exit code with its meaning, in the order of the codes. */
export function exitCodeList(): { code: number; meaning: string }[] {
  return (Object.keys(exitCodes) as (keyof typeof exitCodes)[]).map((name) => ({ code: exitCodes[name], meaning: exitCodeMeanings[name] })).sort((left, right) => left.code - right.code);
}

const setupExitCodes: Record<SetupFailureKind, number> = {
  'cannot-connect': exitCodes.cannotConnect,
  'host-refused': exitCodes.notWordPress,
  'not-wordpress': exitCodes.notWordPress,
  'key-refused': exitCodes.keyRefused,
  'unknown-subscription': exitCodes.unknownSubscription,
  'off-document-at-setup': exitCodes.setupMismatch,
};

/** The exit code a report calls for: a set-up failure first, then mismatches, then cases not reached. */
export function exitCodeOf(report: ConformanceReport, allowUnreached: boolean): number {
  if (report.setup !== undefined) return setupExitCodes[report.setup.kind];
  if (hasMismatch(report)) return exitCodes.mismatch;
  if (!allowUnreached && report.results.some(isUnreached)) return exitCodes.unreached;
  return exitCodes.passed;
}
