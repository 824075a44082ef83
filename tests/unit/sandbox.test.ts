/**
 * The sandbox in this process, through `answer` (`openSandbox`): every answer the document
 * describes, WordPress core's decisions and the host's, and its database. What needs a socket or
 * a second process (HTTP, a second writer, the gate, the command line) is in
 * tests/integration/sandbox.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { checkAgainstDocument, reviewAnswer } from '../../src/conformance/check-answer.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { allowedActions } from '../../src/lib/contract/lifecycle.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bodyLimitBytes, hostErrorHeader, hostErrorStatuses, throttleHeader } from '../../src/sandbox/host.ts';
import { defaultApiKey, exampleSubscriptions, SeedError } from '../../src/sandbox/seed.ts';
import type { LocalSandbox } from '../../src/sandbox/server.ts';
import { openSandbox } from '../../src/sandbox/server.ts';
import { readWalkthrough } from '../../src/sandbox/walkthrough.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { send, validBody } from '../support/sandbox-fixture.ts';

const workDirectory = mkdtempSync(path.join(tmpdir(), 'sandbox-test-'));
const contract = readExecutableContract(bundledDocument());
let sandbox: LocalSandbox;

before(async () => {
  sandbox = await openSandbox({ contract });
});
after(async () => {
  await sandbox.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** A valid body for an action on a subscription, from the document's own example. */
const body = (identifier: string, subscriptionId: number, extra: Record<string, unknown> = {}) => validBody(sandbox, identifier, subscriptionId, extra);

/** The subscription the default seed put in a status. */
function seededIn(status: string, from: LocalSandbox = sandbox): number {
  const found = from.seeded.find((subscription) => subscription.status === status);
  assert.ok(found, `the default seed has a subscription that is ${status}`);
  return found.id;
}

/**
 * Every answer a test sees must be one the document describes, headers and body included, and,
 * unlike a real install, the sandbox adds no member the document does not name.
 */
function assertOnContract(answer: Parameters<typeof reviewAnswer>[1]): void {
  assert.deepEqual(reviewAnswer(sandbox.contract, answer), { problems: [], notes: [] }, `off the contract: ${answer.status} ${answer.body}`);
}

describe('the default seed', () => {
  test('holds one subscription in every status and those the examples name, and the key is visibly fake', () => {
    const held = sandbox.subscriptions();
    assert.deepEqual(held.slice(0, sandbox.contract.model.lifecycle.states.length).map((subscription) => subscription.status), sandbox.contract.model.lifecycle.states);
    // A sample pointed at a local sandbox answers as its page shows: its subscription is there, in the status it starts from.
    for (const example of exampleSubscriptions(sandbox.contract)) assert.ok(held.some((subscription) => subscription.id === example.id && subscription.status === example.status), `subscription ${example.id}`);
    assert.equal(sandbox.apiKey, defaultApiKey);
    assert.match(sandbox.apiKey, /not-a-secret/);
  });
});

