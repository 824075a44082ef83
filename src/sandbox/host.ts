import type { IncomingHttpHeaders } from 'node:http';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { Answer } from './answer.ts';
import { errorAnswer, hostAnswer } from './answer.ts';
import { isRetryAfter } from '../lib/http/retry-after.ts';

/**
 * The sandbox stands in for a whole WordPress site, host included, so it can also give the
 * answers that come from in front of the plugin. Nothing reaches the subscriptions when it does.
 */

/** `Sandbox-Throttle: S` answers as a throttling host: the document's 429, `Retry-After: S`. */
export const throttleHeader = 'Sandbox-Throttle';

/** `Sandbox-Host-Error: N` answers with status N and an HTML page, as a firewall or CDN would. */
export const hostErrorHeader = 'Sandbox-Host-Error';

/** The host answers `Sandbox-Host-Error` can imitate: a firewall's refusal and a gateway's failures. */
export const hostErrorStatuses: readonly number[] = [403, 502, 503, 504];

/** How many requests in a row the sandbox may be told to throttle (`--throttle-next`, the page's switch). */
export const maxThrottledRequests = 100;

/**
 * The `Retry-After` a throttled answer carries unless told otherwise, in seconds: the command's
 * `--retry-after` and the page's throttle switch with its field empty. One second keeps a client's
 * wait short enough to watch.
 */
export const defaultRetryAfterSeconds = 1;

/** Bodies above this size get nginx's default answer (`client_max_body_size 1m`): 413 and an HTML page. */
export const bodyLimitBytes = 1024 * 1024;
export const payloadTooLargeStatus = 413;

const hostExplanations: Record<number, string> = {
  403: 'The request was blocked by the site\'s firewall.',
  502: 'The web server received an invalid response from the application behind it.',
  503: 'The site is temporarily unavailable.',
  504: 'The web server did not receive a timely response from the application behind it.',
};

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function refusedControl(contract: ExecutableContract, header: string, reason: string): Answer {
  const { invalidParameter, paramsMember } = contract.errors;
  return errorAnswer(contract, invalidParameter, `Invalid parameter(s): ${header}`, { [paramsMember]: { [header]: reason } });
}

/** The host's own answer to a request that asks for one, or undefined to let the request through. */
export function imitateHost(contract: ExecutableContract, headers: IncomingHttpHeaders): Answer | undefined {
  const throttle = headerValue(headers, throttleHeader)?.trim();
  if (throttle !== undefined) {
    if (!isRetryAfter(throttle)) {
      return refusedControl(contract, throttleHeader, `${throttleHeader} is expected to be a number of seconds or an HTTP date.`);
    }
    return hostAnswer(
      Number(contract.throttled.status),
      'Too many requests from your address. Please wait before sending another request.',
      { [contract.retryAfterHeader.toLowerCase()]: throttle },
    );
  }
  const hostError = headerValue(headers, hostErrorHeader)?.trim();
  if (hostError !== undefined) {
    const status = Number(hostError);
    const explanation = hostExplanations[status];
    if (!hostErrorStatuses.includes(status) || explanation === undefined) {
      return refusedControl(contract, hostErrorHeader, `${hostErrorHeader} is expected to be one of ${hostErrorStatuses.join(', ')}.`);
    }
    return hostAnswer(status, explanation);
  }
  return undefined;
}

export function payloadTooLarge(): Answer {
  return hostAnswer(payloadTooLargeStatus, `The request body is larger than the ${bodyLimitBytes / 1024 / 1024} MiB this server accepts.`, {
    connection: 'close',
  });
}
