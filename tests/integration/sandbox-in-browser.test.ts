/**
 * The sandbox the pages run in the reader's browser answers exactly as `npm run sandbox` does:
 * the project's WordPress battery, every request of it in order, sent over HTTP to the sandbox
 * the command starts and to the browser build running in a real dedicated worker in Chromium,
 * under a page policy without `unsafe-eval` and a worker policy of `default-src 'none'`. Status,
 * headers and body must be the same, request by request (less the headers of the connection,
 * which Node's server writes and the simulation has none of).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from '@playwright/test';
import { buildSandboxWorker } from '../../scripts/build-sandbox-worker.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { curlCommand, type SentRequest } from '../../src/components/reference/try-it/exchange.ts';
import { bodyLimitBytes, throttleHeader } from '../../src/sandbox/host.ts';
import { createSimulation } from '../../src/sandbox/in-browser/simulation.ts';
import { defaultApiKey, sandboxSeed } from '../../src/sandbox/seed.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';
import { requestBattery, type BatteryRequest } from '../support/wordpress-battery.ts';

interface Exchange {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What only a real connection has: Node's server writes these, a simulation has no connection. */
const connectionHeaders = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

let contract: ExecutableContract;
let sandboxProcess: ChildProcess;
let sandboxUrl: string;
let pageServer: Server;
let pageUrl: string;
let browser: Browser;
let page: Page;
let scratch: string;
const workerPolicy = "default-src 'none'";
const pagePolicy = "default-src 'none'; script-src 'self'; worker-src 'self'";

/** `npm run sandbox -- --port 0 …`, with its base URL once it serves. */
function spawnSandbox(args: string[]): { child: ChildProcess; started: Promise<string> } {
  const child = spawn(process.execPath, [path.join(projectDirectory, 'scripts/sandbox.ts'), '--port', '0', ...args], { cwd: projectDirectory, stdio: ['ignore', 'pipe', 'inherit'] });
  const started = new Promise<string>((resolve, reject) => {
    let printed = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const served = /Sandbox of \S+ (http:\/\/127\.0\.0\.1:\d+)\//.exec(printed);
      if (served?.[1] !== undefined) resolve(served[1]);
    });
    child.once('exit', (code) => reject(new Error(`npm run sandbox stopped (${code}) before it served: ${printed}`)));
  });
  return { child, started };
}

/** `npm run sandbox -- --port 0 --seed FILE`, the seed being the one the pages' sandbox starts from. */
function startSandboxCommand(seedFile: string): Promise<string> {
  const { child, started } = spawnSandbox(['--seed', seedFile]);
  sandboxProcess = child;
  return started;
}

