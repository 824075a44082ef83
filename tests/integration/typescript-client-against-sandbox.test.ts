/**
 * The TypeScript client, packed and installed from its tarball, against the real sandbox over
 * HTTP: every action and its repeat, each documented error as its class, the host's 429 with each
 * form of `Retry-After` waited out, a wait beyond the bound, an unreadable `Retry-After`, a host's
 * HTML page, a timeout, an abort, the courtesy pace, the base URL's forms, and the key never printed;
 * and the retry policy answer by answer: which are sent again, how many times, each attempt
 * reported to the `onAttempt` hook with the members every library reports.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { format, inspect } from 'node:util';
import { attemptOutcomes, attemptReportMembers } from '../../src/clients/shared/attempt-report.ts';
import { errorClassName, methodName } from '../../src/clients/typescript/generate.ts';
import { camelCaseName } from '../../src/lib/samples/client-libraries.ts';
import { retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions, outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import { successResponse } from '../../src/lib/contract/response-lookups.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { callerExample, refusalCase, startingPoint, subscriptionSeed, type Fields } from '../support/client-cases.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { installTypescriptClient, type InstalledClient } from '../../src/clients/typescript/installed-package.ts';

const contract = readExecutableContract(bundledDocument());
const { model, result, errors } = contract;
const { subject } = model.envelope;
/** A key the test can look for in everything the client prints. */
const apiKey = 'a-key-that-must-never-be-printed';

interface Client {
  action(name: string, fields: Fields, options?: { signal?: AbortSignal; timeout?: number }): Promise<Fields>;
  [method: string]: unknown;
}
type ClientClass = new (baseUrl: string, key: string, options?: Record<string, unknown>) => Client;
type ErrorClass = new (...args: never[]) => Error;

let installed: InstalledClient;
let library: Record<string, unknown>;
let Client: ClientClass;
let sandbox: Sandbox;
const arrivals: { at: number; line: string }[] = [];
const { seeded, place } = subscriptionSeed(20_000);

function errorClass(status: number): ErrorClass {
  const found = library[errorClassName(status)];
  assert.equal(typeof found, 'function', `the package exports ${errorClassName(status)}`);
  return found as ErrorClass;
}

function exported(name: string): ErrorClass {
  assert.equal(typeof library[name], 'function', `the package exports ${name}`);
  return library[name] as ErrorClass;
}

function call(client: Client, action: Action, fields: Fields, options?: { signal?: AbortSignal }): Promise<Fields> {
  const method = client[methodName(action.identifier)];
  assert.equal(typeof method, 'function', `the client has ${methodName(action.identifier)}`);
  return (method as (fields: Fields, options?: { signal?: AbortSignal }) => Promise<Fields>).call(client, fields, options);
}

const [firstAction] = model.actions;
assert.ok(firstAction !== undefined);
const { action: refusing, status: refusedStatus } = refusalCase(model);
const cases = model.actions.map((action) => ({ action, ...startingPoint(model, action), id: 0 }));
let refusedId = 0;
const spare: number[] = [];

before(async () => {
  installed = installTypescriptClient(contract);
  library = (await import(installed.entryUrl)) as Record<string, unknown>;
  Client = library.SubscriptionLifecycleClient as ClientClass;
  for (const entry of cases) entry.id = place(entry.from);
  refusedId = place(refusedStatus);
  for (let index = 0; index < 16; index += 1) spare.push(place(startingPoint(model, firstAction).from));
  sandbox = await startSandbox({ port: 0, contract, apiKey, seed: seeded, log: (line) => arrivals.push({ at: performance.now(), line }) });
});
after(async () => {
  await sandbox?.close();
  installed?.remove();
});

/** A client with the courtesy pace off, so that the tests that do not measure it run quickly. */
const quick = (options: Record<string, unknown> = {}) => new Client(sandbox.url, apiKey, { pace: 0, ...options });

function takeSpare(): number {
  const id = spare.shift();
  assert.ok(id !== undefined, 'a spare subscription is left');
  return id;
}

