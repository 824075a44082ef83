import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { specifiedActions } from './eight-actions.ts';
import { placeholderApiKeyRule } from './placeholder-api-key.ts';
import { branchName, problemsOf, reportedAfter, smallContract } from './small-contract.ts';

const [firstAction = ''] = specifiedActions;

describe('placeholder-api-key', () => {
  test('accepts examples that write the key as <API_KEY>', () => {
    assert.deepEqual(problemsOf(placeholderApiKeyRule, smallContract()), []);
  });

  test('rejects an example key that looks real, at the example', () => {
    const reported = reportedAfter(placeholderApiKeyRule, (document) => {
      document.components.examples[branchName(firstAction)].value.api_key = 'sk_live_4f9a1c2e7b';
    });
    assert.equal(reported, `#/components/examples/${branchName(firstAction)}: Request example "${firstAction}" does not use the placeholder <API_KEY> as its api_key; a published example must never look like a real key.`);
  });

  test('reads a single inline example too', () => {
    const reported = reportedAfter(placeholderApiKeyRule, (document) => {
      document.components.requestBodies.ActionRequest.content['application/json'].example = { action: firstAction, api_key: 'real-looking' };
    });
    assert.match(reported, /Request example "example" does not use the placeholder/);
  });
});
