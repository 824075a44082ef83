import { retryAfterHeader } from '../lib/contract/response-names.ts';
import type { CaseRequest, ReceivedAnswer } from './case-model.ts';
import { jsonNesting } from '../lib/http/json-nesting.ts';
import { retryAfterDelay } from '../lib/http/retry-after.ts';

/** A request sent and what came of it: the answer, or why there was none. */
export interface Exchange {
  url: string;
  request: CaseRequest;
  answer?: ReceivedAnswer;
  failure?: string;
  /** Why no answer came, when none did. */
  failureKind?: ConnectionFailure;
  /** The HTTP status of an answer that came but was not read (too large, nested too deep): `failure` says why. */
  unreadableStatus?: number;
  /** How often a host's 429 made the client wait and send the request again. */
  throttledRetries: number;
}

/** Why a request got no answer at all. */
export type ConnectionFailure = 'connection refused' | 'name not resolved' | 'timed out' | 'TLS error' | 'connection failed';

/** Failures of a connection that the server closed under a request, as when it ended a kept-alive connection a moment before. */
const resetBeforeAnswerCodes: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

const tlsCodes = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/**
 * Names the reason a fetch failed from its error and the system's code beneath it; with no code, the
 * cause's own message (fetch's "bad port", for one), never fetch's bare "fetch failed".
 */
