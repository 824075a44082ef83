import { retryAfterHeader } from '../lib/contract/response-names.ts';
import type { ConnectionFailure, Exchange } from './client.ts';
import { maxThrottledRetries } from './client.ts';
import type { Forecast } from './plan.ts';
import { answerSummary } from './shown-text.ts';

/**
 * The host's own refusal of the first request, not WordPress's: a 429 the suite did not wait out,
 * or a page of a firewall, a CDN or a gateway (403, 5xx) that is not JSON.
 */
export function hostRefusal(exchange: Exchange, throttledStatus: number, maxRetryAfter: number, apiKey: string): string | undefined {
  const { answer } = exchange;
  if (answer === undefined) return undefined;
  const got = answerSummary(exchange, apiKey);
  if (answer.status === throttledStatus) {
    const asked = answer.headers[retryAfterHeader.toLowerCase()];
    const wait = asked === undefined ? `with no ${retryAfterHeader}` : `with ${retryAfterHeader}: ${asked}`;
    return (
      `The host throttles the suite: ${exchange.url} answered ${throttledStatus} ${wait}. The suite waits out a ${retryAfterHeader} of at most ${maxRetryAfter} s ` +
      `(--max-retry-after), ${maxThrottledRetries} times per request at most, and this one asks for ${asked === undefined ? 'no time it can read' : 'more'}. Run again later, ` +
      `raise --max-retry-after, or let this machine through the host's rate limit. The answer: ${got}. No case was run.`
    );
  }
  if (answer.status === 403 || answer.status >= 500) {
    return `The host answered ${answer.status} with a page of its own, not WordPress's JSON: ${exchange.url} answered ${got}. A firewall, a CDN or the web server refused or failed the request before WordPress saw it: check the host's logs or let this machine through. No case was run.`;
  }
  return undefined;
}

export const connectionAdvice: Record<ConnectionFailure, string> = {
  'connection refused': 'Nothing listens at that address and port: check the host and port of --base-url, and that the web server runs.',
  'name not resolved': 'The host name does not resolve: check the spelling of --base-url, and the DNS or /etc/hosts entry of a test site.',
  'timed out': 'The host did not answer in time: check that it is reachable from this machine (a firewall, a VPN, the port).',
  'TLS error': 'The HTTPS connection failed (certificate or protocol): for a test site with its own certificate authority, set NODE_EXTRA_CA_CERTS to its certificate; or use the http:// address if the site serves one.',
  'connection failed': 'The connection failed before an answer: check --base-url and the network between this machine and the site.',
};

function countsInWords(counts: ReadonlyMap<string, number>): string {
  return [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
}

/** The forecast in a line: what a run needs, and what the named subscriptions leave out. */
export function forecastLine(forecast: Forecast): string {
  const needed = [...forecast.needed.values()].reduce((sum, count) => sum + count, 0);
  const missing = [...forecast.unreachable.values()].reduce((sum, count) => sum + count, 0);
  return (
    `The lifecycle cases need ${needed} subscriptions: ${countsInWords(forecast.needed)} (one in a status the moves lead from can stand in for one in a status they lead to). ` +
    (missing === 0 ? 'The named subscriptions reach every case.' : `With the named subscriptions, ${missing} cases cannot be reached: from ${countsInWords(forecast.unreachable)}.`)
  );
}