/** One request over plain HTTP, as given, and the whole answer. */
function sendOverHttp(request: BatteryRequest): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const length = request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) };
    const outgoing = httpRequest(new URL(`${sandboxUrl}${request.target}`), { method: request.method, headers: { ...request.headers, ...length }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (!connectionHeaders.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

before(async () => {
  contract = readExecutableContract(bundledDocument());
  scratch = mkdtempSync(path.join(tmpdir(), 'sandbox-in-browser-'));
  const workerFile = path.join(scratch, 'sandbox-worker.js');
  const seedFile = path.join(scratch, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(sandboxSeed(contract)));
  const [startedUrl] = await Promise.all([startSandboxCommand(seedFile), buildSandboxWorker(projectDirectory, workerFile)]);
  sandboxUrl = startedUrl;
  const workerScript = readFileSync(workerFile);
  pageServer = createServer((request, response) => {
    if (request.url === '/sandbox-worker.js') {
      response.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': workerPolicy });
      response.end(workerScript);
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': pagePolicy });
      response.end('<!DOCTYPE html><html lang="en"><title>worker</title><p>worker</p></html>');
    }
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
  browser = await chromium.launch(chromiumLaunchOptions());
  page = await browser.newPage();
  await page.goto(pageUrl);
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
  sandboxProcess?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

/** Sends the requests, in order, to the sandbox's worker in the page; nothing leaves the page. */
async function sendInBrowser(requests: BatteryRequest[], siteUrl: string): Promise<Exchange[]> {
  const { host } = new URL(siteUrl);
  const plain = requests.map((request) => ({
    method: request.method,
    target: request.target,
    headers: { host, ...request.headers, ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }) },
    body: request.body === undefined ? [] : [...(typeof request.body === 'string' ? Buffer.from(request.body) : request.body)],
  }));
  return page.evaluate(async ({ batch, site }) => {
    const worker = new Worker('/sandbox-worker.js', { type: 'module' });
    const ask = (question: object) =>
      new Promise<{ answer?: { status: number; headers: Record<string, string>; body: string } }>((resolve, reject) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage(question);
      });
    await ask({ kind: 'start', id: 0, siteUrl: site });
    const answers = [];
    for (const [index, request] of batch.entries()) {
      const reply = await ask({ kind: 'send', id: index + 1, request: { ...request, body: new Uint8Array(request.body) } });
      if (reply.answer === undefined) throw new Error(`no answer to request ${index}`);
      answers.push(reply.answer);
    }
    worker.terminate();
    return answers;
  }, { batch: plain, site: siteUrl });
}

test('the whole WordPress battery answers identically from npm run sandbox and from the browser build in a worker', async () => {
  const seed = sandboxSeed(contract);
  const requests = requestBattery(contract, { apiKey: defaultApiKey, unknownId: seed.length + 1000, lifecycleIds: seed });
  assert.ok(requests.length > 300, `the battery holds ${requests.length} requests`);
  const overHttp: Exchange[] = [];
  for (const request of requests) overHttp.push(await sendOverHttp(request));
  const inBrowser = await sendInBrowser(requests, sandboxUrl);
  assert.equal(inBrowser.length, requests.length);
  const differences = requests.flatMap((request, index) => {
    const expected = overHttp[index];
    const actual = inBrowser[index];
    try {
      assert.deepEqual(actual, expected);
      return [];
    } catch {
      return [`${index} ${request.name}: ${JSON.stringify(actual).slice(0, 400)}\n  expected ${JSON.stringify(expected).slice(0, 400)}`];
    }
  });
  assert.deepEqual(differences, []);
  // The battery moved subscriptions, so the lifecycle ran on both sides, not only the refusals.
  assert.ok(overHttp.some((answer) => answer.status === 200 && answer.body.includes(`"${contract.result.changed}":true`)));
});

test('the worker script reaches nothing: no fetch, import or connection in it, and the policy it is served with allows none', async () => {
  const script = readFileSync(path.join(scratch, 'sandbox-worker.js'), 'utf8');
  assert.doesNotMatch(script, /\b(fetch|importScripts|XMLHttpRequest|WebSocket|EventSource|sendBeacon)\b|\bimport\s*\(|^import\s/m);
  const response = await page.request.get(new URL('/sandbox-worker.js', pageUrl).href);
  assert.equal(response.headers()['content-security-policy'], workerPolicy);
});

test('npm run sandbox -- --throttle-next 2 answers the next two requests as a throttling host, then lets requests through', async () => {
  const { child, started } = spawnSandbox(['--throttle-next', '2', '--retry-after', '3']);
  try {
    const url = await started;
    const [action] = contract.model.actions;
    assert.ok(action !== undefined);
    const body = JSON.stringify({ ...action.requestExample.value, [contract.model.envelope.credential]: defaultApiKey });
    const statuses: number[] = [];
    const retryAfters: (string | null)[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await fetch(`${url}${contract.model.endpoint.urlPath}`, { method: contract.model.endpoint.method, headers: { 'content-type': 'application/json' }, body });
      statuses.push(response.status);
      retryAfters.push(response.headers.get(contract.retryAfterHeader));
      await response.body?.cancel();
    }
    const throttled = Number(contract.throttled.status);
    assert.deepEqual(statuses.slice(0, 2), [throttled, throttled]);
    assert.notEqual(statuses[2], throttled);
    assert.deepEqual(retryAfters.slice(0, 2), ['3', '3']);
  } finally {
    child.kill('SIGTERM');
  }
});

test('“Copy as curl” copies a command that gets from npm run sandbox the answer the page showed', async () => {
  const { child, started } = spawnSandbox(['--seed', path.join(scratch, 'seed.json')]);
  try {
    const url = await started;
    const simulation = createSimulation(contract);
    const { envelope, endpoint } = contract.model;
    const [action] = contract.model.actions;
    assert.ok(action !== undefined);
    const example = { ...action.requestExample.value, [envelope.credential]: defaultApiKey };
    // Bodies past what one argument of a command may hold (128 KiB on Linux), the 413's included: curl reads them from a heredoc.
    const bodies: [string, Record<string, unknown>, [string, string][], number][] = [
      ['the example', example, [], 0],
      ['the example again', example, [], 0],
      ['a field of the wrong type', { ...example, [envelope.subject]: 'x' }, [], 0],
      ['a throttled request', example, [[throttleHeader, '2']], 0],
      ['a body larger than one argument', { ...example, [envelope.subject]: 'x' }, [], 200 * 1024],
      ['a body larger than the host takes', example, [], bodyLimitBytes + 1],
    ];
    for (const [name, value, extraHeaders, padding] of bodies) {
      const text = `${JSON.stringify(value, null, 2)}${' '.repeat(padding)}`;
      const sent: SentRequest = {
        method: endpoint.method,
        baseUrl: url,
        target: endpoint.urlPath,
        headers: [['Host', new URL(url).host], ['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(text))], ...extraHeaders],
        body: text,
      };
      const shown = simulation.send({ method: sent.method, target: sent.target, headers: Object.fromEntries(sent.headers.map(([header, headerValue]) => [header.toLowerCase(), headerValue])), body: sent.body });
      // As a reader pastes it: the command goes to bash on its standard input.
      const run = spawnSync('bash', [], { input: curlCommand(sent), encoding: 'utf8', maxBuffer: 4 * bodyLimitBytes });
      assert.equal(run.status, 0, run.stderr);
      // curl asks a large body's way with `Expect: 100-continue`, and shows the interim answer too.
      const [head = '', ...rest] = run.stdout.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '').split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const received = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]).filter(([header]) => !connectionHeaders.has(header ?? '')));
      assert.equal(Number(statusLine.split(' ')[1]), shown.status, name);
      assert.deepEqual(received, Object.fromEntries(Object.entries(shown.headers).filter(([header]) => !connectionHeaders.has(header))), name);
      assert.equal(rest.join('\r\n\r\n'), shown.body, name);
    }
  } finally {
    child.kill('SIGTERM');
  }
});