export function classifyFailure(error: unknown): { kind: ConnectionFailure; code?: string } {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const name = (error as { name?: unknown }).name;
  const known = typeof cause?.code === 'string' ? cause.code : undefined;
  const causeMessage = typeof cause?.message === 'string' && cause.message !== '' ? cause.message : undefined;
  const withCode = known === undefined ? (causeMessage === undefined ? {} : { code: causeMessage }) : { code: known };
  if (name === 'TimeoutError' || known === 'ETIMEDOUT' || known === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timed out', ...withCode };
  if (known === 'ECONNREFUSED') return { kind: 'connection refused', code: known };
  if (known === 'ENOTFOUND' || known === 'EAI_AGAIN' || known === 'EAI_NONAME') return { kind: 'name not resolved', code: known };
  if (known !== undefined && tlsCodes.test(known)) return { kind: 'TLS error', code: known };
  return { kind: 'connection failed', ...withCode };
}

export interface ClientOptions {
  /** The site's base URL: its origin, with the path of a subdirectory install if it has one. */
  baseUrl: string;
  /** The least time between the starts of two requests. */
  paceMs: number;
  timeoutMs?: number;
  /** The longest `Retry-After` the client waits out; a longer one ends the run of that request. */
  maxRetryAfterSeconds?: number;
  /** The status a throttling host answers with, which the client waits out. */
  throttledStatus: number;
  log?: (line: string) => void;
}

export interface Client {
  /** Sends a request; a 429 with `Retry-After` is waited out and the request sent again, unless `acceptThrottle`. */
  send(request: CaseRequest, options?: { acceptThrottle?: boolean }): Promise<Exchange>;
  readonly requestCount: number;
}

/** The courtesy pace the interface specification recommends for a real site: about one request per second. */
export const courtesyPaceMs = 1000;

/** True for a host on this machine (the loopback range, `localhost`), where no courtesy pace is needed. */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/** Seconds to wait for a `Retry-After` value: a delay, or an HTTP date (RFC 9110, section 10.2.3). */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  const delay = value === undefined ? undefined : retryAfterDelay(value, now);
  return delay === undefined ? undefined : Math.ceil(delay / 1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The largest answer the client reads: far above any answer of the endpoint, far below what exhausts memory. */
export const maxAnswerBytes = 8 * 1024 * 1024;

/**
 * The deepest JSON the client hands on: `json_encode`'s default depth, past which WordPress writes
 * no answer at all. Counted on the text, so that nothing that checks an answer walks a deeper one.
 */
export const maxAnswerNesting = 512;

/** An answer came, but not one the suite reads: too large, or nested deeper than any WordPress answer. */
class UnreadableAnswer extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The body's text, read up to `maxAnswerBytes`. */
async function readAnswerText(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxAnswerBytes) {
      await reader.cancel();
      throw new UnreadableAnswer(response.status, `the ${response.status} answer's body is larger than ${maxAnswerBytes / 1024 / 1024} MiB, which no answer of the endpoint is; the suite did not read it`);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (jsonNesting(text, maxAnswerNesting) > maxAnswerNesting) {
    throw new UnreadableAnswer(response.status, `the ${response.status} answer's body nests deeper than ${maxAnswerNesting} levels, deeper than WordPress writes JSON (json_encode's depth); the suite did not read it`);
  }
  return text;
}

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** The longest `Retry-After` the client waits out unless told another (`--max-retry-after`). */
export const defaultMaxRetryAfterSeconds = 120;

/** How often the client waits out a throttled request and sends it again before it takes the 429 as the answer. */
export const maxThrottledRetries = 3;

export function createClient(options: ClientOptions): Client {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetryAfter = options.maxRetryAfterSeconds ?? defaultMaxRetryAfterSeconds;
  let nextStart = 0;
  let requestCount = 0;

  async function once(url: string, request: CaseRequest): Promise<ReceivedAnswer> {
    const wait = nextStart - Date.now();
    if (wait > 0) await sleep(wait);
    nextStart = Date.now() + options.paceMs;
    requestCount += 1;
    const response = await fetch(url, {
      method: request.method,
      headers: request.headers,
      // A copy as a plain ArrayBuffer-backed view, the only kind fetch's types accept.
      ...(request.body === undefined ? {} : { body: typeof request.body === 'string' ? request.body : new Uint8Array(request.body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Defined, not assigned: a header named `__proto__` stays a header instead of setting the prototype.
    const headers: Record<string, string> = Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value]));
    return { status: response.status, headers, body: await readAnswerText(response) };
  }

  return {
    get requestCount() {
      return requestCount;
    },
    async send(request, sendOptions = {}) {
      const url = joinUrl(options.baseUrl, request.path);
      let throttledRetries = 0;
      let resentAfterReset = false;
      for (;;) {
        let answer: ReceivedAnswer;
        try {
          answer = await once(url, request);
        } catch (error) {
          if (error instanceof UnreadableAnswer) return { url, request, failure: error.message, unreadableStatus: error.status, throttledRetries };
          const { kind, code } = classifyFailure(error);
          if (!resentAfterReset && code !== undefined && resetBeforeAnswerCodes.has(code)) {
            // A kept-alive connection the server closed while this process was busy reads as a reset;
            // the actions are safe to repeat, so the request goes once more, on a new connection.
            resentAfterReset = true;
            options.log?.(`  the connection was closed before an answer came (${code}); sent again once`);
            continue;
          }
          return { url, request, failure: `no answer: ${kind} (${code ?? (error as Error).message})`, failureKind: kind, throttledRetries };
        }
        if (answer.status !== options.throttledStatus || sendOptions.acceptThrottle === true || throttledRetries >= maxThrottledRetries) {
          return { url, request, answer, throttledRetries };
        }
        // The host throttled a real request: honour Retry-After, as the specification asks of every client.
        const seconds = retryAfterSeconds(answer.headers[retryAfterHeader.toLowerCase()]);
        if (seconds === undefined || seconds > maxRetryAfter) {
          options.log?.(
            `  the host answered ${options.throttledStatus} with ${seconds === undefined ? `no ${retryAfterHeader} the suite can read` : `${retryAfterHeader} ${seconds} s`}, longer than the ${maxRetryAfter} s the suite waits; taken as the answer`,
          );
          return { url, request, answer, throttledRetries };
        }
        options.log?.(`  the host answered ${options.throttledStatus}; waiting ${seconds} s as ${retryAfterHeader} says`);
        await sleep(seconds * 1000);
        throttledRetries += 1;
      }
    },
  };
}
