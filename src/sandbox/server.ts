import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { Answer } from './answer.ts';
import { errorAnswer } from './answer.ts';
import { answerRequest, type SandboxRequest, type SandboxSettings } from './answer-request.ts';
import { bodyLimitBytes, hostErrorHeader, throttleHeader } from './host.ts';
import { checkSeed, defaultApiKey, exampleStarts, readSeedFile, sandboxSeed } from './seed.ts';
import type { HistoryEntry, Subscription } from './store.ts';
import { openStore } from './store.ts';

export interface SandboxOptions {
  /** TCP port; `0` picks a free one (read it from `url`). Default 8787. */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The site's API key. Default `sandbox-key-not-a-secret`. */
  apiKey?: string;
  /** A seed file (`[{"id": 1, "status": "active"}, ...]`) or the subscriptions themselves. */
  seed?: string | readonly Subscription[];
  /** The SQLite file to keep subscriptions in, or `:memory:` (the default). */
  db?: string;
  /** Serve the endpoint under this path, as a WordPress site installed in a subdirectory (`/shop`). */
  basePath?: string;
  /** The project whose contract to serve, after the gate. Default: this repository. */
  projectDirectory?: string;
  /**
   * The contract to serve, read from a bundled document that already passed the gate
   * (`readExecutableContract`); `projectDirectory` is then not read and the gate does not run.
   */
  contract?: ExecutableContract;
  /** Receives one line per request; silent by default. */
  log?: (line: string) => void;
  /** Receives what went wrong when a request fails inside the sandbox (the client gets the 500). Default: standard error. */
  logError?: (line: string) => void;
  /** How long a request waits for another process's write lock on the same file. Default 5000 ms. */
  busyTimeoutMs?: number;
}

export interface Sandbox {
  /** The site's base URL, the specification's `{base_url}`: `http://127.0.0.1:PORT` plus any base path. */
  url: string;
  /** The endpoint's full URL: `url` plus `/wp-json/service/v1/action`. */
  endpointUrl: string;
  apiKey: string;
  /** The subscriptions as stored now, by ID. */
  subscriptions(): Subscription[];
  /** The status changes of one subscription, oldest first, with their notes. */
  history(subscriptionId: number): HistoryEntry[];
  /** The subscriptions the seed added at this start (none when the database already had them). */
  seeded: Subscription[];
  /**
   * Answers the next `count` requests as a throttling host, as if each carried
   * `Sandbox-Throttle: retryAfter`: for a test of a client that cannot add the header, such as a
   * code sample. Nothing reaches the subscriptions.
   */
  throttleNext(count: number, retryAfter: string): void;
  /** Answers the next `count` requests with a host's error page (403, 502, 503 or 504), as `Sandbox-Host-Error` does. */
  hostErrorNext(count: number, status: number): void;
  contract: ExecutableContract;
  close(): Promise<void>;
}

export const defaultPort = 8787;

export { answerRequest };
export type { SandboxRequest, SandboxSettings } from './answer-request.ts';

/** Reads the body and hands it on when it has all come; a request that fails on the way is dropped. */
function readBody(request: IncomingMessage, received: (body: Buffer, tooLarge: boolean) => void, failed: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    // Past the limit the rest is read and dropped, so the answer reaches a client still sending.
    if (size <= bodyLimitBytes) chunks.push(chunk);
  });
  // Called back rather than through a promise: a request then costs no extra turn of the queue.
  request.on('end', () => received(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), size > bodyLimitBytes));
  request.on('error', failed);
}

function send(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
  response.end(answer.body);
}

function normaliseBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  return `/${basePath.replace(/^\/+|\/+$/g, '')}`;
}

async function gatedProjectContract(projectDirectory: string | undefined): Promise<ExecutableContract> {
  // Imported only here, so that a program serving a bundled document never loads the gate (and Redocly).
  const { loadGatedContract } = await import('./contract-gate.ts');
  return loadGatedContract(path.resolve(projectDirectory ?? path.join(import.meta.dirname, '../..')));
}

/** The sandbox without its HTTP server: the same contract, database, seed and answers, in this process. */
export interface LocalSandbox extends Omit<Sandbox, 'url' | 'endpointUrl' | 'close'> {
  /** The path the endpoint is served under (`''` or `/shop`), as `SandboxOptions.basePath` normalised. */
  basePath: string;
  /** Answers one request exactly as the HTTP server does, host answers a test queued first. */
  answer(request: SandboxRequest): Answer;
  /** The address the sandbox is served at, which `Link` and the REST index name from then on. */
  serveAt(siteUrl: string): void;
  close(): void;
}