/** The arrivals a step caused, and the time between them. */
async function arrivalsOf(step: () => Promise<unknown>): Promise<{ lines: string[]; gaps: number[] }> {
  const start = arrivals.length;
  await step();
  const mine = arrivals.slice(start);
  return { lines: mine.map((arrival) => arrival.line), gaps: mine.slice(1).map((arrival, index) => arrival.at - (mine[index] as { at: number }).at) };
}

/** A host of its own that answers every request with the throttled status, this Retry-After and an HTML page; `arrived` hears each request. */
async function throttlingHost(retryAfter: string, arrived: () => void = () => {}): Promise<{ url: string; close: () => Promise<void> }> {
  const host: Server = createServer((request, response) => {
    arrived();
    request.resume();
    response.writeHead(Number(contract.throttled.status), { [contract.retryAfterHeader]: retryAfter, 'content-type': 'text/html' }).end('<p>slow down</p>');
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(host.address() as AddressInfo).port}`,
    close: async () => {
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    },
  };
}

describe('every action', () => {
  test('each action changes its subscription, and its repeat answers that nothing changed', async () => {
    const client = quick();
    for (const { action, id, from, requested } of cases) {
      const answer = await call(client, action, { ...callerExample(model, action), [subject]: id });
      const outcome = outcomeOf(action.transition, from, requested);
      assert.equal(outcome.kind, 'changed');
      assert.equal(answer[result.action], action.identifier);
      assert.equal(answer[result.previousStatus], from);
      assert.equal(answer[result.status], outcome.kind === 'changed' ? outcome.to : undefined);
      assert.equal(answer[result.changed], true);
      const repeated = await client.action(action.identifier, { ...callerExample(model, action), [subject]: id });
      assert.equal(repeated[result.changed], false, `${action.identifier} repeated`);
    }
  });
});

describe('the documented errors, each as its class', () => {
  test('a status that refuses the action: the conflict class with the current status and the actions it allows', async () => {
    const error = await call(quick(), refusing, { ...callerExample(model, refusing), [subject]: refusedId }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof errorClass(errors.transitionNotAllowed.status), String(error));
    const fields = error as unknown as Record<string, unknown>;
    assert.equal(fields.status, errors.transitionNotAllowed.status);
    assert.equal(fields.code, errors.transitionNotAllowed.code);
    const camel = (name: string) => name.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());
    assert.equal(fields[camel(errors.currentStatusMember)], refusedStatus);
    assert.deepEqual(fields[camel(errors.allowedActionsMember)], allowedActions(model.lifecycle, refusedStatus));
  });

  test('a field out of its bound is refused before anything is sent, naming the field and the bound', async () => {
    const { lines } = await arrivalsOf(async () => {
      const error = await call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: 0 }).then(() => undefined, (caught: unknown) => caught);
      assert.ok(error instanceof exported('InvalidFieldError'), String(error));
      const subjectBound = firstAction.fields.find((field) => field.name === subject)?.constraints.find((constraint) => constraint.limit !== undefined);
      assert.ok(subjectBound !== undefined);
      assert.match((error as Error).message, new RegExp(`\`${subject}\` must be ${subjectBound.label}`));
      const missing = await quick().action(firstAction.identifier, {}).then(() => undefined, (caught: unknown) => caught);
      assert.ok(missing instanceof exported('InvalidFieldError'));
      assert.match((missing as Error).message, new RegExp(`\`${subject}\` must be given \\(it is required\\)`));
    });
    assert.deepEqual(lines, [], 'nothing reached the sandbox');
  });

  test('a field the action does not take: the service\'s 400 with its params', async () => {
    const error = await quick().action(firstAction.identifier, { ...callerExample(model, firstAction), [subject]: takeSpare(), a_field_no_release_has: 1 }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof errorClass(errors.invalidParameter.status), String(error));
    const fields = error as unknown as Record<string, unknown>;
    assert.equal(fields.code, errors.invalidParameter.code);
    assert.ok(fields[errors.paramsMember] !== undefined, `${errors.paramsMember} is read`);
  });

  test('a wrong key: the 401 class, and the key in no message', async () => {
    const error = await call(new Client(sandbox.url, `${apiKey}-wrong`, { pace: 0 }), firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof errorClass(errors.invalidKey.status), String(error));
    assert.equal((error as unknown as Record<string, unknown>).code, errors.invalidKey.code);
    assert.ok(!inspect(error).includes(apiKey) && !JSON.stringify(error).includes(apiKey));
  });

  test('an unknown subscription: the 404 class', async () => {
    const error = await call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: 2_147_483_000 }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof errorClass(errors.subscriptionNotFound.status), String(error));
    assert.equal((error as unknown as Record<string, unknown>).code, errors.subscriptionNotFound.code);
  });
});

