/**
 * The part of the client that is the same whatever the contract says: the endpoint's URL from a
 * site's base URL, the courtesy pace per site, the attempts with their timeout, `Retry-After` and
 * backoff, and the answer read into a result or an error. The generated part hands it the
 * contract's facts (`ClientDescription`) and the error class of each documented status.
 */
import { retryAfterDelay } from '../../../lib/http/retry-after.ts';
import type { ClientDescription } from './description.ts';
import { ConnectionError, HostError, ServiceError, ThrottledError, TimeoutError, type ErrorBody, type ErrorMembers } from './errors.ts';
import { checkFields } from './field-check.ts';

/**
 * One attempt to send an action, as the `onAttempt` hook receives it: the members every library
 * reports each attempt with (src/clients/shared/attempt-report.ts), spelled in camel case. The
 * key is never among them.
 */
export interface AttemptReport {
  /** The action's identifier, as the contract writes it. */
  readonly action: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** What came of it: an answer (of any status), no answer within the timeout, or a failed connection. */
  readonly outcome: 'answered' | 'timeout' | 'connection';
  /** The HTTP status when the site answered; null otherwise. */
  readonly status: number | null;
  /** Seconds the attempt took. */
  readonly seconds: number;
  /** Seconds until the next attempt when there is one, or null when this attempt was the last. */
  readonly retryInSeconds: number | null;
}

/** How a client behaves; every member has a default from the errors guide's retry policy. */
export interface ClientOptions {
  /** Milliseconds one attempt may take in all, from connecting to the end of the answer. */
  timeout?: number;
  /** Aborts every call of this client, in a wait or in flight; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Milliseconds between two requests to the same site, across every client of this package in
   * the process: the courtesy pace, about one request a second. `0` switches it off.
   */
  pace?: number;
  /** Attempts in all, the first one included: `1` sends each request once and never again. */
  maxAttempts?: number;
  /** The longest `Retry-After` worth waiting for, in milliseconds; asked to wait longer, the call throws a `ThrottledError` at once. */
  maxRetryWait?: number;
  /** The `User-Agent` header, where the runtime lets a script set it (not in a browser). */
  userAgent?: string;
  /** The `fetch` to send with, such as a Worker's service binding; the global one by default. */
  fetch?: typeof fetch;
  /**
   * Called once for every attempt, when its outcome is known and before any wait for the next one:
   * a place to log or count each request. An error it throws is ignored, so that a failing logger
   * never turns an action that went through into a failed call.
   */
  onAttempt?: (report: AttemptReport) => void;
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts this call, in a wait or in flight; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds one attempt of this call may take, instead of the client's timeout. */
  timeout?: number;
}

/** A client's settings as they apply, defaults filled in. */
export interface ClientSettings {
  readonly endpoint: string;
  readonly timeout: number;
  readonly pace: number;
  readonly maxAttempts: number;
  readonly maxRetryWait: number;
  readonly userAgent: string;
}

/** Turns taken one after the other at one site, each at least `pace` after the one before. */
class SiteTurns {
  #notBefore = 0;
  #queue: Promise<void> = Promise.resolve();

