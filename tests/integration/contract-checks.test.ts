/**
 * The contract rules (src/gate/rules/), rule by rule, beyond the breaking edits of
 * `contract-gate.test.ts`. The real contract is bundled once by Redocly; each test changes a
 * clone of that bundle in memory, which is exactly what the rules read, and expects the rule
 * that was broken to say so. The rules that live in `redocly.yaml` are linted the same way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import {
  contractRules,
  contractRulesStep,
  isReservedExampleHost,
  runContractRules,
  specifiedActions,
} from '../../src/gate/checks.ts';
import { lintBundledDocument } from '../../src/gate/redocly-lint.ts';
import { createSourceLocator } from '../../src/gate/source-files.ts';
import { isSpecRuleId } from '../../src/lib/spec-rules.ts';
import { copyContract, type ContractCopy } from '../support/contract-copy.ts';

let copy: ContractCopy;
let bundled: OpenApiDocument;
let bundlePath: string;

before(() => {
  copy = copyContract();
  const bundle = bundleContract(copy.directory, contractRoot, '.generated/lint');
  bundled = asOpenApiDocument(bundle.document, bundle.jsonPath);
  bundlePath = bundle.jsonPath;
});

after(() => copy.remove());

/** A clone of the bundled real contract, as plain data to break. */
function brokenBundle(edit: (document: Record<string, any>) => void): OpenApiDocument {
  const clone = structuredClone(bundled) as unknown as Record<string, any>;
  edit(clone);
  return clone as unknown as OpenApiDocument;
}

function findingsOf(document: OpenApiDocument, checkName: string): string[] {
  return runContractRules(document)
    .filter((finding) => finding.rule.name === checkName)
    .map((finding) => finding.message);
}

function assertFinding(document: OpenApiDocument, checkName: string, message: RegExp): void {
  const all = runContractRules(document);
  assert.ok(
    all.some((finding) => finding.rule.name === checkName && message.test(finding.message)),
    `expected ${checkName} to report ${message}; found:\n${all.map((finding) => `  [${finding.rule.name}] ${finding.message}`).join('\n')}`,
  );
}

const schemas = (document: Record<string, any>): Record<string, any> => document.components.schemas;
const requestMediaType = (document: Record<string, any>): Record<string, any> =>
  document.components.requestBodies.ActionRequest.content['application/json'];