describe('the host in front of the site', () => {
  for (const form of ['seconds', 'HTTP date'] as const) {
    test(`a 429 with Retry-After as ${form} is waited out, then the action succeeds once`, async () => {
      const id = takeSpare();
      const value = form === 'seconds' ? '2' : new Date(Date.now() + 3000).toUTCString();
      const asked = form === 'seconds' ? 2000 : Date.parse(value) - Date.now();
      sandbox.throttleNext(1, value);
      const { lines, gaps } = await arrivalsOf(() => call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: id }));
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(lines[0] as string, new RegExp(` -> ${contract.throttled.status}\\b`));
      assert.match(lines[1] as string, / -> 200\b/);
      assert.ok((gaps[0] as number) >= asked - 50 && (gaps[0] as number) <= asked + 5000, `waited ${Math.round(gaps[0] as number)} ms for Retry-After: ${value}`);
      assert.equal(sandbox.history(id).length, 1);
    });
  }

  test('a wait longer than the bound is not waited: the throttled error carries the wait asked for', async () => {
    sandbox.throttleNext(1, '120');
    const started = performance.now();
    const error = await call(quick({ maxRetryWait: 60_000 }), firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof exported('ThrottledError'), String(error));
    assert.equal((error as unknown as Record<string, unknown>).retryAfterMs, 120_000);
    assert.ok(performance.now() - started < 5000, 'gave up at once');
  });

  test('an unreadable Retry-After falls back to the client\'s own backoff, neither 0 nor a long wait', async () => {
    const times: number[] = [];
    for (const unreadable of ['now', '-1', '1.5']) {
      const host = await throttlingHost(unreadable, () => times.push(performance.now()));
      try {
        times.length = 0;
        const client = new Client(host.url, apiKey, { pace: 0, maxAttempts: 2 });
        const error: unknown = await call(client, firstAction, { ...callerExample(model, firstAction), [subject]: 1 }).then(() => undefined, (caught: unknown) => caught);
        assert.ok(error instanceof exported('ThrottledError'), `${unreadable}: ${String(error)}`);
        assert.equal((error as unknown as Record<string, unknown>).retryAfterMs, undefined);
        assert.equal(times.length, 2);
        const gap = (times[1] as number) - (times[0] as number);
        // The first backoff is between half the base and the base: one second by the retry policy.
        assert.ok(gap >= 450 && gap < 3000, `Retry-After: ${unreadable} waited ${Math.round(gap)} ms`);
      } finally {
        await host.close();
      }
    }
  });

  test('a host\'s HTML 403 is a host error, not the service\'s', async () => {
    sandbox.hostErrorNext(1, 403);
    const error = await call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof exported('HostError'), String(error));
    assert.equal((error as unknown as Record<string, unknown>).status, 403);
    assert.match(String((error as unknown as Record<string, unknown>).contentType), /html/);
  });

  test('a host\'s 503 is sent again after a backoff, and the action succeeds', async () => {
    const id = takeSpare();
    sandbox.hostErrorNext(1, 503);
    const answer = await call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: id });
    assert.equal(answer[result.changed], true);
  });
});

type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'silent';

