import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient, isLoopback, retryAfterSeconds } from '../../src/conformance/client.ts';
import { conformanceSeed } from '../../src/conformance/own-sandbox.ts';
import { exitCodeOf, exitCodes } from '../../src/conformance/exit-codes.ts';
import { coverageMatrix, junitXml, mismatchDetails, noteDetails, summaryLine } from '../../src/conformance/report.ts';
import { isUnreached, runConformance } from '../../src/conformance/runner.ts';
import { unnamedMembers } from '../../src/conformance/unnamed-members.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { reachableByMoves } from '../../src/lib/contract/lifecycle.ts';
import { throttleHeader } from '../../src/sandbox/host.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { projectDirectory } from '../support/contract-copy.ts';
import { offContractDeployments, serveOffContract } from '../support/off-contract-deployments.ts';
import { errorDataField } from '../../src/lib/contract/response-names.ts';
import { startRewritingProxy, type Rewrite } from '../support/rewriting-proxy.ts';

const workDirectory = mkdtempSync(path.join(tmpdir(), 'conformance-test-'));
let sandbox: Sandbox;

before(async () => {
  sandbox = await startSandbox({ port: 0 });
});
after(async () => {
  await sandbox.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** By default the proxy turns every 409 into a 400, body untouched, as a plugin with a wrong status would. */
const rewritingProxy = (target: Sandbox, rewrite: Rewrite = (status, body) => ({ status: status === 409 ? 400 : status, body })) => startRewritingProxy(target.url, rewrite);

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
    const proxy = await rewritingProxy(sandbox);
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
      assert.match(details, /^✖ \d+ cases: expected status 409, got 400\n {4}e\.g\. {6}\S+ .*from /m);
      // One fault, one finding: what follows from the wrong status (the 400's schemas) is counted under it.
      assert.equal(details.split('\n').filter((line) => line.startsWith('✖')).length, 1, details);
      assert.match(details, /^ {4}follows: {2}\d+ more mismatches of the document's checks of the 400 answered instead/m);
      assert.match(details, /^ {4}expected: 409 service_transition_not_allowed, data\.current_status "[^"]+", data\.allowed_actions \[/m, 'in the wire\'s names');
      const notes = noteDetails(report, sandbox.apiKey).join('\n');
      assert.doesNotMatch(notes, /current_status|allowed_actions/, 'members the 409 names are not called unnamed');
      assert.doesNotMatch(details, new RegExp(sandbox.apiKey), 'the key is never printed');
      const xml = junitXml(report, sandbox.apiKey);
      assert.match(xml, /<testcase classname="conformance\.lifecycle\.pause_subscription" name="pause_subscription from trial" time="0">\n\s*<failure /);
    } finally {
      await proxy.close();
    }
  });

  test('from the command line: exit 1, the case named, and a JUnit file', async () => {
    const proxy = await rewritingProxy(sandbox);
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
      assert.equal(code, exitCodes.mismatch, output);
      assert.match(output, /✖ \d+ cases: .+\n {4}e\.g\. +.+ from .+\n {4}request: {2}POST http:\/\/127\.0\.0\.1:\d+\/wp-json\/service\/v1\/action .*"<API_KEY>"/);
      assert.match(output, /The deployment does not answer as the document says/);
      assert.match(readFileSync(junit, 'utf8'), /<failure message="expected status 409, got 400"/);
    } finally {
      await proxy.close();
    }
  });
});

/** Runs `npm run conformance` as a user would, and returns its exit code and everything it printed. */
async function runCommand(args: string[], junit = path.join(workDirectory, 'cli.xml')): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(projectDirectory, 'scripts/conformance.ts'), ...args, '--junit', junit], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

const allSubscriptions = (target: Sandbox) => target.subscriptions().flatMap((subscription) => ['--subscription', String(subscription.id)]);

