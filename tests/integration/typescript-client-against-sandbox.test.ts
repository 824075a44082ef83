/**
 * The TypeScript client, packed and installed from its tarball, against the real sandbox over
 * HTTP: every action and its repeat, each documented error as its class, the host's 429 with each
 * form of `Retry-After` waited out, a wait beyond the bound, an unreadable `Retry-After`, a host's
 * HTML page, a timeout, an abort, the courtesy pace, the base URL's forms, and the key never printed.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { format, inspect } from 'node:util';
import { errorClassName, methodName } from '../../src/clients/typescript/generate.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions, outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { installTypescriptClient, type InstalledClient } from '../../src/clients/typescript/installed-package.ts';

const contract = readExecutableContract(bundledDocument());
const { model, result, errors } = contract;
const { selector, credential, subject } = model.envelope;
/** A key the test can look for in everything the client prints. */
const apiKey = 'a-key-that-must-never-be-printed';

type Fields = Record<string, unknown>;
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
let nextId = 20_000;
const seeded: { id: number; status: string }[] = [];

function place(status: string): number {
  const id = nextId++;
  seeded.push({ id, status });
  return id;
}

function callerExample(action: Action): Fields {
  const { [selector]: _selector, [credential]: _key, ...fields } = action.requestExample.value;
  return fields;
}

function startOf(action: Action): { from: string; requested?: string } {
  const example = action.requestExample.value;
  const requested = action.transition.kind === 'chosen' ? String(example[action.transition.field]) : undefined;
  const from = model.lifecycle.states.find((state) => outcomeOf(action.transition, state, requested).kind === 'changed');
  assert.ok(from !== undefined, `some status accepts ${action.identifier}`);
  return { from, ...(requested === undefined ? {} : { requested }) };
}

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
const refusing = model.actions.find((action) => action.refusedStates.some((status) => allowedActions(model.lifecycle, status).length > 0));
assert.ok(refusing !== undefined, 'some action is refused from a status that allows others');
const refusedStatus = refusing.refusedStates.find((status) => allowedActions(model.lifecycle, status).length > 0) as string;
const cases = model.actions.map((action) => ({ action, ...startOf(action), id: 0 }));
let refusedId = 0;
const spare: number[] = [];

before(async () => {
  installed = installTypescriptClient(contract);
  library = (await import(installed.entryUrl)) as Record<string, unknown>;
  Client = library.SubscriptionLifecycleClient as ClientClass;
  for (const entry of cases) entry.id = place(entry.from);
  refusedId = place(refusedStatus);
  for (let index = 0; index < 16; index += 1) spare.push(place(startOf(firstAction).from));
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
      const answer = await call(client, action, { ...callerExample(action), [subject]: id });
      const outcome = outcomeOf(action.transition, from, requested);
      assert.equal(outcome.kind, 'changed');
      assert.equal(answer[result.action], action.identifier);
      assert.equal(answer[result.previousStatus], from);
      assert.equal(answer[result.status], outcome.kind === 'changed' ? outcome.to : undefined);
      assert.equal(answer[result.changed], true);
      const repeated = await client.action(action.identifier, { ...callerExample(action), [subject]: id });
      assert.equal(repeated[result.changed], false, `${action.identifier} repeated`);
    }
  });
});

