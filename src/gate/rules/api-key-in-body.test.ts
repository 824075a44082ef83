import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiKeyInBodyRule } from './api-key-in-body.ts';
import { specifiedActions } from './eight-actions.ts';
import { branchName, problemsAfter, problemsOf, reportedAfter, smallContract } from './small-contract.ts';

const [firstAction, secondAction] = specifiedActions;

describe('api-key-in-body', () => {
  test('accepts a required string api_key in every branch', () => {
    assert.deepEqual(problemsOf(apiKeyInBodyRule, smallContract()), []);
  });

  test('rejects an api_key that is not a string, once for each branch that uses it', () => {
    const problems = problemsAfter(apiKeyInBodyRule, (document) => {
      document.components.schemas.ApiKey.type = 'integer';
    });
    assert.equal(problems.length, specifiedActions.length);
    assert.deepEqual(problems[0], { location: '#/components/schemas/ApiKey', message: `"api_key" of the ${firstAction} branch has type "integer"; the key is a string.` });
  });

  test('rejects a branch without an api_key property, and one that does not require it', () => {
    const reported = reportedAfter(apiKeyInBodyRule, (document) => {
      delete document.components.schemas[branchName(firstAction ?? '')].properties.api_key;
      document.components.schemas[branchName(secondAction ?? '')].required = ['action'];
    });
    assert.match(reported, new RegExp(`^#/components/schemas/${branchName(firstAction ?? '')}: The ${firstAction} branch has no "api_key" property`, 'm'));
    assert.match(reported, new RegExp(`The ${secondAction} branch does not list "api_key" under required`));
  });
});
