/**
 * An optional array of scalars in an action's request is one WordPress's REST schema describes
 * (`items`, `minItems`, `maxItems`, `uniqueItems`), so the gate lets it through and the sandbox
 * answers it as `rest_validate_value_from_schema` does (wp-includes/rest-api.php of WordPress 6.1):
 * a list, or a string split on commas and white space; each item checked as `name[index]`; then
 * the count and the duplicates. An array of objects is still refused by the gate, at its line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { referenceModelProblems } from '../../src/gate/model-step.ts';
import type { OpenApiDocument } from '../../src/lib/contract/document.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { jsonMediaType } from '../../src/lib/contract/request-body.ts';
import { answerRequest } from '../../src/sandbox/answer-request.ts';
import { utf8Bytes } from '../../src/sandbox/bytes.ts';
import { routeArguments } from '../../src/lib/contract/route-arguments.ts';
import { defaultApiKey, defaultSeed } from '../../src/sandbox/seed.ts';
import { openStore } from '../../src/sandbox/store.ts';
import { bundledDocument } from '../support/contract-copy.ts';

type Json = Record<string, any>;

const tags = { type: 'array', items: { type: 'string', maxLength: 8 }, maxItems: 3, uniqueItems: true, description: 'Labels for the pause.' };

function withTags(items: Json = tags): OpenApiDocument {
  const document = bundledDocument();
  (document as unknown as Json).components.schemas.PauseSubscriptionRequest.properties.tags = structuredClone(items);
  return document;
}

/** Sends one pause with these tags to a fresh sandbox of the document, in process; its status and body. */
function pauseWith(document: OpenApiDocument, value: unknown): { status: number; body: Json } {
  const contract = readExecutableContract(document);
  const { model } = contract;
  const store = openStore(':memory:', model.lifecycle.states);
  try {
    const subscriptions = store.addMissing(defaultSeed(model.lifecycle));
    const active = subscriptions.find((subscription) => subscription.status === 'active');
    assert.ok(active !== undefined);
    const body = { api_key: defaultApiKey, action: 'pause_subscription', subscription_id: active.id, tags: value };
    const answer = answerRequest(contract, store, { apiKey: defaultApiKey, basePath: '' }, {
      method: model.endpoint.method,
      target: model.endpoint.urlPath,
      headers: { host: '127.0.0.1', 'content-type': jsonMediaType },
      body: utf8Bytes(JSON.stringify(body)),
      tooLarge: false,
    });
    return { status: answer.status, body: JSON.parse(answer.body) as Json };
  } finally {
    store.close();
  }
}

describe('an array of scalars as a field of an action', () => {
  test('passes the gate and is one route argument with its items', () => {
    const document = withTags();
    assert.deepEqual(referenceModelProblems(document), []);
    const argument = routeArguments(readExecutableContract(document)).find((candidate) => candidate.name === 'tags');
    assert.deepEqual(argument?.schema, { type: 'array', items: { type: 'string', maxLength: 8 }, maxItems: 3, uniqueItems: true });
    assert.equal(argument?.required, false);
  });

  test('is accepted as a list, or as a string WordPress splits into one', () => {
    const document = withTags();
    for (const value of [['travel', 'winter'], 'travel, winter', [], 'travel']) {
      const answer = pauseWith(document, value);
      assert.equal(answer.status, 200, `${JSON.stringify(value)}: ${JSON.stringify(answer.body)}`);
    }
  });

  const refusals: [string, unknown, string, string][] = [
    ['an object', { colour: 'blue' }, 'rest_invalid_type', 'tags is not of type array.'],
    ['an item of another type', ['travel', 7], 'rest_invalid_type', 'tags[1] is not of type string.'],
    ['an item too long', ['travel', 'wintertime'], 'rest_too_long', 'tags[1] must be at most 8 characters long.'],
    ['too many items', ['a', 'b', 'c', 'd'], 'rest_too_many_items', 'tags must contain at most 3 items.'],
    ['the same item twice', ['a', 'a'], 'rest_duplicate_items', 'tags has duplicate items.'],
  ];
  for (const [name, value, code, message] of refusals) {
    test(`is refused as WordPress refuses it: ${name}`, () => {
      const answer = pauseWith(withTags(), value);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'rest_invalid_param');
      assert.equal(answer.body.data.params.tags, message);
      assert.equal(answer.body.data.details.tags.code, code);
    });
  }

  test('an array of objects is refused by the gate at its line, never a 500 of the sandbox', () => {
    const document = withTags({ type: 'array', items: { type: 'object', properties: { colour: { type: 'string' } } }, description: 'Labels.' });
    const problems = referenceModelProblems(document);
    assert.deepEqual(problems.map((problem) => problem.message), ['the field tags is of type array of object, which a WordPress route argument does not describe yet']);
  });
});
