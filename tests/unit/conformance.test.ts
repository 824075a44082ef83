import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient, isLoopback, retryAfterSeconds } from '../../src/conformance/client.ts';
import { conformanceSeed } from '../../src/conformance/own-sandbox.ts';
import { coverageMatrix, junitXml, mismatchDetails } from '../../src/conformance/report.ts';
import { runConformance } from '../../src/conformance/runner.ts';
import { reachableByMoves } from '../../src/lib/lifecycle.ts';
import { throttleHeader } from '../../src/sandbox/host.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { projectDirectory } from './contract-copy.ts';

const workDirectory = mkdtempSync(path.join(tmpdir(), 'conformance-test-'));
let sandbox: Sandbox;

before(async () => {
  sandbox = await startSandbox({ port: 0 });
});
after(async () => {
  await sandbox.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/**
 * A deployment that answers off the contract: a real HTTP proxy in front of a sandbox that turns
 * every 409 into a 400, body untouched, as a plugin with a wrong status code would.
 */
async function offContractProxy(target: Sandbox): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target.url);
  const server: Server = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode === 409 ? 400 : (answer.statusCode ?? 502), answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the conformance suite against the sandbox', () => {
  test('passes with every cell of the matrix reached, given a subscription for every case', async () => {
    const own = await startSandbox({ port: 0, seed: conformanceSeed(sandbox.contract) });
    try {
      const report = await runConformance({
        contract: own.contract,
        baseUrl: own.url,
        apiKey: own.apiKey,
        subscriptions: own.subscriptions().map((subscription) => subscription.id),
        imitatesHost: true,
        throttleHeader,
      });
      assert.deepEqual(report.fatal, []);
      assert.deepEqual(mismatchDetails(report, own.apiKey), []);
      assert.equal(report.results.filter((result) => result.status === 'skipped').length, 0);
      const lifecycle = report.results.filter((result) => result.case.group === 'lifecycle');
      const { actions, lifecycle: { states } } = own.contract.model;
      for (const action of actions) {
        for (const state of states) {
          assert.ok(lifecycle.some((result) => result.case.action === action.identifier && result.case.fromStatus === state), `${action.identifier} from ${state}`);
        }
      }
      for (const outcome of ['changed', 'unchanged', 'refused']) assert.ok(lifecycle.some((result) => result.case.outcome === outcome));
      assert.ok(coverageMatrix(own.contract, report).some((line) => line.startsWith('pause_subscription')));
    } finally {
      await own.close();
    }
  });

  test('moves only the named subscriptions, reports what it could not reach, and puts them back where it can', async () => {
    const subdirectory = await startSandbox({ port: 0, basePath: '/shop' });
    try {
      const named = subdirectory.subscriptions().filter((subscription) => subscription.status !== 'pending').map((subscription) => subscription.id);
      const untouched = subdirectory.subscriptions().find((subscription) => subscription.status === 'pending');
      const report = await runConformance({
        contract: subdirectory.contract,
        baseUrl: subdirectory.url,
        apiKey: subdirectory.apiKey,
        subscriptions: named,
        throttleHeader,
      });
      assert.deepEqual(mismatchDetails(report, subdirectory.apiKey), []);
      assert.ok(report.results.some((result) => result.status === 'skipped' && result.case.fromStatus === 'pending'), 'nothing can be moved to pending');
      assert.ok(report.results.filter((result) => result.status === 'passed').length > 100);
      assert.ok(untouched);
      assert.deepEqual(subdirectory.history(untouched.id), [], 'the subscription not named is never changed');
      const changeStatus = subdirectory.contract.action('change_status')?.transition;
      assert.ok(changeStatus?.kind === 'chosen');
      for (const subscription of report.subscriptions) {
        assert.equal(subscription.after, subdirectory.subscriptions().find((stored) => stored.id === subscription.id)?.status);
        if (!subscription.restored) {
          assert.equal(reachableByMoves(changeStatus, subscription.after ?? '').has(subscription.before ?? ''), false, `subscription ${subscription.id} could have been put back`);
        }
      }
    } finally {
      await subdirectory.close();
    }
  });

  test('fails against a deployment that turns a 409 into a 400, naming the case, the expectation and the answer', async () => {
    const proxy = await offContractProxy(sandbox);
    try {
      const report = await runConformance({
        contract: sandbox.contract,
        baseUrl: proxy.url,
        apiKey: sandbox.apiKey,
        subscriptions: sandbox.subscriptions().map((subscription) => subscription.id),
        imitatesHost: true,
        throttleHeader,
      });
      const failed = report.results.filter((result) => result.status === 'failed');
      assert.ok(failed.length > 0);
      assert.ok(failed.every((result) => result.case.outcome === 'refused'), 'only the refusals fail');
      const details = mismatchDetails(report, sandbox.apiKey).join('\n');
      assert.match(details, /✖ pause_subscription from trial/);
      assert.match(details, /expected status 409, got 400/);
      assert.match(details, /`data\.status` is 409, not the HTTP status 400|against #\/components\/schemas\/BadRequestError/);
      assert.doesNotMatch(details, new RegExp(sandbox.apiKey), 'the key is never printed');
      const xml = junitXml(report, sandbox.apiKey);
      assert.match(xml, /<testcase classname="conformance\.lifecycle\.pause_subscription" name="pause_subscription from trial" time="0">\n\s*<failure /);
    } finally {
      await proxy.close();
    }
  });

  test('from the command line: exit 1, the case named, and a JUnit file', async () => {
    const proxy = await offContractProxy(sandbox);
    const junit = path.join(workDirectory, 'report.xml');
    try {
      const ids = sandbox.subscriptions().flatMap((subscription) => ['--subscription', String(subscription.id)]);
      const child = spawn(
        process.execPath,
        [path.join(projectDirectory, 'scripts/conformance.ts'), '--base-url', proxy.url, '--api-key', sandbox.apiKey, ...ids, '--junit', junit],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 1, output);
      assert.match(output, /✖ .+ from .+\n {4}request: {2}POST http:\/\/127\.0\.0\.1:\d+\/wp-json\/service\/v1\/action .*"<API_KEY>"/);
      assert.match(output, /The deployment does not answer as the document says/);
      assert.match(readFileSync(junit, 'utf8'), /<failure message="expected status 409, got 400"/);
    } finally {
      await proxy.close();
    }
  });
});

describe('the client', () => {
  test('keeps the courtesy pace only away from loopback', () => {
    assert.equal(isLoopback('http://127.0.0.1:8787'), true);
    assert.equal(isLoopback('http://localhost:8787/shop'), true);
    assert.equal(isLoopback('http://[::1]:8787'), true);
    assert.equal(isLoopback('https://shop.example'), false);
  });

  test('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(retryAfterSeconds('120'), 120);
    assert.equal(retryAfterSeconds('Fri, 20 Nov 2026 14:05:00 GMT', Date.parse('Fri, 20 Nov 2026 14:04:00 GMT')), 60);
    assert.equal(retryAfterSeconds('soon'), undefined);
  });

  test('waits out a 429 as Retry-After says and sends the request again', async () => {
    let calls = 0;
    const server = createServer((_, response) => {
      calls += 1;
      if (calls === 1) response.writeHead(429, { 'retry-after': '1', 'content-type': 'text/html' }).end('<p>slow down</p>');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, paceMs: 0, throttledStatus: 429 });
      const exchange = await client.send({ method: 'POST', path: '/', headers: {}, body: '{}' });
      assert.equal(exchange.answer?.status, 200);
      assert.equal(exchange.throttledRetries, 1);
      assert.equal(calls, 2);
    } finally {
      server.close();
    }
  });
});
