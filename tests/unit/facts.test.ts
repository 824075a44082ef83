import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { specifiedActions } from '../../src/gate/checks.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { ContractError, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import { quickstartExamples, readFacts } from '../../src/lib/contract/facts.ts';
import { bundledDocument } from '../support/contract-copy.ts';

let document: OpenApiDocument;
before(() => {
  document = bundledDocument();
});

/** A deep copy the test may change without touching the shared document. */
function copy(): Record<string, any> {
  return structuredClone(document) as Record<string, any>;
}

describe('facts read from the bundled document', () => {
  // The expected values are the normative ones of the interface specification, sections 4, 5, 7 and 9.
  it('match the interface specification', () => {
    const facts = readFacts(document);
    assert.equal(facts.method, 'POST');
    assert.equal(facts.endpointUrlTemplate, 'https://{site}/wp-json/service/v1/action');
    assert.equal(facts.endpointPath, '/wp-json/service/v1/action');
    assert.equal(facts.versionNamespace, '/wp-json/service/v1/');
    assert.equal(facts.versionSegment, 'v1');
    assert.equal(facts.credentialField, 'api_key');
    assert.deepEqual(facts.actions, specifiedActions);
    assert.equal(facts.rateLimitStatus, '429');
    assert.equal(facts.retryAfterHeader, 'Retry-After');
  });

  // The decisions of v1-contract.md for the answers beyond a success, and WordPress's own form of
  // the URL on a site without pretty permalinks.
  it('name the answers an integrator meets beyond a success', () => {
    const facts = readFacts(document);
    assert.equal(facts.unknownFieldErrorStatus, '400');
    assert.equal(facts.unknownFieldErrorCode, 'rest_invalid_param');
    assert.equal(facts.unknownFieldNamedIn, 'data.params');
    assert.equal(facts.noRouteErrorStatus, '404');
    assert.equal(facts.noRouteErrorCode, 'rest_no_route');
    assert.equal(facts.serviceFailureStatus, '500');
    assert.equal(facts.refusalCurrentStatusField, 'data.current_status');
    assert.equal(facts.refusalAllowedActionsField, 'data.allowed_actions');
    assert.equal(facts.plainPermalinkUrlTemplate, 'https://{site}/?rest_route=/service/v1/action');
  });

  it('agree with one another', () => {
    const facts = readFacts(document);
    assert.equal(facts.actionCount, facts.actions.length);
    assert.equal(facts.stateCount, facts.states.length);
    assert.ok(facts.finalStates.every((state) => facts.states.includes(state)));
    assert.ok(facts.quickstartFromStates.every((state) => facts.states.includes(state)));
    assert.ok(facts.actions.includes(facts.quickstartAction));
    assert.ok(facts.errorStatuses.includes(facts.rateLimitStatus));
    assert.ok(facts.errorStatuses.includes(facts.credentialErrorStatus));
    assert.ok(facts.errorStatuses.includes(facts.transitionRefusedStatus));
    assert.ok(facts.errorCodes.includes(facts.credentialErrorCode));
    assert.ok(facts.errorEnvelopeFields.includes(facts.errorCodeField));
    assert.ok(facts.exampleEndpointUrl.endsWith(facts.endpointPath));
    assert.ok(facts.endpointPath.startsWith(facts.versionNamespace));
    assert.match(facts.retryAfterSecondsExample, /^\d+$/);
    assert.ok(!Number.isNaN(Date.parse(facts.retryAfterDateExample)), 'the HTTP-date example parses as a date');
  });

  it('give the quickstart the request and both answers of one action', () => {
    const facts = readFacts(document);
    const model = readReferenceModel(document);
    const examples = quickstartExamples(model) as unknown as Record<string, Record<string, unknown>>;
    assert.equal(examples.request?.[facts.actionField], facts.quickstartAction);
    assert.equal(examples.response?.[facts.actionField], facts.quickstartAction);
    assert.equal(examples.response?.[facts.changedField], true);
    assert.equal(examples.repeatedResponse?.[facts.changedField], false);
    assert.equal(examples.request?.[facts.credentialField], '<API_KEY>', 'example keys are visibly fake');
    assert.ok(model.resultFields.every((field) => field.description.length > 0), 'every success field is described');
  });
});

