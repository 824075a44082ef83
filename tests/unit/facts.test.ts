import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ContractError, type OpenApiDocument } from '../../src/lib/document.ts';
import { readFacts, readQuickstartExamples, successFields } from '../../src/lib/facts.ts';
import { bundleForTest } from './contract-fixture.ts';

let document: OpenApiDocument;
before(() => {
  document = bundleForTest();
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
    assert.deepEqual(facts.actions, [
      'cancel_subscription',
      'pause_subscription',
      'resume_subscription',
      'reactivate_subscription',
      'expire_subscription',
      'change_status',
      'trial_end',
      'payment_failed',
    ]);
    assert.equal(facts.rateLimitStatus, '429');
    assert.equal(facts.retryAfterHeader, 'Retry-After');
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
    const examples = readQuickstartExamples(document) as unknown as Record<string, Record<string, unknown>>;
    assert.equal(examples.request?.[facts.actionField], facts.quickstartAction);
    assert.equal(examples.response?.[facts.actionField], facts.quickstartAction);
    assert.equal(examples.response?.[facts.changedField], true);
    assert.equal(examples.repeatedResponse?.[facts.changedField], false);
    assert.equal(examples.request?.[facts.credentialField], '<API_KEY>', 'example keys are visibly fake');
    assert.ok(successFields(document).every((field) => field.description.length > 0), 'every success field is described');
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
    const changed = copy();
    const schema = changed.components.requestBodies.ActionRequest.content['application/json'].schema;
    schema.discriminator.mapping.renew_subscription = schema.discriminator.mapping.cancel_subscription;
    changed.components.schemas.ActionName.enum.push('renew_subscription');
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