/** A host of its own that gives each request the answer `answer(n)` says (n = 1 for the first), or none at all. */
async function scriptedHost(answer: (arrival: number) => Answer): Promise<{ url: string; arrivals: () => number; close: () => Promise<void> }> {
  let count = 0;
  const host: Server = createServer((request, response) => {
    count += 1;
    request.resume();
    const planned = answer(count);
    if (planned === 'silent') return;
    response.writeHead(planned.status, planned.headers ?? {}).end(planned.body ?? '');
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(host.address() as AddressInfo).port}`,
    arrivals: () => count,
    close: async () => {
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    },
  };
}

/** An address nothing listens on: a port just released. */
async function refusingAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

type Report = Record<string, unknown>;

/** Calls the first action through a client reporting to onAttempt, and returns what came of it with every report. */
async function reported(baseUrl: string, options: Record<string, unknown>, given?: Fields): Promise<{ outcome: unknown; reports: Report[] }> {
  assert.ok(firstAction !== undefined);
  const fields = given ?? { ...callerExample(model, firstAction), [subject]: 1 };
  const reports: Report[] = [];
  const client = new Client(baseUrl, apiKey, { pace: 0, ...options, onAttempt: (report: Report) => reports.push(report) });
  const outcome = await call(client, firstAction, fields).then((answer) => answer, (caught: unknown) => caught);
  return { outcome, reports };
}

const jsonError = (status: number, code: string, message = 'refused'): Answer => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, message, data: { status } }) });

describe('the retry policy, answer by answer, each attempt reported', () => {
  const reportKeys = attemptReportMembers.map((member) => camelCaseName(member));
  /** Two attempts in all keep each test to one backoff; the default is the policy's. */
  const attempts = 2;

  test('the default number of attempts is the policy\'s', () => {
    assert.equal((quick().settings as unknown as Record<string, unknown>).maxAttempts, retryPolicy.maxAttempts);
  });

  test('a retried answer and the success after it: one report per attempt, with the shared members, the wait before the next, and none after the last', async () => {
    const id = takeSpare();
    sandbox.hostErrorNext(1, retryPolicy.transientHostStatuses[0] as number);
    const { outcome, reports } = await reported(sandbox.url, {}, { ...callerExample(model, firstAction), [subject]: id });
    assert.equal((outcome as Fields)[result.changed], true, String(outcome));
    assert.equal(reports.length, 2);
    for (const report of reports) {
      assert.deepEqual(Object.keys(report), reportKeys);
      assert.equal(report.action, firstAction.identifier);
      assert.ok((attemptOutcomes as readonly unknown[]).includes(report.outcome));
      assert.ok(typeof report.seconds === 'number' && report.seconds >= 0);
      for (const value of Object.values(report)) assert.ok(!String(value).includes(apiKey));
    }
    const [first, second] = reports as [Report, Report];
    assert.deepEqual([first.attempt, first.outcome, first.status], [1, 'answered', retryPolicy.transientHostStatuses[0]]);
    const wait = first.retryInSeconds as number;
    assert.ok(wait >= retryPolicy.backoffBaseSeconds * retryPolicy.backoffFixedShare && wait <= retryPolicy.backoffBaseSeconds, `waits ${wait} s, within the policy's first backoff`);
    assert.deepEqual([second.attempt, second.outcome, second.status, second.retryInSeconds], [2, 'answered', Number(successResponse(model.responses).status), null]);
  });

  const retried: { answer: string; host: () => Promise<{ url: string; arrivals: () => number; close: () => Promise<void> }>; options?: Record<string, unknown>; error: string[]; outcome: string; status: number | null }[] = [
    ...retryPolicy.transientHostStatuses.map((status) => ({ answer: `a host's ${status}`, host: () => scriptedHost(() => ({ status, headers: { 'content-type': 'text/html' }, body: '<p>down</p>' })), error: ['HostError'], outcome: 'answered', status })),
    { answer: `the service's own ${errors.internalError.status}`, host: () => scriptedHost(() => jsonError(errors.internalError.status, errors.internalError.code)), error: [errorClassName(errors.internalError.status), 'ServiceError'], outcome: 'answered', status: errors.internalError.status },
    { answer: `a ${contract.throttled.status} with a readable ${contract.retryAfterHeader}`, host: () => scriptedHost(() => ({ status: Number(contract.throttled.status), headers: { [contract.retryAfterHeader]: '0' } })), error: ['ThrottledError'], outcome: 'answered', status: Number(contract.throttled.status) },
    { answer: 'no answer within the timeout', host: () => scriptedHost(() => 'silent'), options: { timeout: 200 }, error: ['TimeoutError', 'NoAnswerError'], outcome: 'timeout', status: null },
  ];
  for (const { answer, host: start, options = {}, error, outcome, status } of retried) {
    test(`${answer} is sent again, up to maxAttempts attempts in all, then thrown as ${error.join(', a ')}`, async () => {
      const host = await start();
      try {
        const result = await reported(host.url, { maxAttempts: attempts, ...options });
        for (const name of [...error, 'ClientError']) assert.ok(result.outcome instanceof exported(name), `${String(result.outcome)} is a ${name}`);
        assert.equal(host.arrivals(), attempts);
        assert.deepEqual(result.reports.map((report) => [report.attempt, report.outcome, report.status]), [[1, outcome, status], [2, outcome, status]]);
        assert.equal(typeof result.reports[0]?.retryInSeconds, 'number');
        assert.equal(result.reports[1]?.retryInSeconds, null);
        assert.equal((result.outcome as unknown as Record<string, unknown>).attempts ?? attempts, attempts);
      } finally {
        await host.close();
      }
    });
  }

  test('a refused connection is sent again, up to maxAttempts attempts in all, then thrown as a ConnectionError, a NoAnswerError', async () => {
    const result = await reported(await refusingAddress(), { maxAttempts: attempts });
    for (const name of ['ConnectionError', 'NoAnswerError', 'ClientError']) assert.ok(result.outcome instanceof exported(name), `${String(result.outcome)} is a ${name}`);
    assert.deepEqual(result.reports.map((report) => [report.attempt, report.outcome, report.status]), [[1, 'connection', null], [2, 'connection', null]]);
    assert.equal((result.outcome as unknown as Record<string, unknown>).attempts, attempts);
  });

  const once = [errors.invalidParameter, errors.invalidKey, errors.subscriptionNotFound, errors.transitionNotAllowed];
  for (const refusal of once) {
    test(`the service's ${refusal.status} (${refusal.code}) is thrown at once, after one attempt`, async () => {
      const host = await scriptedHost(() => jsonError(refusal.status, refusal.code));
      try {
        const result = await reported(host.url, { maxAttempts: attempts });
        assert.ok(result.outcome instanceof errorClass(refusal.status), String(result.outcome));
        assert.equal(host.arrivals(), 1);
        assert.deepEqual(result.reports.map((report) => [report.attempt, report.outcome, report.status, report.retryInSeconds]), [[1, 'answered', refusal.status, null]]);
      } finally {
        await host.close();
      }
    });
  }

  test('a hook that throws changes nothing of the call', async () => {
    const client = new Client(sandbox.url, apiKey, { pace: 0, onAttempt: () => { throw new Error('the logger is down'); } });
    const answer = await call(client, firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() });
    assert.equal(answer[result.changed], true);
  });
});