describe('the contract checks', () => {
  test('find nothing wrong with the real contract', () => {
    assert.deepEqual(runContractRules(bundled), []);
  });

  test('each name the rules of src/lib/spec-rules.ts they guard, and cite nothing outside the repository', () => {
    const names = contractRules.map((check) => check.name);
    assert.equal(new Set(names).size, names.length, 'rule names must be unique');
    for (const check of contractRules) {
      assert.ok(check.rules.length > 0, `${check.name} names no rule`);
      for (const id of check.rules) assert.ok(isSpecRuleId(id), `${check.name}: ${id} is not a rule id`);
      assert.doesNotMatch(check.rule, /interface-spec\.md|v1-contract\.md|§/);
    }
  });

  describe('single-endpoint', () => {
    test('rejects a server that is not an absolute URL', () => {
      const document = brokenBundle((doc) => {
        doc.servers[0].url = '/wp-json/service/v1';
      });
      assertFinding(document, 'single-endpoint', /"\/wp-json\/service\/v1" is not an absolute URL/);
    });

    test('rejects a document without a server', () => {
      const document = brokenBundle((doc) => {
        delete doc.servers;
      });
      assertFinding(document, 'single-endpoint', /declares no server/);
    });

    test('rejects the path renamed', () => {
      const document = brokenBundle((doc) => {
        doc.paths = { '/actions': doc.paths['/action'] };
      });
      assertFinding(document, 'single-endpoint', /resolves to \/wp-json\/service\/v1\/actions, not \/wp-json\/service\/v1\/action/);
    });
  });

  describe('site-variable', () => {
    test('accepts only reserved example names as the default host', () => {
      for (const host of ['shop.example', 'www.my-shop.example', 'shop.test', 'a.invalid', 'localhost:8080', 'example.com', 'shop.example.org']) {
        assert.ok(isReservedExampleHost(host), host);
      }
      for (const host of ['shop.com', 'example.co.uk', 'myexample.com', 'shop.examples', 'test.shop.de']) {
        assert.ok(!isReservedExampleHost(host), host);
      }
    });

    test('rejects a default that could be a real shop', () => {
      const document = brokenBundle((doc) => {
        doc.servers[0].variables.site.default = 'shop.com';
      });
      assertFinding(document, 'site-variable', /"shop\.com", is not a reserved example name \(RFC 2606/);
    });

    test('rejects a fixed host instead of the {site} variable', () => {
      const document = brokenBundle((doc) => {
        doc.servers[0].url = 'https://api.publisher.example/wp-json/service/v1';
      });
      assertFinding(document, 'site-variable', /names the host "api\.publisher\.example"; .* must be the \{site\} variable/);
    });
  });

  describe('eight-actions', () => {
    test('rejects two branches for the same action', () => {
      const document = brokenBundle((doc) => {
        schemas(doc).ResumeSubscriptionRequest.properties.action.const = 'pause_subscription';
      });
      assertFinding(document, 'eight-actions', /Two branches of the request body set action to "pause_subscription"/);
      assertFinding(document, 'eight-actions', /has action "resume_subscription"/);
    });

    test('rejects a mapping that sends an action to another branch', () => {
      const document = brokenBundle((doc) => {
        requestMediaType(doc).schema.discriminator.mapping.trial_end = '#/components/schemas/PaymentFailedRequest';
      });
      assertFinding(document, 'eight-actions', /maps "trial_end" to the branch whose action is "payment_failed"/);
    });

    test('rejects a discriminator on another field', () => {
      const document = brokenBundle((doc) => {
        requestMediaType(doc).schema.discriminator.propertyName = 'type';
      });
      assertFinding(document, 'eight-actions', /discriminator on "action"/);
    });

    test('rejects an unknown identifier in ActionName', () => {
      const document = brokenBundle((doc) => {
        schemas(doc).ActionName.examples.push('refund_subscription');
      });
      assertFinding(document, 'eight-actions', /ActionName must list exactly the actions of the request body; not in the request body: "refund_subscription"/);
    });
  });

  describe('api-key-in-body', () => {
    test('rejects an api_key that is not a string', () => {
      const document = brokenBundle((doc) => {
        schemas(doc).ApiKey.type = 'integer';
      });
      assert.equal(findingsOf(document, 'api-key-in-body').length, specifiedActions.length);
      assertFinding(document, 'api-key-in-body', /"api_key" of the cancel_subscription branch has type "integer"; the key is a string/);
    });

    test('rejects a branch without an api_key property', () => {
      const document = brokenBundle((doc) => {
        delete schemas(doc).ExpireSubscriptionRequest.properties.api_key;
      });
      assertFinding(document, 'api-key-in-body', /expire_subscription branch has no "api_key" property/);
    });
  });

  describe('the rules that live in redocly.yaml', () => {
    /** The ids of the `redocly.yaml` rules that report the broken bundle, with the pointers they name. */
    function redoclyRulesOf(document: OpenApiDocument): string[] {
      return lintBundledDocument(document, copy.directory).map((finding) => `${finding.ruleId} ${finding.pointer}`);
    }

    test('find nothing wrong with the real contract', () => {
      assert.deepEqual(redoclyRulesOf(bundled), []);
    });

    test('refuse any credential outside the api_key body field, and any method but POST', () => {
      const document = brokenBundle((doc) => {
        doc.components.securitySchemes = { siteKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } };
        doc.security = [{ siteKey: [] }];
        delete doc.paths['/action'].post.security;
        doc.paths['/action'].post.parameters = [
          { name: 'Authorization', in: 'header', schema: { type: 'string' } },
          { name: 'api_key', in: 'query', schema: { type: 'string' } },
          { name: 'session_token', in: 'cookie', schema: { type: 'string' } },
          { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } },
        ];
        delete doc.paths['/action'].post.responses['429'];
        requestMediaType(doc); // the JSON media type stays; a second one is added beside it
        doc.components.requestBodies.ActionRequest.content['application/x-www-form-urlencoded'] = { schema: { type: 'object' }, example: {} };
      });
      const found = redoclyRulesOf(document);
      for (const expected of [
        'rule/no-security-schemes #/components/securitySchemes',
        'rule/no-root-security #/security',
        'rule/operation-security-empty #/paths/~1action/post/security',
        'rule/no-credential-parameter #/paths/~1action/post/parameters/0/name',
        'rule/no-credential-parameter #/paths/~1action/post/parameters/1/name',
        'rule/no-credential-parameter #/paths/~1action/post/parameters/2/name',
        'rule/rate-limit-documented #/paths/~1action/post/responses',
        'rule/json-request-only #/components/requestBodies/ActionRequest/content/application~1x-www-form-urlencoded',
      ]) {
        assert.ok(found.includes(expected), `expected ${expected}; found:\n  ${found.join('\n  ')}`);
      }
      assert.ok(!found.includes('rule/no-credential-parameter #/paths/~1action/post/parameters/3/name'), 'X-Request-Id carries no credential');
    });
  });

  describe('request-examples', () => {
    test('rejects an example that is valid for two branches', () => {
      const document = brokenBundle((doc) => {
        // The resume branch stops fixing its action, so the pause example fits it too.
        schemas(doc).ResumeSubscriptionRequest.properties.action = { type: 'string' };
      });
      assertFinding(document, 'request-examples', /"pause_subscription" is also valid for the ResumeSubscriptionRequest branch/);
    });

    test('rejects an example named after another action', () => {
      const document = brokenBundle((doc) => {
        const examples = requestMediaType(doc).examples;
        examples.trial_end = examples.payment_failed;
      });
      assertFinding(document, 'request-examples', /"trial_end" is named after trial_end but sends action "payment_failed"/);
    });

    test('rejects an example with a field the action does not accept', () => {
      const document = brokenBundle((doc) => {
        doc.components.examples.TrialEndRequest.value.order_id = 9034;
      });
      assertFinding(document, 'request-examples', /"trial_end" is not valid for its own action trial_end: the body has the field "order_id"/);
    });

    test('rejects an action without an example', () => {
      const document = brokenBundle((doc) => {
        delete requestMediaType(doc).examples.change_status;
      });
      assertFinding(document, 'request-examples', /Action change_status has no request example/);
    });
  });

  describe('placeholder-api-key', () => {
    test('rejects an example key that looks real', () => {
      const document = brokenBundle((doc) => {
        doc.components.examples.CancelSubscriptionRequest.value.api_key = 'sk_live_4f9a1c2e7b';
      });
      assertFinding(document, 'placeholder-api-key', /"cancel_subscription" does not use the placeholder <API_KEY>/);
    });
  });

  describe('transition-table', () => {
    const transitions = (document: Record<string, any>): Record<string, any> => document['x-transitions'];

    test('rejects an unknown state', () => {
      const document = brokenBundle((doc) => {
        transitions(doc).actions.pause_subscription.from = ['active', 'paused'];
      });
      assertFinding(document, 'transition-table', /The "from" states of pause_subscription names "paused", which is not a state of SubscriptionStatus/);
    });

    test('rejects an unknown target state and an unknown move', () => {
      const document = brokenBundle((doc) => {
        transitions(doc).actions.trial_end.to = 'live';
        transitions(doc).actions.change_status.moves.cancelled = ['archived'];
      });
      assertFinding(document, 'transition-table', /The "to" state of trial_end names "live"/);
      assertFinding(document, 'transition-table', /The moves of change_status from cancelled names "archived"/);
    });

    test('rejects an unknown action and a missing entry', () => {
      const document = brokenBundle((doc) => {
        const actions = transitions(doc).actions;
        actions.refund_subscription = { from: ['active'], to: 'cancelled' };
        delete actions.resume_subscription;
      });
      assertFinding(document, 'transition-table', /lists "refund_subscription", which is not one of the actions of the request body/);
      assertFinding(document, 'transition-table', /no entry for resume_subscription/);
    });

    test('rejects a way out of a final state', () => {
      const document = brokenBundle((doc) => {
        transitions(doc).actions.reactivate_subscription.from.push('expired');
        transitions(doc).actions.change_status.moves.expired = ['active'];
      });
      assertFinding(document, 'transition-table', /expired is a final state, yet reactivate_subscription accepts it/);
      assertFinding(document, 'transition-table', /expired is a final state, yet change_status moves out of it to active/);
    });

    test('rejects an unknown final state', () => {
      const document = brokenBundle((doc) => {
        transitions(doc).final.push('deleted');
      });
      assertFinding(document, 'transition-table', /The list of final states names "deleted"/);
    });

    test('rejects moves whose toField is not a request field', () => {
      const document = brokenBundle((doc) => {
        transitions(doc).actions.change_status.toField = 'target_status';
      });
      assertFinding(document, 'transition-table', /"toField" must name the request field/);
    });

    test('rejects a document without the table', () => {
      const document = brokenBundle((doc) => {
        delete doc['x-transitions'];
      });
      assertFinding(document, 'transition-table', /no x-transitions table/);
    });
  });

  describe('tolerant-reader', () => {
    test('rejects an action that accepts fields it does not list', () => {
      const document = brokenBundle((doc) => {
        delete schemas(doc).PauseSubscriptionRequest.additionalProperties;
      });
      assertFinding(document, 'tolerant-reader', /The pause_subscription branch does not set "additionalProperties: false"; requests stay strict/);
    });

    test('rejects a response closed to fields that later releases add, however deep', () => {
      const document = brokenBundle((doc) => {
        schemas(doc).ActionResult.additionalProperties = false;
        schemas(doc).TransitionErrorData.additionalProperties = false;
      });
      const findings = runContractRules(document).filter((finding) => finding.rule.name === 'tolerant-reader');
      assert.deepEqual(findings.map((finding) => finding.pointer).sort(), ['#/components/schemas/ActionResult', '#/components/schemas/TransitionErrorData']);
      assert.ok(findings.every((finding) => /responses stay open/.test(finding.message)));
    });

    test('rejects action identifiers listed as a closed enum in a response', () => {
      const document = brokenBundle((doc) => {
        schemas(doc).ActionName.enum = [...specifiedActions];
      });
      assertFinding(document, 'tolerant-reader', /lists action identifiers as a closed "enum"; version 1 may add actions/);
    });
  });

  test('report a request body that is not an object instead of crashing', () => {
    const document = brokenBundle((doc) => {
      doc.paths['/action'].post.requestBody = 'not an object';
    });
    assertFinding(document, 'eight-actions', /no application\/json content/);
  });
});

