/**
 * `Retry-After` (RFC 9110, section 10.2.3): a number of seconds, or an HTTP date. The one reading
 * of it that the sandbox's host imitation, the conformance suite and its client share. A date is
 * read only in its preferred form, the IMF-fixdate (`Fri, 20 Nov 2026 14:05:00 GMT`, section
 * 5.6.7), which is what a server must send; a string `Date.parse` would also accept is refused.
 */

const delaySeconds = /^\d+$/;
const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const dayNames = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The moment an IMF-fixdate names, in milliseconds since 1970, or undefined unless it is one (a real day, the right weekday). */
export function parseHttpDate(text: string): number | undefined {
  const match = imfFixdate.exec(text);
  if (match === null) return undefined;
  const [, dayName, day, monthName, year, hour, minute, second] = match;
  const month = monthNames.indexOf(monthName ?? '');
  const time = Date.UTC(Number(year), month, Number(day), Number(hour), Number(minute), Number(second));
  const date = new Date(time);
  const exact =
    date.getUTCDate() === Number(day) && date.getUTCMonth() === month && date.getUTCHours() === Number(hour) && date.getUTCMinutes() === Number(minute) && date.getUTCSeconds() === Number(second);
  return exact && dayNames[date.getUTCDay()] === dayName ? time : undefined;
}

/**
 * Milliseconds to wait, from a `Retry-After` value: its seconds, or the time until its date (none
 * when the date has passed). Undefined when the value is neither.
 */
export function retryAfterDelay(value: string, now = Date.now()): number | undefined {
  const text = value.trim();
  if (delaySeconds.test(text)) return Number(text) * 1000;
  const date = parseHttpDate(text);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/** Whether a value is one `Retry-After` allows: seconds, or an IMF-fixdate. */
export function isRetryAfter(value: string): boolean {
  return retryAfterDelay(value) !== undefined;
}
