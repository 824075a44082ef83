/**
 * The contract rules (src/gate/rules/) where they need the whole contract: the real one passes
 * them, the links of descriptions are checked against the pages the site generates from it, the
 * rules that live in `redocly.yaml` are linted by Redocly, and each finding names the source file
 * and line. Each rule's own cases run in process beside it (`src/gate/rules/<rule>.test.ts`).
 * The real contract is bundled once by Redocly; a test changes a clone of that bundle in memory.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import { contractRulesStep, runContractRules } from '../../src/gate/checks.ts';
import { lintBundledDocument } from '../../src/gate/redocly-lint.ts';
import { createSourceLocator } from '../../src/gate/source-files.ts';
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

const schemas = (document: Record<string, any>): Record<string, any> => document.components.schemas;
const requestMediaType = (document: Record<string, any>): Record<string, any> =>
  document.components.requestBodies.ActionRequest.content['application/json'];

describe('the contract checks', () => {
  test('find nothing wrong with the real contract', () => {
    assert.deepEqual(runContractRules(bundled), []);
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

  describe('descriptions', () => {
    test('accept links to the pages the site serves, generated ones included, and reject any other', () => {
      const document = brokenBundle((doc) => {
        doc.info.description += '\n\nSee [the guides](/), [the endpoint](/reference/endpoint/) and [the old page](/no-such-page/#anchor).';
      });
      const found = findingsOf(document, 'descriptions');
      assert.equal(found.length, 1, found.join('\n'));
      assert.match(found[0] ?? '', /^The description links to \/no-such-page\/#anchor, which is not a page of the site; link to one of its pages \(\/, /);
    });
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