describe('the documented errors, each as its class', () => {
  test('a status that refuses the action: the conflict class with the current status and the actions it allows', async () => {
    const error = await call(quick(), refusing, { ...callerExample(refusing), [subject]: refusedId }).then(() => undefined, (caught: unknown) => caught);
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
      const error = await call(quick(), firstAction, { ...callerExample(firstAction), [subject]: 0 }).then(() => undefined, (caught: unknown) => caught);
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
    const error = await quick().action(firstAction.identifier, { ...callerExample(firstAction), [subject]: takeSpare(), a_field_no_release_has: 1 }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof errorClass(errors.invalidParameter.status), String(error));
    const fields = error as unknown as Record<string, unknown>;
    assert.equal(fields.code, errors.invalidParameter.code);
    assert.ok(fields[errors.paramsMember] !== undefined, `${errors.paramsMember} is read`);
  });

  test('a wrong key: the 401 class, and the key in no message', async () => {
    const error = await call(new Client(sandbox.url, `${apiKey}-wrong`, { pace: 0 }), firstAction, { ...callerExample(firstAction), [subject]: takeSpare() }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof errorClass(errors.invalidKey.status), String(error));
    assert.equal((error as unknown as Record<string, unknown>).code, errors.invalidKey.code);
    assert.ok(!inspect(error).includes(apiKey) && !JSON.stringify(error).includes(apiKey));
  });

  test('an unknown subscription: the 404 class', async () => {
    const error = await call(quick(), firstAction, { ...callerExample(firstAction), [subject]: 2_147_483_000 }).then(() => undefined, (caught: unknown) => caught);
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
      const { lines, gaps } = await arrivalsOf(() => call(quick(), firstAction, { ...callerExample(firstAction), [subject]: id }));
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
    const error = await call(quick({ maxRetryWait: 60_000 }), firstAction, { ...callerExample(firstAction), [subject]: takeSpare() }).then(() => undefined, (caught: unknown) => caught);
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
        const error: unknown = await call(client, firstAction, { ...callerExample(firstAction), [subject]: 1 }).then(() => undefined, (caught: unknown) => caught);
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
    const error = await call(quick(), firstAction, { ...callerExample(firstAction), [subject]: takeSpare() }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof exported('HostError'), String(error));
    assert.equal((error as unknown as Record<string, unknown>).status, 403);
    assert.match(String((error as unknown as Record<string, unknown>).contentType), /html/);
  });

  test('a host\'s 503 is sent again after a backoff, and the action succeeds', async () => {
    const id = takeSpare();
    sandbox.hostErrorNext(1, 503);
    const answer = await call(quick(), firstAction, { ...callerExample(firstAction), [subject]: id });
    assert.equal(answer[result.changed], true);
  });
});

describe('timeouts, aborts and the pace', () => {
  test('no answer within the timeout is a timeout error', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const client = new Client(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, apiKey, { pace: 0, timeout: 300, maxAttempts: 1 });
      const started = performance.now();
      const error = await call(client, firstAction, { ...callerExample(firstAction), [subject]: 1 }).then(() => undefined, (caught: unknown) => caught);
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
      const error = await call(new Client(host.url, apiKey, { pace: 0 }), firstAction, { ...callerExample(firstAction), [subject]: 1 }, { signal: controller.signal }).then(() => undefined, (caught: unknown) => caught);
      assert.equal(error, reason);
      assert.ok(performance.now() - started < 3000, 'ended at once');
    } finally {
      await host.close();
    }
  });

  test('by default, two requests to one site are about a second apart; with the pace off they are not', async () => {
    const paced = new Client(sandbox.url, apiKey);
    const { gaps } = await arrivalsOf(async () => {
      await call(paced, firstAction, { ...callerExample(firstAction), [subject]: takeSpare() });
      await call(paced, firstAction, { ...callerExample(firstAction), [subject]: takeSpare() });
    });
    assert.ok((gaps[0] as number) >= 950, `paced ${Math.round(gaps[0] as number)} ms apart`);
    const unpaced = await arrivalsOf(async () => {
      await call(quick(), firstAction, { ...callerExample(firstAction), [subject]: takeSpare() });
      await call(quick(), firstAction, { ...callerExample(firstAction), [subject]: takeSpare() });
    });
    assert.ok((unpaced.gaps[0] as number) < 900, `unpaced ${Math.round(unpaced.gaps[0] as number)} ms apart`);
  });
});

describe('the base URL and the key', () => {
  test('the ?rest_route= form of a site without pretty permalinks reaches the endpoint', async () => {
    const client = new Client(`${sandbox.url}/?rest_route=/`, apiKey, { pace: 0 });
    assert.match(String((client as unknown as { settings: { endpoint: string } }).settings.endpoint), /\?rest_route=\/[^&]*action$/);
    const answer = await call(client, firstAction, { ...callerExample(firstAction), [subject]: takeSpare() });
    assert.equal(answer[result.changed], true);
  });

  test('a site installed in a subdirectory', async () => {
    const id = 30_001;
    const shop = await startSandbox({ port: 0, contract, apiKey, basePath: '/shop', seed: [{ id, status: startOf(firstAction).from }] });
    try {
      assert.ok(shop.url.endsWith('/shop'));
      const answer = await call(new Client(shop.url, apiKey, { pace: 0 }), firstAction, { ...callerExample(firstAction), [subject]: id });
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
