import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import type { CodeSample, SampleLanguage } from '../../src/lib/samples/code-samples.ts';
import { codeSamples } from '../../src/lib/samples/code-samples.ts';
import { phpLiteral, pythonLiteral } from '../../src/lib/samples/literals.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { shellQuote } from '../../src/lib/samples/shell-quote.ts';
import { retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { pythonWithRequests, runsHere } from '../support/run-sample.ts';
import { bundledDocument, startRecordingServer } from '../support/reference-fixture.ts';

const run = promisify(execFile);
const model = readReferenceModel(bundledDocument());
const statuses = sampleStatuses(model.responses);
const [site] = model.endpoint.variables;
const workspace = mkdtempSync(path.join(tmpdir(), 'reference-samples-'));
after(() => rmSync(workspace, { recursive: true, force: true }));


function sampleOf(samples: CodeSample[], language: SampleLanguage): string {
  const sample = samples.find((candidate) => candidate.language === language);
  assert.ok(sample, `a ${language} sample`);
  return sample.code;
}

/** Points a sample at a local server instead of the example site; nothing else changes. */
function pointedAt(code: string, host: string): string {
  assert.ok(site);
  return code.replaceAll(`https://${site.defaultValue}`, `http://${host}`).replaceAll('https://', 'http://').replaceAll(
    JSON.stringify(site.defaultValue),
    JSON.stringify(host),
  );
}

const json = { 'Content-Type': 'application/json; charset=UTF-8' };
const html = { 'Content-Type': 'text/html; charset=UTF-8' };
const success = { status: 200, headers: json, body: '{"success":true}' };


describe('the samples run against a real HTTP server', () => {
  /** The action whose samples run, read inside each test so that a contract without it fails there. */
  const paymentFailed = () => {
    const action = model.actions.find((candidate) => candidate.identifier === 'payment_failed');
    assert.ok(action, 'the contract has the payment_failed action');
    return { action, samples: codeSamples(model.endpoint, action.requestExample.value, statuses, { envelope: model.envelope, fields: action.fields }) };
  };

  const checkRequest = (request: { method: string; url: string; headers: Record<string, unknown>; body: string } | undefined) => {
    const { action } = paymentFailed();
    assert.ok(request, 'the sample sent a request');
    assert.equal(request.method, model.endpoint.method);
    assert.equal(request.url, new URL(model.endpoint.exampleUrl).pathname);
    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(request.body), action.requestExample.value);
  };

  test('curl sends the example and fails on an error status', { skip: !runsHere('curl') && 'curl is not installed' }, async () => {
    const { samples } = paymentFailed();
    const server = await startRecordingServer([success, { status: 409, body: '{"code":"service_transition_not_allowed"}' }]);
    try {
      const script = pointedAt(sampleOf(samples, 'curl'), server.host);
      const { stdout } = await run('sh', ['-c', script]);
      assert.match(stdout, /^HTTP\/1\.1 200/);
      checkRequest(server.requests[0]);
      await assert.rejects(run('sh', ['-c', script]), (error: { code?: number; stdout?: string }) => {
        assert.equal(error.code, 22, '--fail-with-body exits with 22 on an error status');
        assert.match(error.stdout ?? '', /HTTP\/1\.1 409/);
        return true;
      });
    } finally {
      await server.close();
    }
  });

  // The three kinds of answer: a success, the service's own error, and the host's own answer,
  // which may be an HTML page and is never read as the service's error envelope.
  const serviceError = { status: 401, headers: json, body: '{"code":"service_invalid_api_key","message":"The API key is missing or invalid.","data":{"status":401}}' };
  const throttledPage = { status: Number(statuses.throttled), headers: { ...html, [statuses.retryAfter]: '120' }, body: '<html>slow down</html>' };
  const blockedPage = { status: 403, headers: html, body: '<html><body>Blocked by the firewall</body></html>' };

  test('JavaScript sends the example and tells the service from the host', async () => {
    const { samples } = paymentFailed();
    const server = await startRecordingServer([success, serviceError, throttledPage, blockedPage]);
    try {
      const file = path.join(workspace, 'sample.mjs');
      writeFileSync(file, pointedAt(sampleOf(samples, 'javascript'), server.host));
      const { stdout } = await run(process.execPath, [file]);
      assert.match(stdout, /success: true/);
      checkRequest(server.requests[0]);
      for (const expected of [
        /^(Error: |Uncaught Error: )?service_invalid_api_key$/m,
        /HTTP 429 from the host, Retry-After: 120/,
        /HTTP 403 from the host, Retry-After: (null|None)/,
      ]) {
        await assert.rejects(run(process.execPath, [file]), (error: { stderr?: string }) => {
          assert.match(error.stderr ?? '', expected);
          return true;
        });
      }
    } finally {
      await server.close();
    }
  });

  test('Python sends the example and tells the service from the host', { skip: !pythonWithRequests() && 'python3 with requests is not installed' }, async () => {
    const { samples } = paymentFailed();
    const server = await startRecordingServer([success, serviceError, throttledPage, blockedPage]);
    try {
      const file = path.join(workspace, 'sample.py');
      writeFileSync(file, pointedAt(sampleOf(samples, 'python'), server.host));
      const { stdout } = await run('python3', [file]);
      assert.match(stdout, /'success': True/);
      checkRequest(server.requests[0]);
      for (const expected of [
        /^(Error: |Uncaught Error: )?service_invalid_api_key$/m,
        /HTTP 429 from the host, Retry-After: 120/,
        /HTTP 403 from the host, Retry-After: (null|None)/,
      ]) {
        await assert.rejects(run('python3', [file]), (error: { stderr?: string }) => {
          assert.match(error.stderr ?? '', expected);
          return true;
        });
      }
    } finally {
      await server.close();
    }
  });
});