describe('facts follow the document when it changes', () => {
  it('a renamed credential field is picked up without any other edit', () => {
    const changed = copy();
    for (const schema of Object.values(changed.components.schemas) as Record<string, any>[]) {
      if (!schema.properties?.api_key) continue;
      schema.properties.site_key = schema.properties.api_key;
      delete schema.properties.api_key;
      schema.required = schema.required.map((name: string) => (name === 'api_key' ? 'site_key' : name));
    }
    // The request examples send the field too, and an example may only send what its action accepts.
    for (const example of Object.values(changed.components.examples) as Record<string, any>[]) {
      if (example.value?.api_key === undefined) continue;
      example.value = Object.fromEntries(
        Object.entries(example.value).map(([name, value]) => [name === 'api_key' ? 'site_key' : name, value]),
      );
    }
    assert.equal(readFacts(changed as OpenApiDocument).credentialField, 'site_key');
  });

  it('a new version namespace in the server URL changes the version facts', () => {
    const changed = copy();
    changed.servers[0].url = changed.servers[0].url.replace('/v1', '/v2');
    const facts = readFacts(changed as OpenApiDocument);
    assert.equal(facts.versionSegment, 'v2');
    assert.match(facts.endpointUrlTemplate, /\/v2\//);
  });

  it('a new action appears in the list of actions', () => {
    // A complete action: its schema in the oneOf and the mapping, its transitions and its examples.
    const changed = copy();
    const { schemas, examples } = changed.components;
    const media = changed.components.requestBodies.ActionRequest.content['application/json'];
    const success = changed.components.responses.ActionSucceeded.content['application/json'];
    const renew = structuredClone(schemas.CancelSubscriptionRequest);
    renew.title = 'Renew a subscription';
    renew.properties.action.const = 'renew_subscription';
    schemas.RenewSubscriptionRequest = renew;
    media.schema.oneOf.push({ $ref: '#/components/schemas/RenewSubscriptionRequest' });
    media.schema.discriminator.mapping.renew_subscription = '#/components/schemas/RenewSubscriptionRequest';
    schemas.ActionName.examples.push('renew_subscription');
    changed['x-transitions'].actions.renew_subscription = { from: ['on-hold'], to: 'active' };
    media.examples.renew_subscription = {
      value: { ...examples.CancelSubscriptionRequest.value, action: 'renew_subscription' },
    };
    success.examples.renew_subscription = {
      value: { ...examples.CancelSubscriptionResult.value, action: 'renew_subscription' },
    };
    assert.ok(readFacts(changed as OpenApiDocument).actions.includes('renew_subscription'));
  });
});

describe('a document that no longer states a fact fails the build', () => {
  const cases: [string, (document: Record<string, any>) => void, RegExp][] = [
    ['the key is no longer write-only', (d) => delete d.components.schemas.ApiKey.writeOnly, /write-only/],
    ['the rate limit declares no Retry-After', (d) => delete d.components.responses.TooManyRequests.headers, /Retry-After/],
    ['the server URL has no version segment', (d) => (d.servers[0].url = 'https://{site}/wp-json/service'), /version segment/],
    ['the transition table is missing', (d) => delete d['x-transitions'], /x-transitions/],
    [
      'the repeated-action example is missing',
      (d) => delete d.components.responses.ActionSucceeded.content['application/json'].examples.repeated_action,
      /repeated_action/,
    ],
  ];
  for (const [what, change, message] of cases) {
    it(what, () => {
      const changed = copy();
      change(changed);
      assert.throws(() => readFacts(changed as OpenApiDocument), (error: unknown) => {
        assert.ok(error instanceof ContractError, `expected a ContractError, got ${String(error)}`);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});
