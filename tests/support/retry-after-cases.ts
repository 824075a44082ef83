/**
 * The one table of `Retry-After` values every client is held to: the retrying clients of the
 * errors guide in each language, the client libraries, and src/lib/http/retry-after.ts. The rule
 * (RFC 9110, section 10.2.3, as the errors guide applies it): the value trimmed; only digits is that
 * many seconds; an IMF-fixdate with a real day and the right weekday is the time until that
 * moment, 0 once it has passed; anything else is unreadable, and the client falls back to its own
 * backoff. `expectedSeconds: undefined` means unreadable.
 *
 * Kept free of imports so any test, in any tier, can read it.
 */
export interface RetryAfterCase {
  /** The header's value as it arrives. */
  header: string;
  /** The moment the client reads it at. */
  nowIso: string;
  /** Seconds to wait, or undefined: unreadable, so the client's own backoff. */
  expectedSeconds: number | undefined;
  /** Why that is the reading. */
  why: string;
}

const now = '2026-11-20T14:00:00Z';

export const retryAfterCases: readonly RetryAfterCase[] = [
  { header: '120', nowIso: now, expectedSeconds: 120, why: 'digits are seconds' },
  { header: '0', nowIso: now, expectedSeconds: 0, why: 'zero seconds: try again at once' },
  { header: '007', nowIso: now, expectedSeconds: 7, why: 'leading zeros are still digits' },
  { header: ' 7 ', nowIso: now, expectedSeconds: 7, why: 'the value is trimmed' },
  { header: '\t30\t', nowIso: now, expectedSeconds: 30, why: 'tabs are trimmed too' },
  { header: '86400', nowIso: now, expectedSeconds: 86_400, why: 'a long wait is read as asked; the client bound decides whether it is waited' },
  { header: 'Fri, 20 Nov 2026 14:05:00 GMT', nowIso: now, expectedSeconds: 300, why: 'an IMF-fixdate is the time until then' },
  { header: ' Fri, 20 Nov 2026 14:05:00 GMT ', nowIso: now, expectedSeconds: 300, why: 'a date is trimmed too' },
  { header: 'Fri, 20 Nov 2026 13:00:00 GMT', nowIso: now, expectedSeconds: 0, why: 'a date that has passed is no wait' },
  { header: 'Sun, 06 Nov 1994 08:49:37 GMT', nowIso: now, expectedSeconds: 0, why: "RFC 9110's own example, long past" },
  { header: 'Tue, 29 Feb 2028 14:01:00 GMT', nowIso: '2028-02-29T14:00:00Z', expectedSeconds: 60, why: 'a leap day is a real day' },
  { header: '-1', nowIso: now, expectedSeconds: undefined, why: 'a negative number is not digits (PHP once read it as a time-zone offset, an hour)' },
  { header: 'now', nowIso: now, expectedSeconds: undefined, why: 'a word is no date, even one strtotime() reads' },
  { header: 'soon', nowIso: now, expectedSeconds: undefined, why: 'garbage' },
  { header: '1.5', nowIso: now, expectedSeconds: undefined, why: 'seconds are whole' },
  { header: '+3', nowIso: now, expectedSeconds: undefined, why: 'a sign is not a digit' },
  { header: '1e3', nowIso: now, expectedSeconds: undefined, why: 'no exponent' },
  { header: '0x10', nowIso: now, expectedSeconds: undefined, why: 'no hexadecimal' },
  { header: '²', nowIso: now, expectedSeconds: undefined, why: 'a superscript two is a digit to Unicode, not to the rule' },
  { header: '', nowIso: now, expectedSeconds: undefined, why: 'empty' },
  { header: '   ', nowIso: now, expectedSeconds: undefined, why: 'only spaces: empty once trimmed' },
  { header: 'Friday, 20-Nov-26 14:05:00 GMT', nowIso: now, expectedSeconds: undefined, why: 'the obsolete RFC 850 date form' },
  { header: 'Fri Nov 20 14:05:00 2026', nowIso: now, expectedSeconds: undefined, why: "the obsolete asctime() date form" },
  { header: '2026-11-20T14:05:00Z', nowIso: now, expectedSeconds: undefined, why: 'ISO 8601 is not an HTTP date' },
  { header: 'Fri, 20 Nov 2026 14:05:00 UTC', nowIso: now, expectedSeconds: undefined, why: 'an IMF-fixdate ends in GMT' },
  { header: 'Fri, 20 Nov 2026 14:05:00 +0000', nowIso: now, expectedSeconds: undefined, why: 'a numeric zone is not GMT' },
  { header: 'fri, 20 nov 2026 14:05:00 GMT', nowIso: now, expectedSeconds: undefined, why: 'day and month names are case-sensitive' },
  { header: 'Fri, 20 Nov 2026 14:05 GMT', nowIso: now, expectedSeconds: undefined, why: 'the seconds are not optional' },
  { header: 'Fri, 20 Nov 26 14:05:00 GMT', nowIso: now, expectedSeconds: undefined, why: 'the year has four digits' },
  { header: 'Sat, 20 Nov 2026 14:05:00 GMT', nowIso: now, expectedSeconds: undefined, why: '20 Nov 2026 is a Friday' },
  { header: 'Mon, 31 Feb 2026 14:05:00 GMT', nowIso: now, expectedSeconds: undefined, why: 'February has no 31st' },
  { header: 'Fri, 20 Nov 2026 24:05:00 GMT', nowIso: now, expectedSeconds: undefined, why: 'there is no hour 24' },
];