describe('the literals', () => {
  const tricky = { quote: "it's", backslash: 'a\\b', unicode: 'Zoë', list: [1, true, null], nested: {}, empty: [] };

  test('shell quoting survives a single quote', async () => {
    const { stdout } = await run('sh', ['-c', `printf %s ${shellQuote("it's \"fine\" $HOME")}`]);
    assert.equal(stdout, `it's "fine" $HOME`);
  });

  test('Python literals decode to the same JSON', { skip: !runsHere('python3') && 'python3 is not installed' }, async () => {
    const { stdout } = await run('python3', ['-c', `import json; print(json.dumps(${pythonLiteral(tricky)}))`]);
    assert.deepEqual(JSON.parse(stdout), tricky);
  });

  test('PHP literals escape quotes and backslashes', () => {
    assert.equal(phpLiteral("it's a\\b"), `'it\\'s a\\\\b'`);
    assert.equal(phpLiteral({}), 'new stdClass()');
    assert.equal(phpLiteral([]), 'array()');
  });
});

describe('the retrying client', () => {
  /** The JavaScript client, sending the first action's example; read inside each test. */
  const javascriptClient = () => {
    const [first] = model.actions;
    assert.ok(first, 'the contract has an action');
    const code = retryingClientSamples(model.endpoint, statuses, first.requestExample.value).find((sample) => sample.language === 'javascript')?.code;
    assert.ok(code !== undefined, 'a JavaScript retrying client');
    return { first, code };
  };

  test('waits out 429 as Retry-After says, in seconds and as an HTTP date, then succeeds', async () => {
    const { first, code } = javascriptClient();
    let calls = 0;
    const server = await startRecordingServer(() => {
      calls += 1;
      if (calls === 1) return { status: 429, headers: { 'Retry-After': '2' }, body: '<html>busy</html>' };
      // An HTTP date has whole seconds, so ask for a moment at least two seconds away.
      if (calls === 2) {
        return { status: 429, headers: { 'Retry-After': new Date(Date.now() + 3000).toUTCString() } };
      }
      return success;
    });
    try {
      const file = path.join(workspace, 'retrying-client.mjs');
      writeFileSync(file, pointedAt(code, server.host));
      const { stdout } = await run(process.execPath, [file]);
      assert.match(stdout, /success: true/);
      const [one, two, three] = server.requests;
      assert.ok(one && two && three && server.requests.length === 3, 'two throttled attempts, then the success');
      assert.ok(two.at - one.at >= 2000, `waited ${two.at - one.at} ms after "Retry-After: 2"`);
      assert.ok(three.at - two.at >= 1500, `waited ${three.at - two.at} ms for the HTTP date`);
      for (const request of server.requests) assert.deepEqual(JSON.parse(request.body), first.requestExample.value);
    } finally {
      await server.close();
    }
  });

  test('spaces its own requests to one site about a second apart', async () => {
    const { code } = javascriptClient();
    const server = await startRecordingServer([success]);
    try {
      const file = path.join(workspace, 'retrying-client-burst.mjs');
      // Three calls at once through one client: the client, not the server, must spread them.
      // The moments it sends are logged around `fetch`, so server load does not blur them.
      const burst = pointedAt(code, server.host).replace(
        /try \{\n {2}console\.log\(await send\(([\s\S]*)\)\);\n\} catch/,
        'const body = $1;\ntry {\n  await Promise.all([send(body), send(body), send(body)]);\n} catch',
      );
      assert.notEqual(burst, pointedAt(code, server.host), 'the usage line was found');
      const logSends = 'const fetchForReal = globalThis.fetch;\nglobalThis.fetch = (...args) => { console.log(performance.now()); return fetchForReal(...args); };\n';
      writeFileSync(file, logSends + burst);
      const { stdout } = await run(process.execPath, [file]);
      const times = stdout.trim().split('\n').map(Number);
      assert.equal(times.length, 3);
      assert.equal(server.requests.length, 3);
      for (let index = 1; index < times.length; index += 1) {
        const gap = (times[index] ?? 0) - (times[index - 1] ?? 0);
        assert.ok(gap >= retryPolicy.courtesyIntervalSeconds * 1000 - 10, `sends ${index} and ${index + 1} were ${gap} ms apart`);
      }
    } finally {
      await server.close();
    }
  });

  test('reads Retry-After in both forms', async () => {
    const { code } = javascriptClient();
    const file = path.join(workspace, 'retry-after.mjs');
    const parserStart = code.indexOf('/**\n * Milliseconds to wait');
    const onlyTheParser = code.slice(parserStart, code.indexOf('/** The wait after failed attempt'));
    assert.ok(parserStart >= 0 && onlyTheParser.includes('export function retryAfter'));
    writeFileSync(
      file,
      `${onlyTheParser}
const now = Date.parse('Fri, 20 Nov 2026 14:00:00 GMT');
console.log(JSON.stringify([
  retryAfter('120', now),
  retryAfter(' 0 ', now),
  retryAfter('Fri, 20 Nov 2026 14:05:00 GMT', now),
  retryAfter('Fri, 20 Nov 2026 13:00:00 GMT', now),
  retryAfter('soon', now),
  retryAfter(null, now),
]));
`,
    );
    const { stdout } = await run(process.execPath, [file]);
    assert.deepEqual(JSON.parse(stdout), [120000, 0, 300000, 0, null, null]);
  });
});