describe('answers every documented status', () => {
  test('200 with the change, then 200 with changed: false, recording the note once', async () => {
    const { result, model } = sandbox.contract;
    const quick = model.actions.find((action) => action.transition.kind === 'fixed' && action.transition.from.length === 1);
    assert.ok(quick?.transition.kind === 'fixed');
    const id = seededIn(quick.transition.from[0] ?? '');
    const first = await send(sandbox, body(quick.identifier, id, { [model.envelope.note ?? '']: 'first' }));
    assertOnContract(first);
    assert.equal(first.status, 200);
    assert.equal(first.json()[result.changed], true);
    assert.equal(first.json()[result.status], quick.transition.to);
    const again = await send(sandbox, body(quick.identifier, id, { [model.envelope.note ?? '']: 'again' }));
    assertOnContract(again);
    assert.equal(again.json()[result.changed], false);
    assert.equal(again.json()[result.previousStatus], quick.transition.to);
    const history = sandbox.history(id);
    assert.equal(history.length, 1, 'changed: false records nothing');
    assert.equal(history[0]?.note, 'first');
  });

  test('409 names the current status and the actions that would change it, as the document\'s examples do', async () => {
    const { errors, model } = sandbox.contract;
    const conflict = model.responses.find((response) => response.status === String(errors.transitionNotAllowed.status));
    assert.ok(conflict && conflict.examples.length > 0);
    for (const example of conflict.examples) {
      assert.ok(isRecord(example.value) && isRecord(example.value.data));
      const current = String(example.value.data[errors.currentStatusMember]);
      const refused = model.actions.find((action) => action.refusedStates.includes(current));
      assert.ok(refused, `some action is refused from ${current}`);
      const id = sandbox.subscriptions().find((subscription) => subscription.status === current)?.id;
      assert.ok(id !== undefined);
      const answer = await send(sandbox, body(refused.identifier, id));
      assertOnContract(answer);
      assert.equal(answer.status, 409);
      const data = answer.json().data as Record<string, unknown>;
      assert.deepEqual(data[errors.allowedActionsMember], example.value.data[errors.allowedActionsMember], `example ${example.name}`);
      assert.deepEqual(data[errors.allowedActionsMember], allowedActions(model.lifecycle, current));
    }
  });

  test('400 for broken JSON, invalid UTF-8, a form body, a missing field and each rejected field', async () => {
    const { errors, model } = sandbox.contract;
    const id = seededIn('expired');
    const cases: [string, Awaited<ReturnType<typeof send>>, string][] = [
      ['broken JSON', await send(sandbox, undefined, { raw: '{"api_key": ' }), errors.invalidJson.code],
      ['invalid UTF-8', await send(sandbox, undefined, { raw: Uint8Array.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }), errors.invalidJson.code],
      ['form encoding', await send(sandbox, undefined, { raw: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), errors.missingParameter.code],
      ['no subscription', await send(sandbox, { ...body('cancel_subscription', id), [model.envelope.subject]: undefined }), errors.missingParameter.code],
      ['unknown action', await send(sandbox, body('cancel_subscription', id, { [model.envelope.selector]: 'refund' })), errors.invalidParameter.code],
      ['unknown field', await send(sandbox, body('cancel_subscription', id, { refund: true })), errors.invalidParameter.code],
      ['wrong type', await send(sandbox, body('cancel_subscription', id, { [model.envelope.subject]: 'seven' })), errors.invalidParameter.code],
      ['out of range', await send(sandbox, body('cancel_subscription', 0)), errors.invalidParameter.code],
    ];
    for (const [name, answer, code] of cases) {
      assertOnContract(answer);
      assert.equal(answer.status, 400, name);
      assert.equal(answer.json().code, code, name);
    }
    const brokenJson = cases[0]?.[1].json().data as Record<string, unknown>;
    assert.equal(typeof brokenJson.json_error_code, 'number', 'PHP\'s json_last_error() code, as WordPress adds it');
    const missing = cases[3]?.[1].json().data as Record<string, unknown>;
    assert.deepEqual(missing[errors.paramsMember], [model.envelope.subject]);
    const unknown = cases[5]?.[1].json().data as Record<string, unknown>;
    assert.deepEqual(Object.keys(unknown[errors.paramsMember] as object), ['refund']);
    // Core rejects every field its arguments describe at once; a field no action takes is the plugin's, later.
    const both = await send(sandbox, body('cancel_subscription', 0, { refund: true, [model.envelope.note ?? '']: 'x'.repeat(501) }));
    const bothData = both.json().data as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(bothData[errors.paramsMember] ?? {}).sort(), ['note', 'subscription_id']);
    assert.deepEqual(Object.keys(bothData.details ?? {}).sort(), ['note', 'subscription_id']);
    assert.ok(sandbox.subscriptions().some((subscription) => subscription.id === id && subscription.status === 'expired'), 'nothing changed');
  });

  test('401 for a missing or wrong key on a request whose fields are right; wrong fields get their 400 first, as WordPress orders them', async () => {
    const { model, errors } = sandbox.contract;
    const id = seededIn('active');
    const statusBefore = sandbox.subscriptions().find((subscription) => subscription.id === id)?.status;
    for (const key of [undefined, null, 'wrong']) {
      const answer = await send(sandbox, body('cancel_subscription', id, { [model.envelope.credential]: key }));
      assertOnContract(answer);
      assert.equal(answer.status, 401, String(key));
      assert.equal(answer.json().code, errors.invalidKey.code);
      assert.equal(answer.headers.allow, undefined, 'core shows Allow only to a request the permission callback lets through');
    }
    for (const key of ['', 42]) {
      const answer = await send(sandbox, body('cancel_subscription', id, { [model.envelope.credential]: key }));
      assert.equal(answer.json().code, errors.invalidParameter.code, `the key ${JSON.stringify(key)} breaks its argument's schema`);
    }
    const unknownField = await send(sandbox, body('cancel_subscription', id, { [model.envelope.credential]: 'wrong', refund: true }));
    assert.equal(unknownField.status, 400);
    assert.equal(sandbox.subscriptions().find((subscription) => subscription.id === id)?.status, statusBefore);
  });

  test('an ID past PHP\'s integers is printed as the plugin prints it: INF for an infinite number, PHP\'s (int) of a numeric string', async () => {
    const { errors, model } = sandbox.contract;
    // The figures PHP 8.2 prints (`php -r 'var_dump((int)"1e30", (int)"1e999"); printf("%.0f", INF);'`).
    const printed: [string, string][] = [
      ['1e999', 'INF'],
      ['9'.repeat(400), 'INF'],
      ['"99999999999999999999"', '9223372036854775807'],
      ['"1e30"', '9223372036854775807'],
      ['"1e999"', '0'],
    ];
    const valid = JSON.stringify(body('cancel_subscription', 0));
    for (const [literal, shown] of printed) {
      const raw = valid.replace(`"${model.envelope.subject}":0`, `"${model.envelope.subject}":${literal}`);
      const answer = await send(sandbox, undefined, { raw });
      assert.equal(answer.json().code, errors.subscriptionNotFound.code, literal.slice(0, 20));
      assert.equal(answer.json().message, `Subscription ${shown} was not found.`, literal.slice(0, 20));
    }
  });

  test('404 for an unknown subscription, another method, another path; a page, not JSON, outside the site', async () => {
    const { errors } = sandbox.contract;
    const unknown = await send(sandbox, body('cancel_subscription', 999_999));
    assertOnContract(unknown);
    assert.equal(unknown.json().code, errors.subscriptionNotFound.code);
    const huge = await send(sandbox, body('cancel_subscription', 2 ** 60));
    assert.equal(huge.json().code, errors.subscriptionNotFound.code);
    for (const [method, pathName] of [
      ['GET', undefined],
      ['PUT', undefined],
      ['DELETE', undefined],
      ['POST', '/wp-json/service/v1/actions'],
      ['POST', '/wp-json/service/v2/action'],
    ] as const) {
      const answer = await send(sandbox, body('cancel_subscription', 1), { method, ...(pathName === undefined ? {} : { path: pathName }) });
      assertOnContract(answer);
      assert.equal(answer.json().code, errors.noRoute.code, `${method} ${pathName ?? ''}`);
    }
    const outside = await send(sandbox, body('cancel_subscription', 1), { path: `/shop${sandbox.contract.model.endpoint.urlPath}` });
    assert.equal(outside.status, 404);
    assert.match(outside.headers['content-type'] ?? '', /^text\/html/);
  });

  test('429 with Retry-After and an HTML body on request, changing nothing', async () => {
    const id = seededIn('trial');
    for (const value of ['3', 'Fri, 20 Nov 2026 14:05:00 GMT']) {
      const answer = await send(sandbox, body('cancel_subscription', id), { headers: { [throttleHeader]: value } });
      assertOnContract(answer);
      assert.equal(answer.status, Number(sandbox.contract.throttled.status));
      assert.equal(answer.headers['retry-after'], value);
      assert.match(answer.headers['content-type'] ?? '', /^text\/html/);
    }
    assert.equal(sandbox.subscriptions().find((subscription) => subscription.id === id)?.status, 'trial');
    const refused = await send(sandbox, body('cancel_subscription', id), { headers: { [throttleHeader]: 'soon' } });
    assertOnContract(refused);
    assert.equal(refused.status, 400);
  });

  test('500 when the database cannot be written, with nothing changed', async () => {
    const file = path.join(workDirectory, 'locked.sqlite');
    const failures: string[] = [];
    const locked = await openSandbox({ contract, db: file, busyTimeoutMs: 20, logError: (line) => failures.push(line) });
    const other = new DatabaseSync(file);
    try {
      other.exec('BEGIN EXCLUSIVE');
      const id = seededIn('active', locked);
      const answer = await send(locked, body('cancel_subscription', id));
      assert.deepEqual(checkAgainstDocument(locked.contract, answer), []);
      assert.equal(answer.status, 500);
      assert.equal(answer.json().code, locked.contract.errors.internalError.code);
      other.exec('ROLLBACK');
      assert.match(failures.join('\n'), /database is locked/);
      assert.doesNotMatch(answer.body, /locked|store\.ts/, 'the cause stays in the log, out of the answer');
      assert.equal(locked.subscriptions().find((subscription) => subscription.id === id)?.status, 'active');
    } finally {
      other.close();
      await locked.close();
    }
  });
});