describe('the contract checks step', () => {
  test('ties each finding to the source file to open, with the line', () => {
    const document = brokenBundle((doc) => {
      doc['x-transitions'].actions.trial_end.to = 'live';
      doc.servers[0].variables.site.default = 'shop.com';
      doc.components.examples.CancelSubscriptionRequest.value.api_key = 'sk_live_4f9a1c2e7b';
      schemas(doc).Note.maxLength = 'long';
    });
    const problems = contractRulesStep.run({
      projectDirectory: copy.directory,
      root: contractRoot,
      document,
      bundlePath,
      format: 'stylish',
    });
    assert.ok(Array.isArray(problems));
    const where = (pattern: RegExp): { file: string; line?: number } | undefined => {
      const problem = problems.find((candidate) => pattern.test(candidate.message));
      return problem && { file: problem.file, ...(problem.line === undefined ? {} : { line: problem.line }) };
    };
    const transitionsLine = copy.read('openapi/components/transitions.yaml').split('\n').indexOf('  trial_end:') + 1;
    assert.deepEqual(where(/"to" state of trial_end/), { file: 'openapi/components/transitions.yaml', line: transitionsLine + 2 });
    assert.equal(where(/"shop\.com"/)?.file, 'openapi/openapi.yaml');
    // A component's root is its file's first line.
    assert.deepEqual(where(/does not use the placeholder/), { file: 'openapi/components/examples/CancelSubscriptionRequest.yaml', line: 1 });
    for (const problem of problems) assert.match(problem.rule ?? '', /^[a-z-]+: rule \d/);
  });
});

