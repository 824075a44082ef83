/**
 * The code samples of every action as text: each sends the action's request example, with the
 * retry policy's timeouts and no redirect followed. The integration tier runs them against real
 * servers (tests/integration/reference-samples.test.ts); these tests only read them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { codeSamples, type CodeSample, type SampleLanguage } from '../../src/lib/samples/code-samples.ts';
import { phpLiteral } from '../../src/lib/samples/literals.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { bundledDocument } from '../support/reference-fixture.ts';
import { clientMethodFields, typescriptClientClassName, typescriptClientPackageName } from '../../src/lib/samples/client-libraries.ts';
import { methodName as phpMethodName } from '../../src/clients/php/client-class.ts';
import { methodName as typescriptMethodName } from '../../src/clients/typescript/generate.ts';

const model = readReferenceModel(bundledDocument());
const statuses = sampleStatuses(model.responses);

function sampleOf(samples: CodeSample[], language: SampleLanguage): string {
  const sample = samples.find((candidate) => candidate.language === language);
  assert.ok(sample, `a ${language} sample`);
  return sample.code;
}

/** Reads the JSON body back out of the curl sample, undoing the shell's single quoting. */
function curlBody(code: string): unknown {
  const quoted = /--data '([\s\S]*)'$/.exec(code)?.[1];
  assert.ok(quoted !== undefined, 'the curl sample sends a quoted body');
  return JSON.parse(quoted.replaceAll(`'\\''`, `'`));
}

describe('the samples of every action', () => {
  for (const action of model.actions) {
    const samples = codeSamples(model.endpoint, action.requestExample.value, statuses, { envelope: model.envelope, fields: action.fields });

    test(`${action.identifier}: the curl sample's body parses back to the request example`, () => {
      const curl = sampleOf(samples, 'curl');
      assert.deepEqual(curlBody(curl), action.requestExample.value);
      assert.ok(curl.includes(`--request ${model.endpoint.method} '${model.endpoint.exampleUrl}'`));
      assert.ok(curl.includes(`--header 'Content-Type: application/json'`));
    });

    test(`${action.identifier}: the plain PHP sample posts the example with ext-curl, with the policy's timeouts`, () => {
      const php = sampleOf(samples, 'php');
      assert.ok(php.startsWith('<?php\n'));
      assert.ok(php.includes(`"https://{$site}/wp-json/service/v1/action"`));
      assert.ok(php.includes(`$payload = ${phpLiteral(action.requestExample.value)};`));
      assert.ok(php.includes(`CURLOPT_CONNECTTIMEOUT => ${retryPolicy.connectTimeoutSeconds},`), 'a connect timeout');
      assert.ok(php.includes(`CURLOPT_TIMEOUT        => ${retryPolicy.attemptTimeoutSeconds},`), 'a timeout');
      assert.ok(php.includes('CURLOPT_FOLLOWLOCATION => false,'), 'no redirect followed');
      assert.ok(php.includes(`0 === stripos( $type, 'application/json' )`), 'only a JSON body is read as the envelope');
    });

    test(`${action.identifier}: the WordPress sample posts the example with wp_remote_post`, () => {
      const php = sampleOf(samples, 'wordpress');
      assert.ok(php.startsWith('<?php\n'));
      assert.ok(php.includes('wp_remote_post('));
      assert.ok(php.includes(`"https://{$site}/wp-json/service/v1/action"`));
      assert.ok(php.includes(`'Content-Type' => 'application/json'`));
      assert.ok(php.includes(`wp_json_encode( ${phpLiteral(action.requestExample.value, '        ')} )`));
      assert.ok(php.includes(`if ( ${statuses.success} === $status )`));
      assert.ok(php.includes(`'timeout'     => ${retryPolicy.attemptTimeoutSeconds},`), 'a timeout');
      assert.ok(php.includes(`'redirection' => 0,`), 'no redirect followed');
      assert.ok(php.includes(`0 === stripos( $type, 'application/json' )`), 'only a JSON body is read as the envelope');
    });

    test(`${action.identifier}: every sample has a timeout and follows no redirect`, () => {
      assert.ok(sampleOf(samples, 'curl').includes(`--connect-timeout ${retryPolicy.connectTimeoutSeconds} --max-time ${retryPolicy.attemptTimeoutSeconds}`));
      assert.doesNotMatch(sampleOf(samples, 'curl'), /--location|-L\b/);
      const javascript = sampleOf(samples, 'javascript');
      assert.ok(javascript.includes(`signal: AbortSignal.timeout(${retryPolicy.attemptTimeoutSeconds * 1000})`));
      assert.ok(javascript.includes('redirect: "manual"'));
      const python = sampleOf(samples, 'python');
      assert.ok(python.includes(`timeout=(${retryPolicy.connectTimeoutSeconds}, ${retryPolicy.attemptTimeoutSeconds})`));
      assert.ok(python.includes('allow_redirects=False'));
    });
  }
});

