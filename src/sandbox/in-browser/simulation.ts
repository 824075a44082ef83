import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import type { Answer } from '../answer.ts';
import { errorAnswer } from '../answer.ts';
import { answerRequest } from '../answer-request.ts';
import { utf8Bytes } from '../bytes.ts';
import { bodyLimitBytes, hostErrorHeader, throttleHeader } from '../host.ts';
import type { MemoryStore, MemoryStoreState } from '../memory-store.ts';
import { createMemoryStore } from '../memory-store.ts';
import { defaultApiKey, exampleStarts, sandboxSeed } from '../seed.ts';
import type { Subscription } from '../store.ts';

/** A request as the page's panel sends it to the simulation: what curl would send. */
export interface SimulatedRequest {
  method: string;
  /** The path and query, as on the request line. */
  target: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** The site the request was sent to (`https://shop.example/sub`), which `Link` names, as WordPress's own URL; by default the simulation's. */
  siteUrl?: string;
}

/** The answer as it comes over the wire from `npm run sandbox`, less the headers of the connection. */
export interface SimulatedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Host answers asked for ahead of time, each for one request: the throttle and host-error switches. */
export interface QueuedHostAnswers {
  throttle: { count: number; retryAfter: string };
  hostError: { count: number; status: number };
}

export interface SimulationState {
  store: MemoryStoreState;
  queued: QueuedHostAnswers;
}

export interface Simulation {
  send(request: SimulatedRequest): SimulatedAnswer;
  /** The answer the request would get, on a copy of the store: nothing changes and no queued host answer is used. */
  check(request: SimulatedRequest): SimulatedAnswer;
  /** The next `count` requests answer as a throttling host, `Retry-After: retryAfter`; then requests pass again. */
  throttleNext(count: number, retryAfter: string): void;
  /** The next `count` requests answer with a host's error page. */
  hostErrorNext(count: number, status: number): void;
  subscriptions(): Subscription[];
  state(): SimulationState;
  /** The seed again, and no host answer queued. */
  reset(): void;
  readonly apiKey: string;
}

const nothingQueued = (): QueuedHostAnswers => ({ throttle: { count: 0, retryAfter: '1' }, hostError: { count: 0, status: 503 } });

/**
 * `npm run sandbox` without the server: the sandbox's own stages (answerRequest) over a memory
 * store holding its seed and the examples' subscriptions, with its default key, answering as
 * Node's HTTP server sends (a `content-length`, no body to a HEAD). It reads no file and opens no connection.
 */
export function createSimulation(contract: ExecutableContract, from?: SimulationState, siteUrl?: string): Simulation {
  const { lifecycle } = contract.model;
  const starts = exampleStarts(contract);
  const fresh = (): MemoryStore => {
    const store = createMemoryStore(lifecycle.states);
    store.addMissing(sandboxSeed(contract));
    return store;
  };
  let store = from === undefined ? fresh() : createMemoryStore(lifecycle.states, from.store);
  let queued: QueuedHostAnswers = from === undefined ? nothingQueued() : structuredClone(from.queued);

  function queuedHostHeaders(): Record<string, string> {
    if (queued.throttle.count > 0) {
      queued.throttle.count -= 1;
      return { [throttleHeader.toLowerCase()]: queued.throttle.retryAfter };
    }
    if (queued.hostError.count > 0) {
      queued.hostError.count -= 1;
      return { [hostErrorHeader.toLowerCase()]: String(queued.hostError.status) };
    }
    return {};
  }

  function answerOn(target: MemoryStore, request: SimulatedRequest, hostHeaders: Record<string, string>): SimulatedAnswer {
    const bytes = typeof request.body === 'string' ? utf8Bytes(request.body) : request.body;
    let answer: Answer;
    try {
      const site = request.siteUrl ?? siteUrl;
      answer = answerRequest(contract, target, { apiKey: defaultApiKey, basePath: '', exampleStarts: starts, ...(site === undefined ? {} : { siteUrl: site }) }, {
        method: request.method,
        target: request.target,
        headers: { ...request.headers, ...hostHeaders },
        body: bytes.length > bodyLimitBytes ? bytes.subarray(0, bodyLimitBytes) : bytes,
        tooLarge: bytes.length > bodyLimitBytes,
      });
    } catch {
      // As the Node sandbox does: whatever failed, nothing was written, and the documented 500 says so.
      answer = errorAnswer(contract, contract.errors.internalError, contract.errors.internalError.message);
    }
    const headers = { ...answer.headers, 'content-length': String(utf8Bytes(answer.body).length) };
    return { status: answer.status, headers, body: request.method.toUpperCase() === 'HEAD' ? '' : answer.body };
  }

  return {
    apiKey: defaultApiKey,
    send: (request) => answerOn(store, request, queuedHostHeaders()),
    check: (request) => answerOn(createMemoryStore(lifecycle.states, store.state()), request, {}),
    throttleNext(count, retryAfter) {
      queued.throttle = { count, retryAfter };
    },
    hostErrorNext(count, status) {
      queued.hostError = { count, status };
    },
    subscriptions: () => store.list(),
    state: () => ({ store: store.state(), queued: structuredClone(queued) }),
    reset() {
      store = fresh();
      queued = nothingQueued();
    },
  };
}
