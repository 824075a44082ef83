import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import type { ReferenceModel } from '../../src/lib/contract/model.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { actionErrorAnswers, exampleForAction } from '../../src/lib/contract/error-bodies.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { allowedActions } from '../../src/lib/contract/lifecycle.ts';
import { conflictStatus } from '../../src/lib/contract/response-names.ts';

let model: ReferenceModel;
before(() => {
  model = readReferenceModel(bundledDocument());
});

describe('the error bodies of the action pages', () => {
  test('every error example body of the document is shown on at least one action page', () => {
    const shown = new Set(model.actions.flatMap((action) => actionErrorAnswers(model, action).bodies.map((body) => JSON.stringify(body.value))));
    for (const response of model.responses.filter((row) => row.isError)) {
      for (const example of response.examples) {
        assert.ok(shown.has(JSON.stringify(example.value)), `the ${response.status} example “${example.summary}” is on no action page`);
      }
    }
  });

  test('an example that names one action is put in the name of the page’s action; one that lists them all is left', () => {
    const identifiers = model.actions.map((action) => action.identifier);
    const [first, second] = identifiers;
    assert.ok(first !== undefined && second !== undefined, 'the contract has two actions');
    const naming = { message: `x is not a field that ${first} accepts.`, data: { params: { x: `x is not a field that ${first} accepts.` } } };
    const retargeted = exampleForAction(naming, identifiers, second);
    assert.equal(retargeted.retargeted, true);
    assert.equal(JSON.stringify(retargeted.value).includes(first), false);
    assert.equal(JSON.stringify(retargeted.value).split(second).length - 1, 2);
    const listing = { message: `action is not one of ${identifiers.join(', ')}.` };
    assert.deepEqual(exampleForAction(listing, identifiers, second), { value: listing, retargeted: false });
  });

  test('each action page shows a 409 for one of its own refused statuses, with the actions that status allows', () => {
    for (const action of model.actions) {
      const conflict = actionErrorAnswers(model, action).bodies.find((body) => body.status === conflictStatus);
      if (action.refusedStates.length === 0) {
        assert.equal(conflict, undefined, `${action.identifier} is refused from no status`);
        continue;
      }
      assert.ok(conflict && isRecord(conflict.value) && isRecord(conflict.value.data), `${action.identifier} shows a 409 body`);
      const data = conflict.value.data as Record<string, unknown>;
      assert.ok(action.refusedStates.includes(String(data.current_status)), `${action.identifier}: ${String(data.current_status)} is one of its refused statuses`);
      assert.deepEqual(data.allowed_actions, allowedActions(model.lifecycle, String(data.current_status)));
      assert.match(String(conflict.value.message), new RegExp(action.identifier));
    }
  });

  test('the 429 says its body has no contract and shows Retry-After in both forms', () => {
    const { throttled } = actionErrorAnswers(model, model.actions[0]!);
    assert.equal(throttled.header, 'Retry-After');
    assert.equal(throttled.examples.length, 2);
  });
});