describe('answers what WordPress core decides as core does', () => {
  const route = () => sandbox.contract.model.endpoint.urlPath;
  const codeOf = (answer: Awaited<ReturnType<typeof send>>) => (answer.headers['content-type']?.startsWith('application/json') ? answer.json().code : undefined);

  test('the route is found with a trailing slash, in upper case, through ?rest_route= and with a method override', async () => {
    const id = 999_990;
    const notFound = sandbox.contract.errors.subscriptionNotFound.code;
    for (const [label, options] of [
      ['trailing slash', { path: `${route()}/` }],
      ['upper case', { path: route().replace('action', 'ACTION') }],
      ['rest_route', { path: `/?rest_route=${route().replace('/wp-json', '')}` }],
      ['_method', { method: 'PUT', path: `${route()}?_method=POST` }],
      ['override header', { method: 'PUT', headers: { 'x-http-method-override': 'POST' } }],
    ] as const) {
      const answer = await send(sandbox, body('cancel_subscription', id), options);
      assert.equal(codeOf(answer), notFound, label);
    }
  });

  test('OPTIONS and the namespace index answer 200; ?_envelope wraps any answer in a 200', async () => {
    const options = await send(sandbox, undefined, { method: 'OPTIONS', raw: '' });
    assert.equal(options.status, 200);
    assert.deepEqual(options.json().methods, [sandbox.contract.model.endpoint.method]);
    const index = await send(sandbox, undefined, { method: 'GET', path: sandbox.contract.model.endpoint.versionNamespace.replace(/\/$/, '') });
    assert.equal(index.status, 200);
    const wrapped = await send(sandbox, body('cancel_subscription', 999_991), { path: `${route()}?_envelope` });
    assert.equal(wrapped.status, 200);
    assert.equal((wrapped.json() as { status: number }).status, 404);
  });

  test('JSON is read from any +json media type, not from text/plain or an empty body; a BOM or 512 levels of nesting are invalid', async () => {
    const { errors } = sandbox.contract;
    const valid = JSON.stringify(body('cancel_subscription', 999_992));
    const merge = await send(sandbox, undefined, { raw: valid, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(codeOf(merge), errors.subscriptionNotFound.code);
    const plain = await send(sandbox, undefined, { raw: valid, headers: { 'content-type': 'text/plain' } });
    assert.equal(codeOf(plain), errors.missingParameter.code);
    const empty = await send(sandbox, undefined, { raw: '' });
    assert.equal(codeOf(empty), errors.missingParameter.code);
    const bom = await send(sandbox, undefined, { raw: `\uFEFF${valid}` });
    assert.equal(codeOf(bom), errors.invalidJson.code);
    const deep = await send(sandbox, undefined, { raw: `${'['.repeat(512)}${']'.repeat(512)}` });
    assert.equal(codeOf(deep), errors.invalidJson.code);
    const deepButAllowed = await send(sandbox, undefined, { raw: `${'['.repeat(511)}${']'.repeat(511)}` });
    assert.equal(codeOf(deepButAllowed), errors.missingParameter.code);
  });

  test('a numeric string passes an integer field and null counts as missing', async () => {
    const { errors, model } = sandbox.contract;
    const numeric = await send(sandbox, body('cancel_subscription', 999_993, { [model.envelope.subject]: '999993' }));
    assert.equal(codeOf(numeric), errors.subscriptionNotFound.code);
    const nullSubject = await send(sandbox, body('cancel_subscription', 1, { [model.envelope.subject]: null }));
    assert.equal(codeOf(nullSubject), errors.missingParameter.code);
  });

  test('every REST answer carries WordPress\'s headers, and Allow only once the key has passed', async () => {
    const accepted = await send(sandbox, body('cancel_subscription', 999_994));
    assert.match(accepted.headers.link ?? '', /<http:\/\/127\.0\.0\.1:\d+\/wp-json\/>; rel="https:\/\/api\.w\.org\/"/);
    assert.equal(accepted.headers['x-robots-tag'], 'noindex');
    assert.equal(accepted.headers['x-content-type-options'], 'nosniff');
    assert.equal(accepted.headers.allow, sandbox.contract.model.endpoint.method);
    const cors = await send(sandbox, body('cancel_subscription', 999_994), { headers: { origin: 'https://shop-admin.example' } });
    assert.equal(cors.headers['access-control-allow-origin'], 'https://shop-admin.example');
  });
});

describe('the guide\'s statements of what WordPress decides', () => {
  test('are the sandbox\'s own answers: the fields\' 400 before the key\'s 401, and no JSON (fields missing) for a body not sent as JSON', () => {
    const { invalidParameter, invalidKey, missingParameter, invalidJson } = contract.errors;
    const walkthrough = readWalkthrough(bundledDocument());
    assert.equal(walkthrough.fieldsAndKeyWrongAnswer, `${invalidParameter.status} ${invalidParameter.code}`);
    assert.notEqual(walkthrough.fieldsAndKeyWrongAnswer, `${invalidKey.status} ${invalidKey.code}`);
    assert.equal(walkthrough.bodyNotJsonAnswer, `${missingParameter.status} ${missingParameter.code}`);
    assert.notEqual(walkthrough.bodyNotJsonAnswer, `${invalidJson.status} ${invalidJson.code}`);
  });
});

describe('imitates its host', () => {
  test('Sandbox-Host-Error answers each host status with an HTML page', async () => {
    for (const status of hostErrorStatuses) {
      const answer = await send(sandbox, body('cancel_subscription', 1), { headers: { [hostErrorHeader]: String(status) } });
      assert.equal(answer.status, status);
      assert.match(answer.headers['content-type'] ?? '', /^text\/html/);
      assert.match(answer.body, /<html/);
    }
    const refused = await send(sandbox, body('cancel_subscription', 1), { headers: { [hostErrorHeader]: '500' } });
    assertOnContract(refused);
    assert.equal(refused.status, 400);
    assert.equal(sandbox.subscriptions()[0]?.status, sandbox.contract.model.lifecycle.states[0]);
  });

  test('answers the next requests as the host when a test asks, for clients that cannot send the header', async () => {
    sandbox.throttleNext(2, '1');
    sandbox.hostErrorNext(1, 503);
    const answers = [];
    for (let index = 0; index < 4; index += 1) answers.push(await send(sandbox, body('cancel_subscription', 999_997)));
    assert.deepEqual(answers.map((answer) => answer.status), [Number(sandbox.contract.throttled.status), Number(sandbox.contract.throttled.status), 503, 404]);
    assert.equal(answers[0]?.headers['retry-after'], '1');
  });

  test('the log line of a throttled answer names the Retry-After it carries, as the errors guide says', async () => {
    const lines: string[] = [];
    const logged = await openSandbox({ contract, log: (line) => lines.push(line) });
    try {
      logged.throttleNext(1, '7');
      logged.throttleNext(1, 'Fri, 20 Nov 2026 14:05:00 GMT');
      const throttled = String(contract.throttled.status);
      for (let index = 0; index < 3; index += 1) await send(logged, validBody(logged, 'cancel_subscription', 999_997));
      assert.match(lines[0] ?? '', new RegExp(` -> ${throttled} ${contract.retryAfterHeader}: 7$`));
      assert.match(lines[1] ?? '', new RegExp(` -> ${throttled} ${contract.retryAfterHeader}: Fri, 20 Nov 2026 14:05:00 GMT$`));
      assert.match(lines[2] ?? '', / -> 404 \{/, 'an answer of the service still shows its body');
    } finally {
      logged.close();
    }
  });

  test('a body over the limit gets the 413 a web server gives, and the sandbox goes on', async () => {
    const answer = await send(sandbox, undefined, { raw: `{"note": "${'x'.repeat(bodyLimitBytes)}"}` });
    assert.equal(answer.status, 413);
    assert.match(answer.body, /<html/);
    const next = await send(sandbox, body('cancel_subscription', 999_998));
    assert.equal(next.status, 404);
  });
});

describe('keeps its data', () => {
  test('across a restart on the same file, without seeding again', async () => {
    const file = path.join(workDirectory, 'kept.sqlite');
    const first = await openSandbox({ contract, db: file });
    const id = seededIn('active', first);
    const answer = await send(first, { ...body('pause_subscription', id), [first.contract.model.envelope.note ?? '']: 'kept' });
    assert.equal(answer.status, 200);
    await first.close();
    const second = await openSandbox({ contract, db: file });
    try {
      assert.deepEqual(second.seeded, []);
      assert.equal(second.subscriptions().find((subscription) => subscription.id === id)?.status, 'on-hold');
      assert.equal(second.history(id)[0]?.note, 'kept');
    } finally {
      await second.close();
    }
  });
});

describe('refuses to open', () => {
  test('on a seed that is not usable, naming each problem', async () => {
    const file = path.join(workDirectory, 'seed.json');
    writeFileSync(file, JSON.stringify([{ id: 1, status: 'paused' }, { id: 1, status: 'active' }, { id: 0, status: 'active', plan: 'gold' }]));
    await assert.rejects(openSandbox({ contract, seed: file }), (error: unknown) => {
      assert.ok(error instanceof SeedError);
      assert.match(error.message, /item 1: "status" is "paused"; expected one of pending/);
      assert.match(error.message, /item 2: the id 1 appears twice/);
      assert.match(error.message, /item 3: "plan" is not a member/);
      assert.match(error.message, /item 3: "id" is 0/);
      return true;
    });
    writeFileSync(file, '[{"id": 9007199254740993, "status": "active"}]');
    await assert.rejects(openSandbox({ contract, seed: file }), (error: unknown) => {
      assert.ok(error instanceof SeedError);
      assert.match(error.message, /item 1: "id" is past 9007199254740991 \(2\^53 - 1\)/);
      assert.doesNotMatch(error.message, /9007199254740992/);
      return true;
    });
    writeFileSync(file, '[{"id": 1,');
    await assert.rejects(openSandbox({ contract, seed: file }), /is not JSON/);
  });
});