async function runThrough(url: string, target: Sandbox = sandbox) {
  return runConformance({
    contract: target.contract,
    baseUrl: url,
    apiKey: target.apiKey,
    subscriptions: target.subscriptions().map((subscription) => subscription.id),
    imitatesHost: true,
    throttleHeader,
  });
}

describe('strict on what the document names, tolerant of what it does not', () => {
  test('a member the document does not name, anywhere and in answers of every status, is a note, never a failure', async () => {
    const own = await startSandbox({ port: 0, seed: conformanceSeed(sandbox.contract) });
    const proxy = await rewritingProxy(own, (status, body) => {
      if (!isRecord(body)) return { status, body };
      const data = isRecord(body.data) ? { ...body.data, wordpress_extra: { field: { code: 'rest_invalid_type', message: 'm', data: null } } } : undefined;
      return { status, body: { ...body, conformance_extra: 1, ...(data === undefined ? {} : { data }) } };
    });
    try {
      const report = await runThrough(proxy.url, own);
      assert.deepEqual(mismatchDetails(report, own.apiKey), []);
      assert.equal(exitCodeOf(report, false), exitCodes.passed);
      const notes = noteDetails(report, own.apiKey).filter((line) => line.startsWith('ℹ'));
      for (const answer of own.contract.model.responses.filter((response) => response.body !== undefined && response.status !== '500')) {
        assert.ok(
          report.results.some((result) => result.exchange?.answer?.status === Number(answer.status) && result.notes.length > 0),
          `a note in a ${answer.status} answer`,
        );
      }
      assert.ok(notes.some((line) => /^ℹ \d+ cases: `data` has a member the document does not name: `wordpress_extra` \(rest_invalid_param\)$/.test(line)), notes.join('\n'));
      assert.ok(notes.some((line) => /the body has a member the document does not name: `conformance_extra` \(200\)/.test(line)));
      assert.equal(new Set(notes).size, notes.length, 'each kind of note once');
    } finally {
      await proxy.close();
      await own.close();
    }
  });

  test('a single extra member in the success body prints a few lines, not one per case', async () => {
    const own = await startSandbox({ port: 0, seed: conformanceSeed(sandbox.contract) });
    const proxy = await rewritingProxy(own, (status, body) => ({ status, body: status === 200 && isRecord(body) ? { ...body, service_version: '1.2.0' } : body }));
    try {
      const report = await runThrough(proxy.url, own);
      assert.deepEqual(mismatchDetails(report, own.apiKey), []);
      const notes = noteDetails(report, own.apiKey);
      assert.ok(notes.length <= 6, notes.join('\n'));
      assert.match(notes[0] ?? '', /^ℹ \d+ cases: the body has a member the document does not name: `service_version` \(200\)$/);
    } finally {
      await proxy.close();
      await own.close();
    }
  });

  test('a missing or wrongly typed named member fails, in answers of every status', async () => {
    const own = await startSandbox({ port: 0, seed: conformanceSeed(sandbox.contract) });
    const { result, errors } = own.contract;
    const proxy = await rewritingProxy(own, (status, body) => {
      if (!isRecord(body)) return { status, body };
      if (status === 200) {
        const { [result.changed]: _changed, ...rest } = body;
        return { status, body: rest };
      }
      const data = isRecord(body.data) ? { ...body.data, [errors.statusMember]: String(status) } : body.data;
      return { status, body: { ...body, data } };
    });
    try {
      const report = await runThrough(proxy.url, own);
      const failed = report.results.filter((caseResult) => caseResult.status === 'failed');
      for (const answer of own.contract.model.responses.filter((response) => response.body !== undefined && response.status !== '500')) {
        assert.ok(failed.some((caseResult) => caseResult.exchange?.answer?.status === Number(answer.status)), `a failure in a ${answer.status} answer`);
      }
      const details = mismatchDetails(report, own.apiKey);
      assert.ok(details.includes(`✖ ${failed.filter((caseResult) => caseResult.exchange?.answer?.status === 200).length} cases: \`${result.changed}\` is missing from the 200 answer`), details.join('\n'));
      assert.ok(!details.some((line) => line.includes(`must have required property '${result.changed}'`)), 'the schema\'s complaint follows from the missing member');
      assert.equal(details.filter((line) => line.startsWith('✖') && /`data\.status`/.test(line)).length, 1, details.join('\n'));
      assert.equal(exitCodeOf(report, true), exitCodes.mismatch);
    } finally {
      await proxy.close();
      await own.close();
    }
  });

  test('the members a schema does not name are found at any depth, and a map names all its keys', () => {
    const bad = sandbox.contract.response(400)?.body?.pointer ?? '';
    const found = unnamedMembers(sandbox.contract.document, { $ref: bad }, {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): note',
      data: { status: 400, params: { note: 'too long', other: 'x' }, details: { note: { code: 'rest_too_long', message: 'm' } }, wordpress_extra: {} },
      extra: true,
    });
    assert.deepEqual(found, [
      { parent: 'data', name: 'wordpress_extra' },
      { parent: '', name: 'extra' },
    ]);
  });
});

