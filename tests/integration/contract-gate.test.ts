/**
 * `npm run lint` rejects every breaking edit the issue names. Each test breaks a fresh copy of
 * the project's contract the way a careless edit would, runs the whole gate over it (Redocly's
 * bundler, Redocly's lint, the contract checks) and expects the problem in the file to open.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { formatGateProblem, type GateProblem } from '../../src/gate/gate.ts';
import { runGate, type GateResult } from '../../src/gate/run-gate.ts';
import { copyContract, projectDirectory, type ContractCopy } from '../support/contract-copy.ts';

interface Expectation {
  file: string;
  message: RegExp;
}

async function gateOverBrokenCopy(breakContract: (copy: ContractCopy) => void): Promise<GateResult> {
  const copy = copyContract();
  try {
    breakContract(copy);
    const result = await runGate({ projectDirectory: copy.directory });
    for (const problem of result.problems) {
      assert.ok(existsSync(path.join(copy.directory, problem.file)), `"${problem.file}" is not a file of the project: ${problem.message}`);
    }
    return result;
  } finally {
    copy.remove();
  }
}

function assertRejected(result: GateResult, ...expectations: Expectation[]): void {
  assert.equal(result.ok, false, 'the gate accepted a broken contract');
  const report = result.problems.map((problem: GateProblem) => `  ${formatGateProblem(problem)}`).join('\n');
  for (const problem of result.problems) assert.ok(problem.rule !== undefined && problem.rule !== '', `no rule named: ${formatGateProblem(problem)}`);
  for (const expected of expectations) {
    // Matched against the line people read, `file: line N: message [rule]`.
    assert.ok(
      result.problems.some((problem) => problem.file === expected.file && expected.message.test(formatGateProblem(problem))),
      `expected a problem in ${expected.file} matching ${expected.message}; the gate reported:\n${report}`,
    );
  }
}

const root = 'openapi/openapi.yaml';
const actionPath = 'openapi/paths/action.yaml';
const actionRequest = 'openapi/components/requestBodies/ActionRequest.yaml';

describe('the gate', () => {
  test('passes the real contract, running every step', async () => {
    const result = await gateOverBrokenCopy(() => {});
    assert.deepEqual(result.problems, []);
    assert.equal(result.ok, true);
    assert.deepEqual(
      result.steps.map((step) => step.name),
      ['Redocly bundle', 'Redocly lint', 'contract checks', 'reference model', 'Arazzo workflows', 'compatibility with the latest release', 'client libraries against the latest release'],
    );
  });

  test('rejects an OAuth security scheme', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace(
        root,
        'x-transitions:',
        [
          'components:',
          '  securitySchemes:',
          '    shopOAuth:',
          '      type: oauth2',
          '      flows:',
          '        clientCredentials:',
          '          tokenUrl: https://shop.example/oauth/token',
          '          scopes: {}',
          'x-transitions:',
        ].join('\n'),
      ),
    );
    assertRejected(
      result,
      { file: root, message: /OAuth 2\.0, OpenID Connect and every other scheme are not allowed \(rules 5\.1, 5\.7\).*\[Redocly rule rule\/no-security-schemes\]/ },
    );
    const linted = result.steps.filter((step) => step.name !== 'compatibility with the latest release').flatMap((step) => step.problems);
    assert.equal(linted.filter((problem) => /security scheme/i.test(problem.message) && /rules 5\.1, 5\.7|credential/.test(formatGateProblem(problem))).length, 1, `one rule, one home: reported once\n${linted.map(formatGateProblem).join('\n')}`);
  });

  test('rejects a 429 without Retry-After', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.write('openapi/components/responses/TooManyRequests.yaml', copy.read('openapi/components/responses/TooManyRequests.yaml').replace(/^headers:\n[\s\S]*$/m, '')),
    );
    assertRejected(
      result,
      { file: 'openapi/components/responses/TooManyRequests.yaml', message: /must declare the Retry-After header.*\(rules 7\.1, 8\.2\).*\[Redocly rule rule\/rate-limit-has-headers\]/ },
    );
    assert.equal(result.problems.filter((problem) => /Retry-After header/.test(problem.message)).length, 1, 'one rule, one home: reported once');
  });

  test('rejects a contract without the 429', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace(actionPath, "    '429':\n      $ref: ../components/responses/TooManyRequests.yaml\n", ''),
    );
    assertRejected(result, { file: actionPath, message: /no 429 response.*\(rules 7\.1, 8\.2\).*\[Redocly rule rule\/rate-limit-documented\]/ });
  });

  test('rejects an example of the wrong type', async () => {
    const example = 'openapi/components/examples/PauseSubscriptionRequest.yaml';
    const result = await gateOverBrokenCopy((copy) => copy.replace(example, 'subscription_id: 4711', 'subscription_id: "4711"'));
    assertRejected(
      result,
      { file: example, message: /subscription_id.*must be integer.*no-invalid-media-type-examples/ },
      { file: example, message: /"pause_subscription" is not valid for its own action.*"subscription_id" must be integer.*request-examples/ },
    );
  });

  test('rejects an example with an unknown action', async () => {
    const example = 'openapi/components/examples/PauseSubscriptionRequest.yaml';
    const result = await gateOverBrokenCopy((copy) => copy.replace(example, 'action: pause_subscription', 'action: hold_subscription'));
    assertRejected(
      result,
      { file: example, message: /sends action "hold_subscription", which is not one of the actions of the request body.*request-examples/ },
      { file: actionRequest, message: /Action pause_subscription has no request example/ },
    );
  });

  test('rejects an action whose api_key is optional', async () => {
    const schema = 'openapi/components/schemas/TrialEndRequest.yaml';
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace(schema, 'required: [api_key, action, subscription_id]', 'required: [action, subscription_id]'),
    );
    assertRejected(result, { file: schema, message: /trial_end branch does not list "api_key" under required.*\[api-key-in-body: rule 2\.1, 5\.1\]/ });
  });

  test('rejects a contract with an action dropped', async () => {
    const result = await gateOverBrokenCopy((copy) => {
      copy.replace(actionRequest, '        - $ref: ../schemas/PaymentFailedRequest.yaml\n', '');
      copy.replace(actionRequest, '          payment_failed: ../schemas/PaymentFailedRequest.yaml\n', '');
      copy.replace(actionRequest, '      payment_failed:\n        $ref: ../examples/PaymentFailedRequest.yaml\n', '');
    });
    assertRejected(
      result,
      { file: actionRequest, message: /No branch of the request body's oneOf has action "payment_failed".*\[eight-actions: rule 4\.1c/ },
      { file: actionRequest, message: /discriminator mapping has no entry for "payment_failed"/ },
    );
  });

  test('rejects a contract with an action renamed', async () => {
    const schema = 'openapi/components/schemas/TrialEndRequest.yaml';
    const result = await gateOverBrokenCopy((copy) => {
      copy.replace(schema, 'const: trial_end', 'const: end_trial');
      copy.replace('openapi/components/examples/TrialEndRequest.yaml', 'action: trial_end', 'action: end_trial');
      copy.replace(actionRequest, 'trial_end: ../schemas/TrialEndRequest.yaml', 'end_trial: ../schemas/TrialEndRequest.yaml');
    });
    assertRejected(
      result,
      { file: actionRequest, message: /No branch of the request body's oneOf has action "trial_end"/ },
      { file: 'openapi/components/schemas/ActionName.yaml', message: /ActionName must list exactly the actions of the request body; not in the request body: "trial_end"; missing: "end_trial"/ },
    );
  });

  test('rejects a second path', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace(root, '  /action:\n    $ref: paths/action.yaml\n', '  /action:\n    $ref: paths/action.yaml\n  /status:\n    $ref: paths/action.yaml\n'),
    );
    assertRejected(result, { file: root, message: /declares 2 paths \("\/action", "\/status"\).*\[single-endpoint: rule 1\.2, 4\.1b/ });
  });

  test('rejects a GET beside the POST', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace(
        actionPath,
        'post:\n',
        [
          'get:',
          '  operationId: readLifecycleAction',
          '  summary: Read the last action',
          '  description: Reads the last action.',
          '  tags: [Subscription lifecycle]',
          '  security: []',
          '  responses:',
          "    '404':",
          '      $ref: ../components/responses/NotFound.yaml',
          'post:',
          '',
        ].join('\n'),
      ),
    );
    assertRejected(result, { file: actionPath, message: /POST must be the endpoint's only method \(rules 4\.1a, 4\.1-r1\).*\[Redocly rule rule\/post-only\]/ });
  });

  test('rejects a server under /v2/', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace(root, 'url: https://{site}/wp-json/service/v1', 'url: https://{site}/wp-json/service/v2'),
    );
    assertRejected(result, { file: root, message: /resolves to \/wp-json\/service\/v2\/action, not \/wp-json\/service\/v1\/action.*single-endpoint/ });
  });

  test('rejects a server over http://', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace(root, 'url: https://{site}/wp-json/service/v1', 'url: http://{site}/wp-json/service/v1'),
    );
    assertRejected(result, { file: root, message: /uses http:\/\/; the endpoint is served over https only.*single-endpoint/ });
  });

  test('rejects a second request media type beside application/json [4.1a]', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.editYaml(actionRequest, (requestBody) => {
        const content = requestBody.content as Record<string, unknown>;
        content['application/x-www-form-urlencoded'] = structuredClone(content['application/json']);
      }),
    );
    assertRejected(result, { file: actionRequest, message: /accepts a media type beside application\/json.*\[Redocly rule rule\/json-request-only\]/ });
  });

  test('stops at a dangling $ref, naming the file and line Redocly reports', async () => {
    const schema = 'openapi/components/schemas/PauseSubscriptionRequest.yaml';
    const result = await gateOverBrokenCopy((copy) => copy.replace(schema, '$ref: ./Note.yaml', '$ref: ./Notes.yaml'));
    assertRejected(result, { file: schema, message: /Can't resolve \$ref.*Notes\.yaml/ });
    assert.equal(result.problems.length, 1, 'one dangling $ref is one problem');
    const refLine = readFileSync(path.join(projectDirectory, schema), 'utf8').split('\n').findIndex((line) => line.includes('$ref: ./Note.yaml')) + 1;
    assert.ok(refLine > 0);
    assert.equal(result.problems.find((problem) => problem.file === schema)?.line, refLine);
    assert.deepEqual(result.steps.map((step) => step.name), ['Redocly bundle'], 'no step should run without a bundle');
  });

  test('stops at a YAML syntax error in a component file', async () => {
    const example = 'openapi/components/examples/TrialEndRequest.yaml';
    const result = await gateOverBrokenCopy((copy) => copy.replace(example, 'action: trial_end', 'action: [trial_end'));
    assertRejected(result, { file: example, message: /: line \d+: This file is not valid YAML: .*\[YAML syntax\]$/ });
    assert.deepEqual(result.steps.map((step) => step.name), ['Redocly bundle']);
  });

  test('reports a YAML syntax error in a file many others reference as one problem', async () => {
    const note = 'openapi/components/schemas/Note.yaml';
    const result = await gateOverBrokenCopy((copy) => copy.replace(note, 'type: string', 'type: [string'));
    assert.equal(result.problems.length, 1, result.problems.map(formatGateProblem).join('\n'));
    assertRejected(result, { file: note, message: /^openapi\/components\/schemas\/Note\.yaml: line 2: This file is not valid YAML: .*\(8 \$refs lead here/ });
  });

  test('stops at a YAML syntax error in the root file', async () => {
    const result = await gateOverBrokenCopy((copy) => copy.replace(root, 'info:\n  title:', 'info:\n title:'));
    assertRejected(result, { file: root, message: /: line \d+: This file is not valid YAML/ });
    assert.equal(result.problems.length, 1);
  });
});

describe('the gate names each problem once, at the file to open and its line', () => {
  test('an empty or comment-only component file is named once, not at each of its referrers', async () => {
    for (const text of ['', '# to be written\n']) {
      const result = await gateOverBrokenCopy((copy) => copy.write('openapi/components/schemas/Note.yaml', text));
      assert.deepEqual(result.problems.map(formatGateProblem), [
        `openapi/components/schemas/Note.yaml: line 1: The file ${text === '' ? 'is empty' : 'holds only comments'}: a $ref to it has nothing to read. Write the component it stands for, or remove it and every $ref to it. [empty file]`,
      ]);
    }
  });

  test('a second server error is named in the file that lists the responses, at its line', async () => {
    const result = await gateOverBrokenCopy((copy) => copy.replace(actionPath, "    '500':\n", "    '503':\n      description: The service is busy.\n    '500':\n"));
    const line = copyContract();
    try {
      const expectedLine = line.read(actionPath).split('\n').indexOf("    '500':") + 1;
      assertRejected(result, { file: actionPath, message: new RegExp(`^${actionPath}: line ${expectedLine}: POST /action, response \`503\`: exactly one server error \\(5xx\\) response`) });
    } finally {
      line.remove();
    }
  });

  test('an action without a lifecycle entry is printed once, though two steps find it', async () => {
    const result = await gateOverBrokenCopy((copy) => copy.replace('openapi/components/transitions.yaml', '  payment_failed:\n    from: [trial, active]\n    to: on-hold\n', ''));
    const named = result.problems.filter((problem) => /has no entry for payment_failed/.test(problem.message));
    assert.equal(named.length, 1, result.problems.map(formatGateProblem).join('\n'));
  });

  test('a success body without `changed` is one problem, at the schema that lost it, with a line', async () => {
    const result = await gateOverBrokenCopy((copy) => {
      copy.replace('openapi/components/schemas/ActionResult.yaml', 'status, changed]', 'status]');
      copy.replace('openapi/components/schemas/ActionResult.yaml', '  changed:\n    type: boolean\n', '  unchanged:\n    type: string\n');
    });
    const model = result.problems.filter((problem) => problem.rule === 'reference model');
    assert.deepEqual(model.map(formatGateProblem), [
      'openapi/components/schemas/ActionResult.yaml: line 1: Schema ActionResult: exactly one boolean member that is not a constant (changed) is expected, found none [reference model]',
    ]);
  });
});

describe('a YAML syntax error says what to fix', () => {
  test('a quote left open names the line that opens it, not only the line where the parser stopped', async () => {
    const result = await gateOverBrokenCopy((copy) => copy.replace(root, 'version: 1.1.0', 'version: "1.1.0'));
    const copy = copyContract();
    const opened = copy.read(root).split('\n').indexOf('  version: 1.1.0') + 1;
    copy.remove();
    assertRejected(result, { file: root, message: new RegExp(`This file is not valid YAML: .*\\. Line ${opened} opens a quote it does not close \\(\`version: "1\\.1\\.0\`\\): close it there\\. \\[YAML syntax\\]$`) });
  });

  test('a duplicated key is named, with the line of its first writing, and one $ref reaching the file "leads" there', async () => {
    const result = await gateOverBrokenCopy((copy) =>
      copy.replace('openapi/components/schemas/ActionResult.yaml', '  previous_status:\n', '  previous_status:\n    type: string\n  previous_status:\n'),
    );
    assertRejected(result, {
      file: 'openapi/components/schemas/ActionResult.yaml',
      message: /: line 18: This file is not valid YAML: duplicated mapping key `previous_status` at line 18, column 3, first written at line 16 \(1 \$ref leads here, so nothing else could be checked\)\. Keep one of the two\. \[YAML syntax\]$/,
    });
  });
});

test('a new value in the closed `code` of a response says, besides Redocly\'s words, what it does to a client', async () => {
  const file = 'openapi/components/schemas/BadRequestError.yaml';
  const result = await gateOverBrokenCopy((copy) => {
    copy.replace(file, 'rest_invalid_param]', 'rest_invalid_param, rest_body_too_large]');
    copy.replace(file, '  message:\n', '      - const: rest_body_too_large\n        description: The body is larger than the site accepts.\n  message:\n');
  });
  assertRejected(result, { file, message: /breaks release [\d.]+: `oneOf` subschema of `code` was added: a client that switches on `code` meets a value it does not know\. Version 1/ });
});

describe('descriptions are published as written, so the gate reads them as the site renders them', () => {
  const pause = 'openapi/components/schemas/PauseSubscriptionRequest.yaml';
  // The sentence opens the action's description (line 2 of its file), whatever the description says.
  const described = (copy: ContractCopy, sentence: string) => copy.replace(pause, 'description: |\n', `description: |\n  ${sentence}\n\n`);

  test('a link to a path the site does not serve is refused at the description; one to a page it serves passes', async () => {
    const dead = await gateOverBrokenCopy((copy) => described(copy, 'See [the lifecycle](/lifecycle-states/).'));
    assertRejected(dead, { file: pause, message: /^openapi\/components\/schemas\/PauseSubscriptionRequest\.yaml: line 2: The description links to \/lifecycle-states\/, which is not a page of the site; .*\[descriptions: rule 1\.4\]$/ });
    const live = await gateOverBrokenCopy((copy) => described(copy, 'See [the lifecycle](/states-and-transitions/#final-states) and [the endpoint](/reference/endpoint/).'));
    assert.deepEqual(live.problems.filter((problem) => problem.rule?.startsWith('descriptions')), []);
  });

  test('raw HTML is refused, each piece named: a placeholder the page would drop, an iframe, a style', async () => {
    const result = await gateOverBrokenCopy((copy) => described(copy, 'Send it to <your-site>. <iframe src="https://tracker.example/"></iframe>\n\n  <style>body { display: none }</style>'));
    for (const html of ['<your-site>', '<iframe src="https://tracker.example/">', '<style>body { display: none }</style>']) {
      assertRejected(result, { file: pause, message: new RegExp(`line 2: The description holds raw HTML \`${html.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`, which a page would drop or run as markup`) });
    }
    // Written as code, the same placeholder is text.
    const code = await gateOverBrokenCopy((copy) => described(copy, 'Send it to `<your-site>`.'));
    assert.deepEqual(code.problems.filter((problem) => problem.rule?.startsWith('descriptions')), []);
  });
});