describe('the source locator', () => {
  test('maps pointers of the bundle to the files they were written in', () => {
    const locate = createSourceLocator(copy.directory, contractRoot);
    assert.equal(locate('#/components/schemas/ApiKey').file, 'openapi/components/schemas/ApiKey.yaml');
    assert.equal(locate('#/paths/~1action/post').file, 'openapi/paths/action.yaml');
    // A pointer that ends at a $ref names the referring node, not the file it refers to; one that goes on follows it.
    assert.equal(locate('#/paths/~1action/post/responses/429').file, 'openapi/paths/action.yaml');
    assert.equal(locate('#/paths/~1action/post/responses/429/headers').file, 'openapi/components/responses/TooManyRequests.yaml');
    const result = copy.read('openapi/components/schemas/ActionResult.yaml').split('\n');
    assert.deepEqual(locate('#/components/schemas/ActionResult/properties/previous_status'), { file: 'openapi/components/schemas/ActionResult.yaml', line: result.indexOf('  previous_status:') + 1 });
    assert.equal(locate('#/components/responses/TooManyRequests/headers/Retry-After').file, 'openapi/components/responses/TooManyRequests.yaml');
    assert.equal(locate('#/components/schemas/RetryAfter').file, 'openapi/components/schemas/RetryAfter.yaml');
    assert.equal(locate('#/x-transitions/final').file, 'openapi/components/transitions.yaml');
    assert.equal(locate('#/servers/0').file, 'openapi/openapi.yaml');
    assert.equal(locate('#/components/securitySchemes/NotWrittenAnywhere').file, 'openapi/openapi.yaml');
  });

  test('gives the line of the key that leads to the node', () => {
    const locate = createSourceLocator(copy.directory, contractRoot);
    const lines = copy.read('openapi/paths/action.yaml').split('\n');
    assert.equal(locate('#/paths/~1action/post/security').line, lines.indexOf('  security: []') + 1);
  });
});
