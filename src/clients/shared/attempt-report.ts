/**
 * What every library reports of each attempt to its hook (PHP's `logger`, TypeScript's
 * `onAttempt`): the same members in every language, spelled as the language spells a name
 * (`retry_in_seconds` in a PHP array, `retryInSeconds` in a TypeScript object), so that a log line
 * reads alike whatever language sent the request. The key is never among them.
 */
export const attemptReportMembers = [
  /** The action's identifier, as the contract writes it. */
  'action',
  /** 1 for the first attempt. */
  'attempt',
  /** What came of it: one of attemptOutcomes. */
  'outcome',
  /** The HTTP status when the site answered; null otherwise. */
  'status',
  /** Seconds the attempt took. */
  'seconds',
  /** Seconds until the next attempt when there is one, or null when this attempt was the last. */
  'retry_in_seconds',
] as const;

/** What came of an attempt: an answer, or one of the two failures the retry policy sends again. */
export const attemptOutcomes = ['answered', 'timeout', 'connection'] as const;

export type AttemptOutcome = (typeof attemptOutcomes)[number];