  async take(pace: number, signal: AbortSignal | undefined): Promise<void> {
    const before = this.#queue;
    let done: () => void = () => {};
    const mine = new Promise<void>((resolve) => (done = resolve));
    // Whoever comes next waits for this turn and for every earlier one, even when this one is aborted.
    this.#queue = Promise.all([before, mine]).then(() => undefined);
    try {
      await untilSettledOrAborted(before, signal);
      await sleep(this.#notBefore - performance.now(), signal);
      this.#notBefore = performance.now() + pace;
    } finally {
      done();
    }
  }

  /** A wait the site asked for (or a backoff) holds back every later request to it, not only this one. */
  holdBack(milliseconds: number): void {
    this.#notBefore = Math.max(this.#notBefore, performance.now() + milliseconds);
  }
}

/** One queue of turns per endpoint URL, shared by every client of the package in this process or isolate. */
const sites = new Map<string, SiteTurns>();

function turnsOf(endpoint: string): SiteTurns {
  let turns = sites.get(endpoint);
  if (turns === undefined) {
    turns = new SiteTurns();
    sites.set(endpoint, turns);
  }
  return turns;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(abortReason(signal));
  if (milliseconds <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function untilSettledOrAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A signal that aborts with the first of several, and a way to stop listening to them once the call is over. */
interface JoinedSignal {
  signal: AbortSignal | undefined;
  release(): void;
}

/** The first of several signals to abort, as one signal (`AbortSignal.any` is missing before Node 20.3). */
function eitherSignal(signals: (AbortSignal | undefined)[]): JoinedSignal {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length <= 1) return { signal: present[0], release: () => {} };
  const controller = new AbortController();
  const listeners: [AbortSignal, () => void][] = [];
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const listener = () => controller.abort(signal.reason);
    signal.addEventListener('abort', listener, { once: true });
    listeners.push([signal, listener]);
  }
  // A client's own signal lives as long as the client: each call removes what it added.
  return { signal: controller.signal, release: () => listeners.forEach(([signal, listener]) => signal.removeEventListener('abort', listener)) };
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new RangeError(`The option ${name} must be a number of milliseconds, 0 or more; got ${String(value)}.`);
  return value;
}

/**
 * The endpoint's URL from what a reader has: the site's base URL with its scheme
 * (`https://shop.example`, a subdirectory install `https://example.com/shop`), the endpoint's URL
 * itself, or the form for a site without pretty permalinks (`https://shop.example/?rest_route=/…`),
 * whose route is then set to the endpoint's.
 */
export function endpointUrl(baseUrl: string, description: Pick<ClientDescription, 'endpointPath' | 'restPrefix'>): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`The site's base URL must be a whole URL with its scheme, such as https://shop.example; got ${JSON.stringify(baseUrl)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`The site's base URL must start with https:// (or http:// for a local test site); got ${url.protocol}.`);
  if (url.username !== '' || url.password !== '') throw new TypeError('The site\'s base URL must not carry a user name or password.');
  url.hash = '';
  if (url.searchParams.has('rest_route')) {
    const route = description.endpointPath.startsWith(`${description.restPrefix}/`) ? description.endpointPath.slice(description.restPrefix.length) : description.endpointPath;
    url.searchParams.set('rest_route', route);
    // WordPress reads `/` unescaped in the route; URLSearchParams would write %2F.
    return url.toString().replace(/rest_route=[^&]*/, `rest_route=${route}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(description.endpointPath) ? path : `${path}${description.endpointPath}`;
  return url.toString();
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().split(';')[0]?.trim().endsWith('json') === true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The class a service error of a status is thrown as. */
export type ServiceErrorClass = new (status: number, body: ErrorBody, members: ErrorMembers) => ServiceError;

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * Sends actions to one site. The key is held in a private field: it is in the request body only,
 * never in a message, `JSON.stringify`, `console.log` or `util.inspect` of the client.
 */
export class ClientCore {
  readonly #description: ClientDescription;
  readonly #errorClasses: ReadonlyMap<number, ServiceErrorClass>;
  readonly #apiKey: string;
  readonly #settings: ClientSettings;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: typeof fetch;
  readonly #turns: SiteTurns;
  readonly #onAttempt: ((report: AttemptReport) => void) | undefined;

  constructor(description: ClientDescription, errorClasses: ReadonlyMap<number, ServiceErrorClass>, baseUrl: string, apiKey: string, options: ClientOptions = {}) {
    this.#description = description;
    this.#errorClasses = errorClasses;
    if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError(`The API key (\`${description.credential}\`) must be a non-empty string.`);
    this.#apiKey = apiKey;
    const { policy } = description;
    const maxAttempts = options.maxAttempts ?? policy.maxAttempts;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`The option maxAttempts must be a whole number, 1 or more; got ${String(maxAttempts)}.`);
    const endpoint = endpointUrl(baseUrl, description);
    this.#settings = Object.freeze({
      endpoint,
      timeout: nonNegative('timeout', options.timeout, policy.attemptTimeoutMs),
      pace: nonNegative('pace', options.pace, policy.paceMs),
      maxAttempts,
      maxRetryWait: nonNegative('maxRetryWait', options.maxRetryWait, policy.retryAfterCapMs),
      userAgent: options.userAgent ?? `${description.packageName}/${description.version}`,
    });
    this.#signal = options.signal;
    const fetchFunction = options.fetch ?? globalThis.fetch;
    if (typeof fetchFunction !== 'function') throw new TypeError('This runtime has no fetch: pass one in the fetch option.');
    // Called unbound, a Worker's fetch throws "Illegal invocation".
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#turns = turnsOf(endpoint);
    if (options.onAttempt !== undefined && typeof options.onAttempt !== 'function') throw new TypeError('The option onAttempt must be a function.');
    this.#onAttempt = options.onAttempt;
  }

  /** The settings this client applies, defaults filled in; the key is not among them. */
  get settings(): ClientSettings {
    return this.#settings;
  }

  /** Checks the fields, then sends the action until it succeeds, fails for good, or the attempts run out. */
  async send(action: string, fields: Readonly<Record<string, unknown>>, call: CallOptions = {}): Promise<Record<string, unknown>> {
    const description = this.#description;
    if (typeof action !== 'string' || action === '') throw new TypeError('The action must be a non-empty string.');
    if (!isRecord(fields)) throw new TypeError(`${action}: the fields must be an object.`);
    checkFields(action, description.actions[action] ?? description.sharedFields.filter((rule) => rule.required), fields);
    const body = JSON.stringify({ ...fields, [description.selector]: action, [description.credential]: this.#apiKey });
    const joined = eitherSignal([this.#signal, call.signal]);
    try {
      return await this.#attempts(action, body, joined.signal, nonNegative('timeout', call.timeout, this.#settings.timeout));
    } finally {
      joined.release();
    }
  }

  /** Tells the hook of one attempt; the wait before the next one is in milliseconds, undefined after the last. */
  #report(action: string, attempt: number, outcome: AttemptReport['outcome'], status: number | null, startedAt: number, retryInMs: number | undefined): void {
    if (this.#onAttempt === undefined) return;
    const report: AttemptReport = { action, attempt, outcome, status, seconds: (performance.now() - startedAt) / 1000, retryInSeconds: retryInMs === undefined ? null : retryInMs / 1000 };
    try {
      this.#onAttempt(report);
    } catch {
      // A hook is the caller's logging: its failure must not change what the call returns.
    }
  }

  async #attempts(action: string, body: string, signal: AbortSignal | undefined, timeout: number): Promise<Record<string, unknown>> {
    const description = this.#description;
    const { maxAttempts } = this.#settings;
    for (let attempt = 1; ; attempt += 1) {
      await this.#turns.take(this.#settings.pace, signal);
      const attemptController = new AbortController();
      const attemptSignal = eitherSignal([signal, attemptController.signal]);
      let timedOut = false;
      const timer = timeout > 0 ? setTimeout(() => {
        timedOut = true;
        attemptController.abort(new TimeoutError(timeout, attempt));
      }, timeout) : undefined;
      let response: Response;
      let text: string;
      const startedAt = performance.now();
      try {
        response = await this.#fetch(this.#settings.endpoint, {
          method: description.method,
          headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': this.#settings.userAgent },
          body,
          signal: attemptSignal.signal ?? null,
          // A redirect would turn the POST into a GET: it is reported instead.
          redirect: 'manual',
        });
        text = await response.text();
      } catch (error) {
        if (signal?.aborted === true) throw abortReason(signal);
        // No answer: the action may have gone through, and a repeat is safe (it answers `changed: false`).
        const outcome = timedOut ? 'timeout' : 'connection';
        if (attempt >= maxAttempts) {
          this.#report(action, attempt, outcome, null, startedAt, undefined);
          throw timedOut ? new TimeoutError(timeout, attempt) : new ConnectionError(attempt, error);
        }
        const wait = this.#backoff(attempt);
        this.#report(action, attempt, outcome, null, startedAt, wait);
        this.#turns.holdBack(wait);
        continue;
      } finally {
        clearTimeout(timer);
        attemptSignal.release();
      }

      const parsed = isJson(response) ? parseJson(text) : undefined;
      if (response.status === description.successStatus && isRecord(parsed)) {
        this.#report(action, attempt, 'answered', response.status, startedAt, undefined);
        return parsed;
      }

      if (response.status === description.throttledStatus) {
        const header = response.headers.get(description.retryAfterHeader);
        const asked = header === null ? undefined : retryAfterDelay(header);
        const { maxRetryWait } = this.#settings;
        if (asked !== undefined && asked > maxRetryWait) {
          this.#report(action, attempt, 'answered', response.status, startedAt, undefined);
          throw new ThrottledError(response.status, asked, attempt, `the site asks to wait ${Math.ceil(asked / 1000)} s (${description.retryAfterHeader}: ${header}), longer than this client's bound of ${Math.ceil(maxRetryWait / 1000)} s: try again later`);
        }
        if (attempt >= maxAttempts) {
          this.#report(action, attempt, 'answered', response.status, startedAt, undefined);
          throw new ThrottledError(response.status, asked, attempt, `still throttled after ${attempt} attempt${attempt === 1 ? '' : 's'}${asked === undefined ? '' : `; the site asks to wait ${Math.ceil(asked / 1000)} s`}: try again later`);
        }
        // An unreadable Retry-After falls back to the client's own backoff, as the errors guide says.
        const wait = asked ?? this.#backoff(attempt);
        this.#report(action, attempt, 'answered', response.status, startedAt, wait);
        this.#turns.holdBack(wait);
        continue;
      }

      const fromService = isRecord(parsed) && typeof parsed[description.errorBody.code] === 'string';
      const retried = fromService ? response.status === description.serviceFailureStatus : description.transientHostStatuses.includes(response.status);
      if (retried && attempt < maxAttempts) {
        const wait = this.#backoff(attempt);
        this.#report(action, attempt, 'answered', response.status, startedAt, wait);
        this.#turns.holdBack(wait);
        continue;
      }
      this.#report(action, attempt, 'answered', response.status, startedAt, undefined);
      if (fromService) {
        const ErrorClass = this.#errorClasses.get(response.status) ?? ServiceError;
        throw new ErrorClass(response.status, parsed, description.errorBody);
      }
      throw new HostError(response.status, response.headers.get('content-type') ?? '', response.headers.get('location') ?? undefined);
    }
  }

  /** The wait after failed attempt number `attempt`: exponential, part of it random so that clients that failed together spread out. */
  #backoff(attempt: number): number {
    const { backoffBaseMs, backoffMaxMs, backoffFixedShare } = this.#description.policy;
    const nominal = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (attempt - 1));
    const fixed = nominal * backoffFixedShare;
    return fixed + (nominal - fixed) * Math.random();
  }

  toJSON(): ClientSettings {
    return this.#settings;
  }
}

// Node's util.inspect and console.log show this instead of the object's fields.
Object.defineProperty(ClientCore.prototype, inspectSymbol, {
  value(this: ClientCore) {
    return `ClientCore { endpoint: ${JSON.stringify(this.settings.endpoint)} }`;
  },
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
