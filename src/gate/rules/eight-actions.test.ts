import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eightActionsRule, specifiedActions } from './eight-actions.ts';
import { branchName, problemsOf, reportedAfter, smallContract, type EditableDocument } from './small-contract.ts';

const [firstAction, secondAction, thirdAction] = specifiedActions as unknown as [string, string, string];
const requestSchema = (document: EditableDocument): EditableDocument => document.components.requestBodies.ActionRequest.content['application/json'].schema;

describe('eight-actions', () => {
  test('accepts a branch for each of the eight actions, mapped by a discriminator on "action"', () => {
    assert.deepEqual(problemsOf(eightActionsRule, smallContract()), []);
  });

  test('rejects an action missing from the oneOf', () => {
    const reported = problemsOf(eightActionsRule, smallContract(specifiedActions.slice(1)));
    assert.deepEqual(
      reported.map((problem) => problem.message),
      [`No branch of the request body's oneOf has action "${firstAction}", one of the eight actions of the specification.`, `The discriminator mapping has no entry for "${firstAction}".`],
    );
  });

  test('rejects two branches for the same action', () => {
    const reported = reportedAfter(eightActionsRule, (document) => {
      document.components.schemas[branchName(thirdAction)].properties.action.const = secondAction;
    });
    assert.match(reported, new RegExp(`Two branches of the request body set action to "${secondAction}"`));
    assert.match(reported, new RegExp(`has action "${thirdAction}"`));
  });

  test('rejects a branch that does not fix or require its action', () => {
    const reported = reportedAfter(eightActionsRule, (document) => {
      delete document.components.schemas[branchName(firstAction)].properties.action.const;
      document.components.schemas[branchName(secondAction)].required = ['api_key'];
    });
    assert.match(reported, new RegExp(`The ${branchName(firstAction)} branch does not fix "action" with a const`));
    assert.match(reported, new RegExp(`The ${secondAction} branch does not list "action" under required`));
  });

  test('rejects a mapping that sends an action to another branch, or to no branch', () => {
    const reported = reportedAfter(eightActionsRule, (document) => {
      requestSchema(document).discriminator.mapping[firstAction] = `#/components/schemas/${branchName(secondAction)}`;
      requestSchema(document).discriminator.mapping[thirdAction] = 'Nowhere';
    });
    assert.match(reported, new RegExp(`maps "${firstAction}" to the branch whose action is "${secondAction}"`));
    assert.match(reported, new RegExp(`maps "${thirdAction}" to #/components/schemas/Nowhere, which is not a branch of the oneOf`));
  });

  test('rejects a discriminator on another field', () => {
    const reported = reportedAfter(eightActionsRule, (document) => {
      requestSchema(document).discriminator.propertyName = 'type';
    });
    assert.match(reported, /needs a discriminator on "action"/);
  });

  test('rejects an ActionName that lists other actions than the request body', () => {
    const reported = reportedAfter(eightActionsRule, (document) => {
      document.components.schemas.ActionName.examples = [...specifiedActions.slice(1), 'refund_subscription'];
    });
    assert.match(reported, new RegExp(`ActionName must list exactly the actions of the request body; not in the request body: "refund_subscription"; missing: "${firstAction}"`));
  });

  test('rejects a request body without JSON, without a oneOf, or not an object, instead of crashing', () => {
    assert.match(
      reportedAfter(eightActionsRule, (document) => {
        document.paths['/action'].post.requestBody = 'not an object';
      }),
      /no application\/json content/,
    );
    assert.match(
      reportedAfter(eightActionsRule, (document) => {
        delete requestSchema(document).oneOf;
      }),
      /is not a oneOf of the actions/,
    );
    assert.match(
      reportedAfter(eightActionsRule, (document) => {
        delete document.paths['/action'].post.requestBody;
      }),
      /The POST operation has no request body/,
    );
  });
});
