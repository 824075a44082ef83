import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import type { SampleLanguage } from '../../src/lib/samples/code-samples.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { jsonMediaType } from '../../src/lib/contract/request-body.ts';
import { serviceFailureResponse, successResponse } from '../../src/lib/contract/response-lookups.ts';
import { backoffRangeSeconds, retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { retryingClientLanguages, retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { missingRunner, runSample } from '../support/run-sample.ts';
import { bundledDocument, startRecordingServer, type RecordedRequest, type ScriptedAnswer } from '../support/reference-fixture.ts';

/**
 * The retry policy, proved by running the retrying clients of the errors guide, in every
 * language it shows them in, against a real HTTP server that answers as a shop's host might. The waits are
 * measured where the server receives the attempts; the server asks for `Retry-After: 1` so the
 * real waits stay short.
 */

const model = readReferenceModel(bundledDocument());
const statuses = sampleStatuses(model.responses);
const failure = serviceFailureResponse(model.responses);

/**
 * What every test sends and expects, read from the contract. Asked inside each test, so a
 * contract that lacks one of them fails the tests that need it, with the reason.
 */
function contractParts() {
  const site = model.endpoint.variables[0];
  assert.ok(site, 'the endpoint has a site variable');
  const firstAction = model.actions[0];
  assert.ok(firstAction, 'the contract has an action');
  const [failureExample] = failure.examples;
  assert.ok(failureExample, 'the service failure has an example');
  const success = successResponse(model.responses).examples.find((example) => example.name === firstAction.identifier);
  assert.ok(success, `the success response has an example named ${firstAction.identifier}`);
  return { site, firstAction, failureExample, success };
}

/**
 * Milliseconds a wait may run late, on top of what is asked. The lower bound is what the policy
 * demands; the upper one only catches a client that misreads the wait (minutes for seconds, its
 * own longest backoff for Retry-After), which waits far longer, and is kept far from what a busy
 * machine adds to a right one.
 */
const lateness = 5000;

const json = { 'Content-Type': 'application/json; charset=UTF-8' };
const html = { 'Content-Type': 'text/html; charset=UTF-8' };

/** Runs one language's retrying client, pointed at the server and with `change` applied to its source. */
async function runClient(language: SampleLanguage, host: string, change: (code: string) => string = (code) => code) {
  const { site, firstAction } = contractParts();
  const sample = retryingClientSamples(model.endpoint, statuses, firstAction.requestExample.value).find((candidate) => candidate.language === language);
  assert.ok(sample, `a ${language} retrying client`);
  const pointed = sample.code.replaceAll('https://', 'http://').replaceAll(site.defaultValue, host);
  assert.notEqual(pointed, sample.code, 'the client names the example site');
  const result = await runSample(sample, change(pointed), 60_000);
  return { ok: result.exitCode === 0, stdout: result.stdout, stderr: result.stderr, code: result.exitCode };
}

/** Sets one number of the policy in a client's source, the way a reader would edit it. */
function withSetting(language: SampleLanguage, setting: 'maxAttempts' | 'attemptTimeout', value: number): (code: string) => string {
  const settings: Partial<Record<SampleLanguage, Record<typeof setting, { pattern: RegExp; replacement: string }>>> = {
    javascript: {
      maxAttempts: { pattern: /maxAttempts: \d+,/, replacement: `maxAttempts: ${value},` },
      attemptTimeout: { pattern: /attemptTimeout: \d+,/, replacement: `attemptTimeout: ${value},` },
    },
    php: {
      maxAttempts: { pattern: /^const MAX_ATTEMPTS( +)= \d+;/m, replacement: `const MAX_ATTEMPTS$1= ${value};` },
      attemptTimeout: { pattern: /^const ATTEMPT_TIMEOUT( +)= \d+;/m, replacement: `const ATTEMPT_TIMEOUT$1= ${value / 1000};` },
    },
    python: {
      maxAttempts: { pattern: /^MAX_ATTEMPTS = \d+/m, replacement: `MAX_ATTEMPTS = ${value}` },
      attemptTimeout: { pattern: /^READ_TIMEOUT = \d+/m, replacement: `READ_TIMEOUT = ${value / 1000}` },
    },
  };
  return (code) => {
    const edit = settings[language]?.[setting];
    assert.ok(edit, `the test knows how to set ${setting} in the ${language} client`);
    assert.match(code, edit.pattern, `the ${language} client has the ${setting} setting`);
    return code.replace(edit.pattern, edit.replacement);
  };
}

function gaps(requests: RecordedRequest[]): number[] {
  return requests.slice(1).map((request, index) => request.at - (requests[index]?.at ?? request.at));
}

function assertSameRequest(requests: RecordedRequest[]): void {
  const { firstAction } = contractParts();
  for (const request of requests) {
    assert.equal(request.method, model.endpoint.method);
    assert.equal(request.url, new URL(model.endpoint.exampleUrl).pathname);
    assert.deepEqual(JSON.parse(request.body), firstAction.requestExample.value, 'every attempt sends the same request');
  }
}

/** Every language the errors guide has a retrying client in. */
const languages = retryingClientLanguages.map((language) => ({ language, skip: missingRunner(language) }));

for (const { language, skip } of languages) {
  describe(`[7.1] the ${language} retrying client follows the retry policy`, { skip }, () => {
    test('429 with Retry-After, then 500, then a dropped connection, then a success: four attempts, each wait as the policy says', async () => {
      const { firstAction, failureExample, success } = contractParts();
      const answers: ScriptedAnswer[] = [
        { status: Number(statuses.throttled), headers: { ...html, [statuses.retryAfter]: '1' }, body: '<html><body>Slow down</body></html>' },
        { status: Number(failure.status), headers: json, body: JSON.stringify(failureExample.value) },
        { status: 0, fault: 'drop' },
        { status: Number(statuses.success), headers: json, body: JSON.stringify(success.value) },
      ];
      const server = await startRecordingServer(answers);
      try {
        const result = await runClient(language, server.host);
        assert.ok(result.ok, `the client failed:\n${result.stderr}`);
        assert.match(result.stdout, new RegExp(firstAction.identifier));
        assert.equal(server.requests.length, 4, 'one attempt per answer, and no more');
        assertSameRequest(server.requests);
        const [afterThrottle = 0, afterFailure = 0, afterDrop = 0] = gaps(server.requests);
        assert.ok(afterThrottle >= 1000 && afterThrottle <= 1000 + lateness, `waited ${afterThrottle} ms after "Retry-After: 1"`);
        const second = backoffRangeSeconds(retryPolicy, 2);
        assert.ok(
          afterFailure >= second.shortest * 1000 && afterFailure <= second.longest * 1000 + lateness,
          `waited ${afterFailure} ms after the ${failure.status}; the policy asks ${second.shortest} to ${second.longest} s`,
        );
        const third = backoffRangeSeconds(retryPolicy, 3);
        assert.ok(
          afterDrop >= third.shortest * 1000 && afterDrop <= third.longest * 1000 + lateness,
          `waited ${afterDrop} ms after the dropped connection; the policy asks ${third.shortest} to ${third.longest} s`,
        );
      } finally {
        await server.close();
      }
    });

    test('an attempt that gets no answer in time is given up and sent again', async () => {
      const { success } = contractParts();
      const server = await startRecordingServer([
        { status: 0, fault: 'hang' },
        { status: Number(statuses.success), headers: json, body: JSON.stringify(success.value) },
      ]);
      try {
        const result = await runClient(language, server.host, withSetting(language, 'attemptTimeout', 1000));
        assert.ok(result.ok, `the client failed:\n${result.stderr}`);
        assert.equal(server.requests.length, 2);
        const [afterTimeout = 0] = gaps(server.requests);
        assert.ok(afterTimeout >= 1000, `the second attempt came ${afterTimeout} ms after the first, before its timeout ran out`);
      } finally {
        await server.close();
      }
    });

    test('an unreadable Retry-After (-1) is no wait of its own: the backoff applies and the next attempt succeeds', async () => {
      const { firstAction, success } = contractParts();
      const server = await startRecordingServer([
        { status: Number(statuses.throttled), headers: { ...html, [statuses.retryAfter]: '-1' }, body: '<html><body>Slow down</body></html>' },
        { status: Number(statuses.success), headers: json, body: JSON.stringify(success.value) },
      ]);
      try {
        const result = await runClient(language, server.host);
        assert.ok(result.ok, `the client failed:\n${result.stderr}`);
        assert.match(result.stdout, new RegExp(firstAction.identifier));
        assert.equal(server.requests.length, 2);
        const [afterThrottle = 0] = gaps(server.requests);
        const first = backoffRangeSeconds(retryPolicy, 1);
        assert.ok(afterThrottle >= first.shortest * 1000, `waited ${afterThrottle} ms; the backoff asks at least ${first.shortest} s`);
      } finally {
        await server.close();
      }
    });

    test('a Retry-After longer than the cap ends the attempts at once, and says so', async () => {
      const tooLong = retryPolicy.retryAfterCapSeconds + 1;
      const server = await startRecordingServer([{ status: Number(statuses.throttled), headers: { [statuses.retryAfter]: String(tooLong) } }]);
      try {
        const started = Date.now();
        const result = await runClient(language, server.host);
        assert.equal(result.ok, false);
        assert.match(result.stderr, new RegExp(`asks to wait ${tooLong} s, longer than ${retryPolicy.retryAfterCapSeconds} s`));
        assert.equal(server.requests.length, 1);
        // Any bound below the wait asked for tells "gave up at once" from "waited"; none tighter is needed.
        assert.ok(Date.now() - started < tooLong * 1000, 'the client did not wait for the throttle');
      } finally {
        await server.close();
      }
    });

    test('after the last attempt it gives up and reports what the last one got', async () => {
      const server = await startRecordingServer([{ status: 502, headers: html, body: '<html>Bad gateway</html>' }]);
      try {
        const result = await runClient(language, server.host, withSetting(language, 'maxAttempts', 2));
        assert.equal(result.ok, false);
        assert.match(result.stderr, /No success after 2 attempts; the last got HTTP 502/);
        assert.equal(server.requests.length, 2);
      } finally {
        await server.close();
      }
    });

    test("the host's own answers are reported as the host's, not parsed as the service's error, and not retried", async () => {
      const { site } = contractParts();
      const server = await startRecordingServer([
        { status: 403, headers: html, body: '<html><body>Access denied by the firewall</body></html>' },
        { status: 301, headers: { Location: `https://${site.defaultValue}/wp-json/service/v1/action` } },
      ]);
      try {
        const blocked = await runClient(language, server.host);
        assert.equal(blocked.ok, false);
        assert.match(blocked.stderr, /HTTP 403 from the host, not the service \(text\/html/);
        const redirected = await runClient(language, server.host);
        assert.equal(redirected.ok, false);
        assert.match(redirected.stderr, /HTTP 301 from the host, not the service .*it points to https:\/\//);
        assert.equal(server.requests.length, 2, 'neither answer was retried, and the redirect was not followed');
        assertSameRequest(server.requests);
      } finally {
        await server.close();
      }
    });

    test("the service's own refusal is reported with its code and not retried", async () => {
      const conflict = model.responses.find((response) => response.errorCodes.length > 0 && response.status === '409');
      const [example] = conflict?.examples ?? [];
      assert.ok(conflict && example);
      const server = await startRecordingServer([{ status: Number(conflict.status), headers: { 'Content-Type': jsonMediaType }, body: JSON.stringify(example.value) }]);
      try {
        const result = await runClient(language, server.host);
        assert.equal(result.ok, false);
        const code = (example.value as Record<string, unknown>)[statuses.codeField];
        assert.match(result.stderr, new RegExp(`HTTP ${conflict.status} ${String(code)}`));
        assert.equal(server.requests.length, 1);
      } finally {
        await server.close();
      }
    });
  });
}
