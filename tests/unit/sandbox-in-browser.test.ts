/**
 * The parts of the sandbox that let it run where Node is not: the memory store, the reason
 * phrases, latin-1 without `Buffer`, and the simulation the page's worker runs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { noSchemaValidator, readExecutableContractWith } from '../../src/lib/contract/serving-contract.ts';
import { latin1 } from '../../src/sandbox/bytes.ts';
import { hostErrorStatuses, payloadTooLargeStatus } from '../../src/sandbox/host.ts';
import { curlCommand, type SentRequest } from '../../src/components/reference/try-it/exchange.ts';
import { curlSample } from '../../src/lib/samples/action-sample/curl.ts';
import { retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { createSimulation } from '../../src/sandbox/in-browser/simulation.ts';
import { createMemoryStore } from '../../src/sandbox/memory-store.ts';
import { knownReasonPhrases, reasonPhrase } from '../../src/sandbox/reason-phrases.ts';
import { defaultApiKey, defaultSeed, sandboxSeed } from '../../src/sandbox/seed.ts';
import { scriptSources } from '../../src/lib/site/content-security-policy.ts';
import { headersFor, parseHeadersFile } from '../../src/lib/site/static-headers.ts';
import { sandboxWorkerPath, tryPanelPath } from '../../src/sandbox/in-browser/bundle.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';

let contract: ExecutableContract;
before(() => {
  contract = readExecutableContractWith(bundledDocument(), noSchemaValidator);
});

describe('the reason phrases', () => {
  test('each is the one Node sends', () => {
    for (const [status, phrase] of Object.entries(knownReasonPhrases())) assert.equal(phrase, STATUS_CODES[status], status);
  });

  test('every status the document answers with, and every host answer, has one', () => {
    const statuses = [...contract.model.responses.map((response) => Number(response.status)), ...hostErrorStatuses, payloadTooLargeStatus, 200, 404];
    for (const status of statuses) assert.ok(reasonPhrase(status) !== undefined, `no reason phrase for ${status}`);
  });
});

describe('latin-1 without Buffer', () => {
  test('every byte is the character of the same number, 0x80 to 0x9F included', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    assert.equal(latin1(bytes), Buffer.from(bytes).toString('latin1'));
    assert.equal(latin1(new Uint8Array([0x80])), '\u0080');
  });

  test('a body longer than one slice is read whole', () => {
    const bytes = new Uint8Array(20_000).fill(0x61);
    assert.equal(latin1(bytes).length, 20_000);
  });
});

describe('the memory store', () => {
  const states = () => contract.model.lifecycle.states;

  test('adds only the subscriptions that are missing, and lists them by ID', () => {
    const store = createMemoryStore(states());
    const [first, second] = states();
    assert.ok(first !== undefined && second !== undefined);
    assert.deepEqual(store.addMissing([{ id: 2, status: first }, { id: 1, status: first }]), [{ id: 2, status: first }, { id: 1, status: first }]);
    assert.deepEqual(store.addMissing([{ id: 1, status: second }, { id: 3, status: second }]), [{ id: 3, status: second }]);
    assert.deepEqual(store.list(), [{ id: 1, status: first }, { id: 2, status: first }, { id: 3, status: second }]);
  });

  test('writes a change and its history entry only once the decision is made', () => {
    const [first, second] = states();
    assert.ok(first !== undefined && second !== undefined);
    const store = createMemoryStore(states(), undefined, () => '2026-01-01T00:00:00.000Z');
    store.addMissing([{ id: 1, status: first }]);
    const seen = store.act(1, (current) => ({ change: { action: 'move', to: second, note: 'why' }, result: current }));
    assert.equal(seen, first);
    assert.deepEqual(store.list(), [{ id: 1, status: second }]);
    assert.deepEqual(store.history(1), [{ subscriptionId: 1, action: 'move', previousStatus: first, status: second, note: 'why', recordedAt: '2026-01-01T00:00:00.000Z' }]);
  });

  test('a refusal, or a failure while deciding, leaves nothing behind', () => {
    const [first, second] = states();
    assert.ok(first !== undefined && second !== undefined);
    const store = createMemoryStore(states());
    store.addMissing([{ id: 1, status: first }]);
    store.act(1, () => ({ result: 'refused' }));
    assert.throws(() => store.act(1, () => { throw new Error('broken'); }), /broken/);
    assert.throws(() => store.act(1, () => ({ change: { action: 'move', to: 'no-such-status' }, result: 0 })), /not one the contract knows/);
    assert.deepEqual(store.list(), [{ id: 1, status: first }]);
    assert.deepEqual(store.history(1), []);
    assert.equal(store.act(99, (current) => ({ change: { action: 'move', to: second }, result: current })), undefined);
    assert.deepEqual(store.list(), [{ id: 1, status: first }]);
  });

  test('its state starts another store with the same subscriptions and history, and a state it cannot hold is refused', () => {
    const [first, second] = states();
    assert.ok(first !== undefined && second !== undefined);
    const store = createMemoryStore(states());
    store.addMissing([{ id: 1, status: first }]);
    store.act(1, () => ({ change: { action: 'move', to: second }, result: undefined }));
    const again = createMemoryStore(states(), JSON.parse(JSON.stringify(store.state())));
    assert.deepEqual(again.list(), store.list());
    assert.deepEqual(again.history(1), store.history(1));
    assert.throws(() => createMemoryStore(states(), { subscriptions: [{ id: 1, status: 'no-such-status' }], history: [] }), /does not know/);
  });
});

describe('the simulation the page runs', () => {
  const bodyFor = (identifier: string, id: number, key = defaultApiKey) => ({ [contract.model.envelope.credential]: key, [contract.model.envelope.selector]: identifier, [contract.model.envelope.subject]: id });
  const post = (body: unknown, headers: Record<string, string> = {}) => ({ method: contract.model.endpoint.method, target: contract.model.endpoint.urlPath, headers: { host: 'shop.example', 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  test('its seed is the sandbox’s and the examples’ subscriptions, each example answering as it says', () => {
    const seed = sandboxSeed(contract);
    const fresh = (success: Record<string, unknown>) => seed.some((subscription) => subscription.id === success[contract.result.subject] && subscription.status === success[contract.result.previousStatus]);
    const simulation = createSimulation(contract);
    assert.deepEqual(simulation.subscriptions(), [...seed].sort((a, b) => a.id - b.id));
    for (const subscription of defaultSeed(contract.model.lifecycle)) assert.ok(seed.some((seeded) => seeded.id === subscription.id && seeded.status === subscription.status));
    // From the seed, every example is answered as it says when its subscription is in the status the example starts from.
    for (const action of contract.model.actions) {
      const example = { ...action.requestExample.value, [contract.model.envelope.credential]: defaultApiKey };
      const success = action.successExample.value as Record<string, unknown>;
      const fresh = createSimulation(contract);
      const seededStatus = fresh.subscriptions().find((subscription) => subscription.id === success[contract.result.subject])?.status;
      const answer = fresh.send(post(example));
      assert.equal(answer.status, 200, action.identifier);
      if (seededStatus === success[contract.result.previousStatus]) assert.deepEqual(JSON.parse(answer.body), success, action.identifier);
    }
    // The examples' own walks: an example that leaves a subscription where another example starts from, then that one.
    const { subject, previousStatus, status } = contract.result;
    const successOf = (identifier: string) => contract.action(identifier)?.successExample.value as Record<string, unknown>;
    let walks = 0;
    for (const first of contract.model.actions) {
      for (const second of contract.model.actions) {
        const [a, b] = [successOf(first.identifier), successOf(second.identifier)];
        if (first === second || a[subject] !== b[subject] || a[status] !== b[previousStatus] || !fresh(a)) continue;
        const walk = createSimulation(contract);
        for (const action of [first, second]) {
          const answer = walk.send(post({ ...action.requestExample.value, [contract.model.envelope.credential]: defaultApiKey }));
          assert.deepEqual(JSON.parse(answer.body), action.successExample.value, `${first.identifier} then ${second.identifier}`);
        }
        walks += 1;
      }
    }
    assert.ok(walks > 0, 'some example starts where another leaves its subscription');
  });

  test('a check answers as a send would, and changes nothing', () => {
    const simulation = createSimulation(contract);
    const [action] = contract.model.actions;
    assert.ok(action !== undefined);
    const example = { ...action.requestExample.value, [contract.model.envelope.credential]: defaultApiKey };
    const before = simulation.state();
    assert.equal(simulation.check(post(example)).status, 200);
    assert.deepEqual(simulation.state(), before);
    assert.equal(simulation.send(post(example)).status, 200);
  });

  test('answers with its own key, and a reset brings the seed back', () => {
    const simulation = createSimulation(contract);
    const seeded = simulation.subscriptions();
    const action = contract.model.actions.find((candidate) => candidate.transition.kind !== 'chosen' && candidate.refusedStates.length > 0);
    assert.ok(action !== undefined);
    const refused = simulation.subscriptions().find((subscription) => action.refusedStates.includes(subscription.status));
    assert.ok(refused !== undefined);
    const conflict = simulation.send(post(bodyFor(action.identifier, refused.id)));
    assert.equal(conflict.status, Number(contract.errors.transitionNotAllowed.status));
    assert.equal(JSON.parse(conflict.body).code, contract.errors.transitionNotAllowed.code);
    assert.equal(conflict.headers['content-length'], String(Buffer.byteLength(conflict.body)));
    const wrongKey = simulation.send(post(bodyFor(action.identifier, refused.id, 'typed-by-the-reader')));
    assert.equal(JSON.parse(wrongKey.body).code, contract.errors.invalidKey.code);
    const accepted = simulation.subscriptions().find((subscription) => !action.refusedStates.includes(subscription.status));
    assert.ok(accepted !== undefined);
    assert.equal(simulation.send(post(bodyFor(action.identifier, accepted.id))).status, 200);
    assert.notDeepEqual(simulation.subscriptions(), seeded);
    simulation.reset();
    assert.deepEqual(simulation.subscriptions(), seeded);
  });

  test('throttles the next N requests only, then lets requests through; a host error likewise', () => {
    const simulation = createSimulation(contract);
    const [action] = contract.model.actions;
    assert.ok(action !== undefined);
    simulation.throttleNext(2, '3');
    const statuses = [1, 2, 3].map(() => simulation.send(post(bodyFor(action.identifier, 999))));
    assert.deepEqual(statuses.map((answer) => answer.status), [Number(contract.throttled.status), Number(contract.throttled.status), Number(contract.errors.subscriptionNotFound.status)]);
    assert.equal(statuses[0]?.headers[contract.retryAfterHeader.toLowerCase()], '3');
    simulation.hostErrorNext(1, 503);
    const host = simulation.send(post(bodyFor(action.identifier, 999)));
    assert.equal(host.status, 503);
    assert.match(host.headers['content-type'] ?? '', /^text\/html/);
    assert.equal(simulation.send(post(bodyFor(action.identifier, 999))).status, Number(contract.errors.subscriptionNotFound.status));
  });

  test('its state, saved and read back, goes on where it was; a HEAD gets no body', () => {
    const simulation = createSimulation(contract);
    const action = contract.model.actions.find((candidate) => candidate.transition.kind !== 'chosen');
    assert.ok(action !== undefined);
    const accepted = simulation.subscriptions().find((subscription) => !action.refusedStates.includes(subscription.status));
    assert.ok(accepted !== undefined);
    simulation.send(post(bodyFor(action.identifier, accepted.id)));
    simulation.throttleNext(1, '1');
    const again = createSimulation(contract, JSON.parse(JSON.stringify(simulation.state())));
    assert.deepEqual(again.subscriptions(), simulation.subscriptions());
    assert.equal(again.send(post(bodyFor(action.identifier, accepted.id))).status, Number(contract.throttled.status));
    const head = again.send({ method: 'HEAD', target: contract.model.endpoint.urlPath, headers: { host: 'shop.example' }, body: '' });
    assert.equal(head.body, '');
    assert.notEqual(head.headers['content-length'], '0');
  });
});

describe('the policies around the sandbox in the pages', () => {
  const rules = parseHeadersFile(readFileSync(path.join(projectDirectory, 'public/_headers'), 'utf8'), 'public/_headers');

  test('the worker script is served with default-src none, and nothing else gets that policy from its rule', () => {
    assert.deepEqual(headersFor(rules, sandboxWorkerPath).get('content-security-policy'), ["default-src 'none'"]);
    assert.notDeepEqual(headersFor(rules, tryPanelPath).get('content-security-policy'), ["default-src 'none'"]);
  });

  test('the pages’ script sources allow no code compiled at run time', () => {
    assert.ok(!scriptSources.some((source) => /unsafe-eval|wasm-unsafe-eval/.test(source)), scriptSources.join(' '));
  });
});

describe("the panel's Copy as curl", () => {
  test('carries the timeouts every sample carries: the retry policy’s, in the action pages’ curl sample’s words', () => {
    const contract = readExecutableContractWith(bundledDocument(), noSchemaValidator);
    const { endpoint } = contract.model;
    const sent: SentRequest = { method: endpoint.method, baseUrl: 'http://127.0.0.1:8787', target: endpoint.urlPath, headers: [['Content-Type', 'application/json']], body: '{}' };
    const timeouts = `--connect-timeout ${retryPolicy.connectTimeoutSeconds} --max-time ${retryPolicy.attemptTimeoutSeconds}`;
    assert.ok(curlCommand(sent).includes(timeouts), curlCommand(sent));
    assert.ok(curlSample(endpoint, {}).includes(timeouts), 'the action pages’ curl sample says it the same way');
  });
});
