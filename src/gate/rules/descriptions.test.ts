/**
 * The raw HTML of descriptions, in process. Their links are checked against the pages the site
 * generates from the whole contract, so tests/integration/contract-checks.test.ts tests those.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { descriptionsRule } from './descriptions.ts';
import { problemsOf, reportedAfter, smallContract } from './small-contract.ts';

describe('descriptions', () => {
  test('accepts Markdown with comments and code', () => {
    assert.deepEqual(problemsOf(descriptionsRule, smallContract()), []);
    const reported = reportedAfter(descriptionsRule, (document) => {
      document.info.description = '<!-- a note for writers -->\nWrite `<your-site>` as code, or &lt;your-site>.';
    });
    assert.equal(reported, '');
  });

  test('rejects raw HTML, at the description that holds it', () => {
    const reported = reportedAfter(descriptionsRule, (document) => {
      document.components.schemas.ApiKey.description = 'Your key, from <your-site>.';
    });
    assert.match(reported, /^#\/components\/schemas\/ApiKey\/description: The description holds raw HTML `<your-site>`/);
  });

  test('leaves the data members alone: examples, values and the transition table are not prose', () => {
    const reported = reportedAfter(descriptionsRule, (document) => {
      document.components.schemas.ApiKey.examples = [{ description: '<b>data, not prose</b>' }];
      document['x-transitions'].actions.description = '<b>data</b>';
    });
    assert.equal(reported, '');
  });
});
