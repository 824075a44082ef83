import type { ResponseRow } from './model.ts';
import { retryAfterHeader } from './response-names.ts';
import { contractError, exactlyOne } from './schemas.ts';

/**
 * Where a problem of the list of responses as a whole is written: at the second of several
 * where one is expected, else at the operation's list of responses, so the message names the
 * file that lists them rather than the root that only refers to it.
 */
export function responseListPointer(responses: ResponseRow[], found: ResponseRow[] = []): string {
  const extra = found[1]?.listedAt;
  if (extra !== undefined) return extra;
  const listed = responses[0]?.listedAt;
  return listed === undefined ? '#/paths' : listed.slice(0, listed.lastIndexOf('/'));
}

/** The one success response; an endpoint with none, or several, is not one the pages can explain. */
export function successResponse(responses: ResponseRow[]): ResponseRow {
  const successes = responses.filter((response) => /^2/.test(response.status));
  return exactlyOne(successes, responseListPointer(responses, successes), 'success (2xx) response', (response) => response.status);
}

/** The response a throttled request gets: the one that tells the client to wait with `Retry-After`. */
export function throttledResponse(responses: ResponseRow[]): ResponseRow {
  const throttled = responses.find((response) => response.headers.some((header) => header.name === retryAfterHeader));
  if (throttled === undefined) {
    throw contractError(responseListPointer(responses), `no response carries a \`${retryAfterHeader}\` header, so clients cannot be told how long to wait`);
  }
  return throttled;
}

/** The one failure of the service itself (5xx): the plugin failed and changed nothing. */
export function serviceFailureResponse(responses: ResponseRow[]): ResponseRow {
  const failures = responses.filter((response) => /^5/.test(response.status));
  return exactlyOne(failures, responseListPointer(responses, failures), 'server error (5xx) response of the service itself', (response) => response.status);
}

/** The response of a status the pages explain by name; a contract without it cannot be explained. */
export function responseWithStatus(responses: ResponseRow[], status: string, meaning: string): ResponseRow {
  const found = responses.find((response) => response.status === status);
  if (found === undefined) throw contractError(responseListPointer(responses), `no ${status} response is documented, the answer ${meaning}`);
  return found;
}