/**
 * Opens the sandbox in this process: runs the contract gate unless given a contract (and refuses
 * a contract that fails it), opens the database and adds the seed. `startSandbox` serves it over
 * HTTP; a test that needs no socket sends it requests through `answer`.
 */
export async function openSandbox(options: Omit<SandboxOptions, 'port' | 'host'> = {}): Promise<LocalSandbox> {
  const contract = options.contract ?? (await gatedProjectContract(options.projectDirectory));
  const apiKey = options.apiKey ?? defaultApiKey;
  if (apiKey === '') throw new Error('The API key must not be empty.');
  const basePath = normaliseBasePath(options.basePath);
  const { seed } = options;
  const fromSeed = typeof seed === 'string' ? readSeedFile(contract, seed) : seed === undefined ? undefined : checkSeed(contract, seed, 'the seed');

  const store = openStore(options.db ?? ':memory:', contract.model.lifecycle.states, options.busyTimeoutMs);
  let seeded: Subscription[];
  try {
    seeded = store.addMissing(fromSeed ?? (store.isEmpty() ? sandboxSeed(contract) : []));
  } catch (error) {
    store.close();
    throw error;
  }
  const log = options.log;
  const logError = options.logError ?? ((line: string) => console.error(line));

  // Host answers a test asked for ahead of time, each standing for the header that asks for it.
  const queuedHostHeaders: Record<string, string>[] = [];
  // Without a seed of the reader's, the examples' subscriptions answer each example as its page shows.
  const settings: SandboxSettings = { apiKey, basePath, ...(fromSeed === undefined ? { exampleStarts: exampleStarts(contract) } : {}) };

  return {
    apiKey,
    basePath,
    contract,
    seeded,
    subscriptions: () => store.list(),
    history: (subscriptionId) => store.history(subscriptionId),
    throttleNext: (count, retryAfter) => {
      for (let index = 0; index < count; index += 1) queuedHostHeaders.push({ [throttleHeader.toLowerCase()]: retryAfter });
    },
    hostErrorNext: (count, status) => {
      for (let index = 0; index < count; index += 1) queuedHostHeaders.push({ [hostErrorHeader.toLowerCase()]: String(status) });
    },
    answer: (request) => {
      let answer: Answer;
      try {
        const queued = queuedHostHeaders.shift();
        answer = answerRequest(contract, store, settings, queued === undefined ? request : { ...request, headers: { ...request.headers, ...queued } });
      } catch (error) {
        // Whatever failed, the transaction was rolled back: the documented 500 says nothing changed.
        logError(`sandbox: ${request.method} ${request.target} failed: ${(error as Error).stack ?? String(error)}`);
        answer = errorAnswer(contract, contract.errors.internalError, contract.errors.internalError.message);
      }
      log?.(logLine(contract, request, answer));
      return answer;
    },
    serveAt: (siteUrl) => {
      settings.siteUrl = siteUrl;
    },
    close: () => store.close(),
  };
}

/**
 * The line logged for one request: what was asked, the status, and the wait a throttled answer
 * asks for (`-> 429 Retry-After: 1`) or the service's JSON body, so a reader watching a client
 * retry sees what it was told.
 */
export function logLine(contract: ExecutableContract, request: { method: string; target: string }, answer: Answer): string {
  const retryAfter = Object.entries(answer.headers).find(([name]) => name.toLowerCase() === contract.retryAfterHeader.toLowerCase())?.[1];
  const detail = retryAfter !== undefined ? `${contract.retryAfterHeader}: ${retryAfter}` : answer.body.startsWith('{') ? answer.body : '';
  return `${request.method} ${request.target} -> ${answer.status} ${detail}`.trimEnd();
}

/** Opens the sandbox (`openSandbox`) and serves the endpoint over HTTP until `close()`. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const local = await openSandbox(options);
  const server = createServer((request, response) => {
    readBody(
      request,
      (body, tooLarge) => send(response, local.answer({ method: request.method ?? '', target: request.url ?? '', headers: request.headers, body, tooLarge })),
      () => response.destroy(),
    );
  });
  // A client that never finishes its request does not hold a connection for ever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? defaultPort, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    local.close();
    throw error;
  });

  const address = server.address() as AddressInfo;
  const hostName = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostName}:${address.port}${local.basePath}`;
  local.serveAt(url);
  const { answer: _answer, basePath: _basePath, serveAt: _serveAt, close: closeStore, ...sandbox } = local;
  return {
    ...sandbox,
    url,
    endpointUrl: `${url}${local.contract.model.endpoint.urlPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          closeStore();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