describe('what a newcomer reads in an error', () => {
  test('a missing field that takes one of a list of values says which values are allowed', async () => {
    const chosen = model.actions.find((action) => action.transition.kind === 'chosen');
    assert.ok(chosen !== undefined && chosen.transition.kind === 'chosen', 'some action takes the status asked for');
    const field = chosen.transition.field;
    const allowed = chosen.fields.find((candidate) => candidate.name === field)?.constraints.find((constraint) => constraint.keyword === 'enum')?.values ?? [];
    assert.ok(allowed.length > 0, `${field} lists its values`);
    const { [field]: _omitted, ...fields } = callerExample(model, chosen);
    const error = await quick().action(chosen.identifier, fields).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof exported('InvalidFieldError'), String(error));
    for (const value of allowed) assert.ok((error as Error).message.includes(JSON.stringify(value)), `${(error as Error).message} names ${JSON.stringify(value)}`);
  });

  test('an over-long note is not echoed whole, and a long message from the site is cut between characters', async () => {
    const noteName = model.envelope.note;
    assert.ok(noteName !== undefined, 'the actions share a note');
    const limit = firstAction.fields.find((field) => field.name === noteName)?.constraints.find((constraint) => constraint.keyword === 'maxLength')?.limit;
    assert.ok(limit !== undefined, 'the note has a longest length');
    const note = '\u{1F600}'.repeat(limit + 1);
    const refused = await call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: 1, [noteName]: note }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(refused instanceof exported('InvalidFieldError'), String(refused));
    assert.ok(!(refused as Error).message.includes('\u{1F600}'.repeat(10)), (refused as Error).message);
    assert.match((refused as Error).message, new RegExp(`${limit + 1} characters`));
    const host = await scriptedHost(() => jsonError(errors.invalidParameter.status, errors.invalidParameter.code, `x${'\u{1F600}'.repeat(1000)}`));
    try {
      const { outcome } = await reported(host.url, { maxAttempts: 1 });
      const message = (outcome as Error).message;
      assert.ok(outcome instanceof errorClass(errors.invalidParameter.status), message);
      assert.ok(message.length < 600, `${message.length} UTF-16 units`);
      assert.doesNotThrow(() => encodeURIComponent(message), 'no lone surrogate');
      assert.match(message, /\(1001 characters in all\)/);
    } finally {
      await host.close();
    }
  });
});

