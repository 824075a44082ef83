import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { specifiedActions } from './eight-actions.ts';
import { requestExamplesRule } from './request-examples.ts';
import { branchName, problemsOf, reportedAfter, smallContract, type EditableDocument } from './small-contract.ts';

const [firstAction = '', secondAction = '', thirdAction = ''] = specifiedActions;
const examples = (document: EditableDocument): EditableDocument => document.components.requestBodies.ActionRequest.content['application/json'].examples;

describe('request-examples', () => {
  test('accepts one example per action, valid for its own branch only', () => {
    assert.deepEqual(problemsOf(requestExamplesRule, smallContract()), []);
  });

  test('rejects an example that is valid for two branches', () => {
    const reported = reportedAfter(requestExamplesRule, (document) => {
      // The second branch stops fixing its action, so the first action's example fits it too.
      document.components.schemas[branchName(secondAction)].properties.action = { type: 'string' };
    });
    assert.match(reported, new RegExp(`"${firstAction}" is also valid for the ${branchName(secondAction)} branch`));
  });

  test('rejects an example named after another action', () => {
    const reported = reportedAfter(requestExamplesRule, (document) => {
      examples(document)[secondAction] = examples(document)[thirdAction];
    });
    assert.match(reported, new RegExp(`/value/action: Request example "${secondAction}" is named after ${secondAction} but sends action "${thirdAction}"`));
  });

  test('rejects an example with a field the action does not accept, at the field', () => {
    const reported = reportedAfter(requestExamplesRule, (document) => {
      document.components.examples[branchName(thirdAction)].value.order_id = 9034;
    });
    assert.match(reported, new RegExp(`"${thirdAction}" is not valid for its own action ${thirdAction}: the body has the field "order_id", which this action does not accept`));
  });

  test('rejects an example of no action, one without a value, and an action without an example', () => {
    const reported = reportedAfter(requestExamplesRule, (document) => {
      document.components.examples[branchName(firstAction)].value.action = 'refund_subscription';
      document.components.examples[branchName(secondAction)] = { summary: 'No value' };
      delete examples(document)[thirdAction];
    });
    assert.match(reported, /sends action "refund_subscription", which is not one of the actions of the request body/);
    assert.match(reported, new RegExp(`Request example "${secondAction}" has no inline value`));
    assert.match(reported, new RegExp(`Action ${thirdAction} has no request example`));
  });

  test('reports schemas that cannot be compiled instead of crashing', () => {
    const reported = reportedAfter(requestExamplesRule, (document) => {
      document.components.schemas.ApiKey.type = 'text';
    });
    assert.match(reported, /cannot be compiled/);
  });
});