describe('the samples of the client libraries', () => {
  for (const action of model.actions) {
    const samples = codeSamples(model.endpoint, action.requestExample.value, statuses, { envelope: model.envelope, fields: action.fields });
    const example = action.requestExample.value;
    const ownFields = clientMethodFields(model.envelope, action.fields);

    test(`${action.identifier}: the PHP library's sample calls the package's method with the example's own fields as one array`, () => {
      const php = sampleOf(samples, 'php-library');
      assert.ok(php.startsWith('<?php\n'));
      assert.ok(php.includes(`require __DIR__ . '/vendor/autoload.php';`));
      assert.ok(php.includes(`new Client( "https://{$site}", ${phpLiteral(example[model.envelope.credential])} );`), 'made from the site and the key');
      const expected = Object.fromEntries(ownFields.filter((field) => field.name in example).map((field) => [field.name, example[field.name]]));
      assert.ok(php.includes(`$client->${phpMethodName(action)}( ${phpLiteral(expected)} );`), `the sample calls ${phpMethodName(action)} with the example's fields but the action and the key`);
    });

    test(`${action.identifier}: the TypeScript client's sample calls the package's method with the example's own fields`, () => {
      const typescript = sampleOf(samples, 'typescript-library');
      assert.ok(typescript.includes(`import { ${typescriptClientClassName} } from "${typescriptClientPackageName}";`));
      const call = new RegExp(`client\\.${typescriptMethodName(action.identifier)}\\((\\{[\\s\\S]*?\\})\\);`).exec(typescript);
      assert.ok(call?.[1], `the sample calls ${typescriptMethodName(action.identifier)}`);
      const fields = Function(`return (${call[1]});`)() as Record<string, unknown>;
      const expected = Object.fromEntries(ownFields.filter((field) => field.name in example).map((field) => [field.name, example[field.name]]));
      assert.deepEqual(fields, expected, 'the example\'s fields but the action and the key, by the contract\'s names');
    });
  }

  test('an optional field the example leaves out is left out of the call, in both libraries, so a field added before another moves nothing', () => {
    const [action] = model.actions;
    assert.ok(action);
    const subject = model.envelope.subject;
    const fields = [
      { name: model.envelope.selector, required: true },
      { name: model.envelope.credential, required: true },
      { name: 'earlier_optional', required: false },
      { name: subject, required: true },
      { name: 'later_optional', required: false },
    ];
    const body = { [model.envelope.selector]: 'ninth_action', [model.envelope.credential]: '<API_KEY>', [subject]: 7, later_optional: 'given' };
    const [php, typescript] = (['php-library', 'typescript-library'] as const).map((language) => sampleOf(codeSamples(model.endpoint, body, statuses, { envelope: model.envelope, fields }), language));
    assert.ok(php?.includes(`$client->ninthAction( ${phpLiteral({ [subject]: 7, later_optional: 'given' })} );`), php);
    assert.ok(typescript?.includes(`client.ninthAction({\n  ${subject}: 7,\n  later_optional: "given",\n});`), typescript);
  });
});