describe('timeouts, aborts and the pace', () => {
  test('no answer within the timeout is a timeout error', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const client = new Client(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, apiKey, { pace: 0, timeout: 300, maxAttempts: 1 });
      const started = performance.now();
      const error = await call(client, firstAction, { ...callerExample(model, firstAction), [subject]: 1 }).then(() => undefined, (caught: unknown) => caught);
      assert.ok(error instanceof exported('TimeoutError'), String(error));
      assert.ok(performance.now() - started < 3000);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('an AbortSignal ends a call while it waits out a Retry-After, with the signal\'s reason', async () => {
    // A host of its own: the 30 seconds it asks for hold back every later request to its address,
    // which must not be the sandbox the other tests send to.
    const host = await throttlingHost('30');
    try {
      const controller = new AbortController();
      const reason = new Error('the caller gave up');
      setTimeout(() => controller.abort(reason), 300);
      const started = performance.now();
      const error = await call(new Client(host.url, apiKey, { pace: 0 }), firstAction, { ...callerExample(model, firstAction), [subject]: 1 }, { signal: controller.signal }).then(() => undefined, (caught: unknown) => caught);
      assert.equal(error, reason);
      assert.ok(performance.now() - started < 3000, 'ended at once');
    } finally {
      await host.close();
    }
  });

  test('by default, two requests to one site are about a second apart; with the pace off they are not', async () => {
    const paced = new Client(sandbox.url, apiKey);
    const { gaps } = await arrivalsOf(async () => {
      await call(paced, firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() });
      await call(paced, firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() });
    });
    assert.ok((gaps[0] as number) >= 950, `paced ${Math.round(gaps[0] as number)} ms apart`);
    const unpaced = await arrivalsOf(async () => {
      await call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() });
      await call(quick(), firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() });
    });
    assert.ok((unpaced.gaps[0] as number) < 900, `unpaced ${Math.round(unpaced.gaps[0] as number)} ms apart`);
  });
});

describe('the base URL and the key', () => {
  test('the ?rest_route= form of a site without pretty permalinks reaches the endpoint', async () => {
    const client = new Client(`${sandbox.url}/?rest_route=/`, apiKey, { pace: 0 });
    assert.match(String((client as unknown as { settings: { endpoint: string } }).settings.endpoint), /\?rest_route=\/[^&]*action$/);
    const answer = await call(client, firstAction, { ...callerExample(model, firstAction), [subject]: takeSpare() });
    assert.equal(answer[result.changed], true);
  });

  test('a site installed in a subdirectory', async () => {
    const id = 30_001;
    const shop = await startSandbox({ port: 0, contract, apiKey, basePath: '/shop', seed: [{ id, status: startingPoint(model, firstAction).from }] });
    try {
      assert.ok(shop.url.endsWith('/shop'));
      const answer = await call(new Client(shop.url, apiKey, { pace: 0 }), firstAction, { ...callerExample(model, firstAction), [subject]: id });
      assert.equal(answer[result.changed], true);
    } finally {
      await shop.close();
    }
  });

  test('a base URL without its scheme is refused with a clear message', () => {
    assert.throws(() => new Client('shop.example', apiKey), /base URL must be a whole URL with its scheme/);
  });

  test('the key is in no printed form of the client', () => {
    const client = quick();
    for (const printed of [inspect(client), inspect(client, { showHidden: true, depth: 10 }), JSON.stringify(client), format('%o', client), String(client)]) {
      assert.ok(!printed.includes(apiKey), printed);
    }
  });
});
