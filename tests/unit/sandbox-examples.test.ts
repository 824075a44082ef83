/**
 * Every action's example, sent to a fresh sandbox (the terminal's, and the simulation the pages
 * run), answers exactly the success example its page shows, though several examples name one
 * subscription from different statuses; and once a request has changed that subscription, its
 * stored status alone counts.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { utf8Bytes } from '../../src/sandbox/bytes.ts';
import { createSimulation } from '../../src/sandbox/in-browser/simulation.ts';
import { defaultApiKey } from '../../src/sandbox/seed.ts';
import { openSandbox } from '../../src/sandbox/server.ts';
import { bundledDocument } from '../support/contract-copy.ts';

let contract: ExecutableContract;
before(() => {
  contract = readExecutableContract(bundledDocument());
});

/** An action's success example, as the object it is. */
function success(action: ExecutableContract['model']['actions'][number]): Record<string, unknown> {
  return action.successExample.value as Record<string, unknown>;
}

function exampleBody(action: ExecutableContract['model']['actions'][number]): string {
  return JSON.stringify({ ...action.requestExample.value, [contract.model.envelope.credential]: defaultApiKey });
}

describe('every action’s example from a fresh sandbox', () => {
  test('the terminal sandbox answers each example as its page shows', async () => {
    for (const action of contract.model.actions) {
      const sandbox = await openSandbox({ contract });
      try {
        const answer = sandbox.answer({ method: contract.model.endpoint.method, target: contract.model.endpoint.urlPath, headers: { 'content-type': 'application/json' }, body: utf8Bytes(exampleBody(action)), tooLarge: false });
        assert.equal(answer.status, 200, action.identifier);
        assert.deepEqual(JSON.parse(answer.body), action.successExample.value, action.identifier);
      } finally {
        sandbox.close();
      }
    }
  });

  test('the simulation in the pages answers each example as its page shows', () => {
    for (const action of contract.model.actions) {
      const answer = createSimulation(contract).send({ method: contract.model.endpoint.method, target: contract.model.endpoint.urlPath, headers: { 'content-type': 'application/json' }, body: exampleBody(action) });
      assert.equal(answer.status, 200, action.identifier);
      assert.deepEqual(JSON.parse(answer.body), action.successExample.value, action.identifier);
    }
  });

  test('once changed, a subscription answers from its stored status: the examples walk it, and a repeat changes nothing', () => {
    const { result, model } = contract;
    const simulation = createSimulation(contract);
    const [first] = model.actions;
    assert.ok(first);
    const send = (body: string) => JSON.parse(simulation.send({ method: model.endpoint.method, target: model.endpoint.urlPath, headers: { 'content-type': 'application/json' }, body }).body) as Record<string, unknown>;
    const once = send(exampleBody(first));
    const again = send(exampleBody(first));
    assert.equal(again[result.previousStatus], once[result.status]);
    assert.equal(again[result.changed], once[result.status] === success(first)[result.previousStatus]);
  });

  test('a seed of the reader’s own is taken as it is', async () => {
    const { model } = contract;
    const resumed = model.actions.find((action) => {
      const example = success(action);
      return model.actions.some((other) => other !== action && success(other)[contract.result.subject] === example[contract.result.subject] && success(other)[contract.result.previousStatus] !== example[contract.result.previousStatus]);
    });
    assert.ok(resumed, 'two examples name one subscription from different statuses');
    const id = Number(success(resumed)[contract.result.subject]);
    const other = model.lifecycle.states.find((status) => status !== success(resumed)[contract.result.previousStatus] && status !== success(resumed)[contract.result.status]);
    assert.ok(other);
    const sandbox = await openSandbox({ contract, seed: [{ id, status: other }] });
    try {
      const answer = sandbox.answer({ method: model.endpoint.method, target: model.endpoint.urlPath, headers: { 'content-type': 'application/json' }, body: utf8Bytes(exampleBody(resumed)), tooLarge: false });
      assert.notDeepEqual(JSON.parse(answer.body), resumed.successExample.value);
    } finally {
      sandbox.close();
    }
  });
});