describe('mismatches grouped by kind', () => {
  test('each kind once, with a count and one example in full', async () => {
    const proxy = await rewritingProxy(sandbox);
    const own = await startSandbox({ port: 0, seed: conformanceSeed(sandbox.contract) });
    const ownProxy = await rewritingProxy(own);
    try {
      const report = await runThrough(ownProxy.url, own);
      const failed = report.results.filter((result) => result.status === 'failed');
      const lines = mismatchDetails(report, own.apiKey);
      const heads = lines.filter((line) => line.startsWith('✖'));
      assert.equal(new Set(heads).size, heads.length, 'one line per kind');
      assert.ok(heads.length < failed.length, `${heads.length} kinds for ${failed.length} failed cases`);
      assert.ok(heads.includes(`✖ ${failed.length} cases: expected status 409, got 400`), heads.join('\n'));
      assert.equal(lines.filter((line) => line.startsWith('    request:')).length, heads.length, 'one example per kind');
      assert.match(summaryLine(report), /✖ The deployment does not answer as the document says: \d+ passed, \d+ failed, 0 not reached/);
    } finally {
      await ownProxy.close();
      await own.close();
      await proxy.close();
    }
  });
});

describe('set-up failures, told apart from mismatches before a case is judged', () => {
  test('3: nothing listens at the address (connection refused)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { code, output } = await runCommand(['--base-url', `http://127.0.0.1:${port}`, '--api-key', 'k', '--subscription', '1']);
    assert.equal(code, exitCodes.cannotConnect, output);
    assert.match(output, /Cannot connect to 127\.0\.0\.1:\d+: no answer: connection refused \(ECONNREFUSED\)\. Nothing listens/);
    assert.doesNotMatch(output, /not reached \(|Coverage/);
  });

  test('4: the host answers with an HTML page, not a WordPress REST API', async () => {
    const html = createServer((_, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = html.address() as AddressInfo;
      const { code, output } = await runCommand(['--base-url', `http://127.0.0.1:${port}`, '--api-key', 'k', '--subscription', '1']);
      assert.equal(code, exitCodes.notWordPress, output);
      assert.match(output, /does not answer as a WordPress REST API: .+ answered 404 HTML page: title "Not found"[,.]/);
      assert.match(output, /The run could not start: .+ \(2 requests, before any case, none of them changing a subscription; /);
    } finally {
      html.close();
    }
  });

  test('4: a host that throttles the first request past the longest wait is named as throttling, with its Retry-After', async () => {
    const throttling = await startSandbox({ port: 0 });
    const { retryAfterHeader } = throttling.contract;
    throttling.throttleNext(2, '100000');
    try {
      const { code, output } = await runCommand(['--base-url', throttling.url, '--api-key', throttling.apiKey, ...allSubscriptions(throttling)]);
      assert.equal(code, exitCodes.notWordPress, output);
      assert.match(output, new RegExp(`The host throttles the suite: .+ answered ${throttling.contract.throttled.status} with ${retryAfterHeader}: 100000\\. The suite waits out a ${retryAfterHeader} of at most 120 s \\(--max-retry-after\\)`));
      assert.doesNotMatch(output, /not answer as a WordPress REST API/);
    } finally {
      await throttling.close();
    }
  });

  test('4: a firewall\'s 403 or a gateway\'s 503 page on the first request is named as the host\'s answer', async () => {
    for (const status of [403, 503]) {
      const page = createServer((_, response) => response.writeHead(status, { 'content-type': 'text/html' }).end('<!DOCTYPE html><title>Blocked</title>'));
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = page.address() as AddressInfo;
        const { code, output } = await runCommand(['--base-url', `http://127.0.0.1:${port}`, '--api-key', 'k', '--subscription', '1']);
        assert.equal(code, exitCodes.notWordPress, output);
        assert.match(output, new RegExp(`The host answered ${status} with a page of its own, not WordPress's JSON`));
      } finally {
        page.close();
      }
    }
  });

  test('5: the key is refused on a request valid in every other way', async () => {
    const other = await startSandbox({ port: 0, apiKey: 'another-key' });
    try {
      const { code, output } = await runCommand(['--base-url', other.url, '--api-key', 'not-the-key', ...allSubscriptions(other)]);
      assert.equal(code, exitCodes.keyRefused, output);
      assert.match(output, /The site refused the API key/);
      assert.doesNotMatch(output, /not-the-key|another-key/, 'no key is printed');
    } finally {
      await other.close();
    }
  });

  test('8: the request that reads where a subscription stands is answered off the document: one set-up finding, said as such', async () => {
    const [withoutCurrentStatus] = offContractDeployments(sandbox.contract).filter((deployment) => deployment.kind.startsWith(`a refusal without \`${sandbox.contract.errors.currentStatusMember}\``));
    assert.ok(withoutCurrentStatus !== undefined);
    const deployment = await serveOffContract(sandbox.contract, withoutCurrentStatus);
    try {
      const { code, output } = await runCommand(['--base-url', deployment.url, '--api-key', deployment.apiKey, '--subscription', deployment.subscriptions.join(',')]);
      assert.equal(code, exitCodes.setupMismatch, output);
      const member = `${errorDataField}.${sandbox.contract.errors.currentStatusMember}`;
      assert.match(output, new RegExp(`^✖ The site answered the request that only reads where a subscription stands off the document[^\\n]*\`${member.replace('.', '\\.')}\` is missing`, 'm'));
      assert.equal(output.split('\n').filter((line) => line.startsWith('✖ ')).length, 2, 'the finding and the verdict, nothing else');
      // None of what misled: no count of cases not reached, no advice to name more subscriptions, no matrix, no expectation of "?".
      assert.doesNotMatch(output, /not reached|name \d+ more|--subscription:|Documented but not provoked|request: \?|Coverage:/);
      assert.match(output, /The run could not start: the set-up met an answer off the document; none of the \d+ cases was run/);
    } finally {
      await deployment.close();
    }
  });

  test('6: a named subscription does not exist', async () => {
    const { code, output } = await runCommand(['--base-url', sandbox.url, '--api-key', sandbox.apiKey, '--subscription', '1', '--subscription', '999999']);
    assert.equal(code, exitCodes.unknownSubscription, output);
    assert.match(output, /The site has no subscription 999999: it answered 404 service_subscription_not_found \(the other named subscriptions exist\)/);
  });
});

describe('options refused before a case is run', () => {
  test('a --junit path that cannot be written: a folder, or a folder that does not exist', async () => {
    for (const junit of [workDirectory, path.join(workDirectory, 'no-such-folder', 'report.xml')]) {
      const { code, output } = await runCommand(['--base-url', sandbox.url, '--api-key', sandbox.apiKey, '--subscription', '1'], junit);
      assert.equal(code, exitCodes.usage, output);
      assert.match(output, /^Cannot write the JUnit report: .*(is a directory|does not exist)/m);
      assert.doesNotMatch(output, /^Checking /m, 'no case is run');
      assert.doesNotMatch(output, /\n\s+at /, 'no stack trace');
    }
  });

  test('a JUnit file that cannot be written after the run costs a line, never the report', async () => {
    const folder = path.join(workDirectory, 'vanishing');
    mkdirSync(folder);
    const html = createServer((_, response) => {
      rmSync(folder, { recursive: true, force: true });
      response.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = html.address() as AddressInfo;
      const { code, output } = await runCommand(['--base-url', `http://127.0.0.1:${port}`, '--api-key', 'k', '--subscription', '1'], path.join(folder, 'report.xml'));
      assert.equal(existsSync(folder), false);
      assert.equal(code, exitCodes.notWordPress, output);
      assert.match(output, /does not answer as a WordPress REST API/);
      assert.match(output, /^Could not write the JUnit report to .+report\.xml: ENOENT/m);
      assert.doesNotMatch(output, /\n\s+at /, 'no stack trace');
    } finally {
      html.close();
    }
  });

  test('a --base-url with credentials, a query or a fragment is refused, and a password never printed', async () => {
    const origin = new URL(sandbox.url);
    const forms = [
      { url: `http://user:secretpw@${origin.host}/shop`, reason: /must not hold a user name or password/ },
      { url: `${sandbox.url}?x=1`, reason: /must not hold a query/ },
      { url: `${sandbox.url}#frag`, reason: /must not hold a fragment/ },
    ];
    for (const { url, reason } of forms) {
      const { code, output } = await runCommand(['--base-url', url, '--api-key', sandbox.apiKey, '--subscription', '1']);
      assert.equal(code, exitCodes.usage, output);
      assert.match(output, reason);
      assert.doesNotMatch(output, /secretpw/);
    }
  });

  test('--generated and --seed take whole numbers in their range, refused with the range before the run', async () => {
    for (const [option, value, reason] of [
      ['--generated', '-1', /--generated takes a whole number of bodies from 0 to 100,000/],
      ['--generated', '100001', /--generated takes a whole number of bodies from 0 to 100,000 .* not "100001"/],
      ['--seed', 'lucky', /--seed takes the whole number a report printed, from 0 to 4294967295, not "lucky"/],
      ['--seed', '4294967296', /--seed takes the whole number a report printed/],
    ] as const) {
      const { code, output } = await runCommand(['--base-url', sandbox.url, '--api-key', sandbox.apiKey, '--subscription', '1', `${option}=${value}`]);
      assert.equal(code, exitCodes.usage, output);
      assert.match(output, reason);
      assert.doesNotMatch(output, /Checking /, 'refused before the run');
    }
  });

  test('the report prints the seed of the generated pass, and --generated 0 sends none', async () => {
    const seeded = await runCommand(['--seed', '12345', '--generated', '7']);
    assert.equal(seeded.code, exitCodes.passed, seeded.output);
    assert.match(seeded.output, /^Generated valid bodies: 7 sent for \d+ actions \(seed 12345; --seed 12345 --generated 7 sends them again\), none refused\.$/m);
    const none = await runCommand(['--generated', '0']);
    assert.equal(none.code, exitCodes.passed, none.output);
    assert.match(none.output, /^Generated valid bodies: none sent \(--generated 0\)\.$/m);
  });

  test('a --subscription past the largest safe integer, or a range longer than the limit, is refused with the bound', async () => {
    const past = String(Number.MAX_SAFE_INTEGER + 1);
    for (const value of [`${past}-9007199254740993`, '9007199254740993', `1-${past}`]) {
      const { code, output } = await runCommand(['--base-url', sandbox.url, '--api-key', sandbox.apiKey, '--subscription', value]);
      assert.equal(code, exitCodes.usage, output);
      assert.match(output, new RegExp(`not "${value}": an ID is at most ${Number.MAX_SAFE_INTEGER} \\(2\\^53 - 1\\)`));
      assert.doesNotMatch(output, /\n\s+at |RangeError/, 'no stack trace');
    }
    const { code, output } = await runCommand(['--base-url', sandbox.url, '--api-key', sandbox.apiKey, '--subscription', '1-10001']);
    assert.equal(code, exitCodes.usage, output);
    assert.match(output, /not "1-10001": a range names at most 10,000 IDs, and this one names 10,001/);
  });

  test('a port fetch refuses is named as such, not as a bare "fetch failed"', async () => {
    const { code, output } = await runCommand(['--base-url', 'http://127.0.0.1:10080', '--api-key', 'k', '--subscription', '1']);
    assert.equal(code, exitCodes.cannotConnect, output);
    assert.match(output, /connection failed \(bad port\)/);
  });
});

describe('coverage', () => {
  test('announces what it needs, and exits 7 on cases not reached unless --allow-unreached', async () => {
    const seeded = await startSandbox({ port: 0 });
    try {
      const first = await runCommand(['--base-url', seeded.url, '--api-key', seeded.apiKey, ...allSubscriptions(seeded)]);
      assert.equal(first.code, exitCodes.unreached, first.output);
      // A passed case is a line of the matrix and of the JUnit file: listed only with --verbose.
      const passedLines = (output: string) => output.split('\n').filter((line) => line.startsWith('✔ ') && !line.startsWith('✔ The ')).length;
      assert.equal(passedLines(first.output), 0, first.output);
      assert.match(first.output, /^The lifecycle cases need \d+ subscriptions: .+ With the named subscriptions, \d+ cases cannot be reached/m);
      assert.match(first.output, /^subscription \d+: ended expired/m);
      // How many more of each status: named besides the same seed on a fresh sandbox, every case is reached.
      const advice = /To reach every case, name \d+ more subscriptions? with --subscription: (.+)\.$/m.exec(first.output)?.[1];
      assert.ok(advice !== undefined, first.output);
      const more = advice.split(', ').flatMap((part) => {
        const [count, status] = part.split(' more ');
        return Array.from({ length: Number(count) }, () => status ?? '');
      });
      const fresh = await startSandbox({ port: 0 });
      const added = more.map((status, index) => ({ id: 1000 + index, status }));
      const topped = await startSandbox({ port: 0, seed: [...fresh.subscriptions(), ...added] });
      await fresh.close();
      try {
        const full = await runCommand(['--base-url', topped.url, '--api-key', topped.apiKey, ...allSubscriptions(topped)]);
        assert.equal(full.code, exitCodes.passed, full.output);
      } finally {
        await topped.close();
      }
      const second = await runCommand(['--base-url', seeded.url, '--api-key', seeded.apiKey, ...allSubscriptions(seeded), '--allow-unreached', '--verbose']);
      assert.equal(second.code, exitCodes.passed, second.output);
      assert.ok(passedLines(second.output) > 100, second.output);
      assert.ok(seeded.subscriptions().some((subscription) => !seeded.contract.model.lifecycle.finalStates.includes(subscription.status)), 'never all final');
    } finally {
      await seeded.close();
    }
  });

  test('two runs in a row on one sandbox, with the same named subscriptions, both reach every case', async () => {
    const twice = await startSandbox({ port: 0, seed: conformanceSeed(sandbox.contract, 2) });
    try {
      for (const run of [1, 2]) {
        const report = await runThrough(twice.url, twice);
        assert.deepEqual(mismatchDetails(report, twice.apiKey), [], `run ${run}`);
        assert.deepEqual(
          report.results.filter(isUnreached).map((result) => result.case.name),
          [],
          `run ${run} reaches every case`,
        );
        assert.equal(report.forecast?.unreachable.size, 0, `run ${run}: the forecast agrees`);
      }
    } finally {
      await twice.close();
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
