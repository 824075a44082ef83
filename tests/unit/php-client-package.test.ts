/**
 * The generated PHP library's source: every file parses as PHP 7.4 (the floor composer.json
 * states), the check refuses newer syntax, and the names, bounds and codes come from the model.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientDescription, methodFields, methodName } from '../../src/clients/php/client-class.ts';
import { documentedErrors, exceptionClassName } from '../../src/clients/php/exception-classes.ts';
import { phpPackageFiles, phpRuntimeFiles } from '../../src/clients/php/generate.ts';
import { php74Problems } from '../../src/clients/php/php-74-syntax.ts';
import { arrayShape, arrayShapeParam, phpFloor, phpNamespace } from '../../src/clients/php/php-source.ts';
import { attemptOutcomes, attemptReportMembers } from '../../src/clients/shared/attempt-report.ts';
import { checkedKeywords } from '../../src/clients/shared/checked-keywords.ts';
import { fixedErrorClassName, fixedErrorKinds, statusErrorClassName, type FixedErrorKindId } from '../../src/clients/shared/error-kinds.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const files = phpPackageFiles(contract);
const client = files.get('src/Client.php') ?? '';

describe('the generated PHP library', () => {
  test('every PHP file parses as PHP 7.4, with nothing newer', () => {
    const php = [...files].filter(([file]) => file.endsWith('.php'));
    assert.ok(php.length > 10, 'the package has its classes');
    assert.deepEqual(php.flatMap(([file, source]) => php74Problems(file, source)), []);
  });

  const newer: Record<string, string> = {
    'a readonly property': '<?php final class A { public readonly int $id; }',
    'an enum': '<?php enum Status { case Active; }',
    'a union type': '<?php function f(int|string $id): void {}',
    'constructor promotion': '<?php class A { public function __construct(private string $key) {} }',
    'a match expression': '<?php $a = match ($b) { 1 => 2, default => 3 };',
    'the nullsafe operator': '<?php $a = $b?->c;',
    'the mixed type': '<?php function f(mixed $value): void {}',
    'a named argument': '<?php f(id: 1);',
  };
  for (const [feature, source] of Object.entries(newer)) {
    test(`the check can fail: ${feature} is refused`, () => {
      const problems = php74Problems('fixture.php', source);
      assert.equal(problems.length > 0, true, `${feature} passed as PHP 7.4`);
      assert.equal(problems[0]?.file, 'fixture.php');
    });
  }

  test('composer.json states the floor and needs only ext-curl and ext-json', () => {
    const composer = JSON.parse(files.get('composer.json') ?? '{}') as { require: Record<string, string>; version: string; autoload: { 'psr-4': Record<string, string> } };
    assert.deepEqual(composer.require, { php: `>=${phpFloor}`, 'ext-curl': '*', 'ext-json': '*' });
    assert.equal(composer.version, contract.model.documentVersion);
    assert.deepEqual(Object.values(composer.autoload['psr-4']), ['src/']);
  });

  test('one method per action of the model, each taking its fields as one array with their shape, on the client and its interface', () => {
    const contractInterface = files.get('src/ClientInterface.php') ?? '';
    for (const action of contract.model.actions) {
      assert.match(client, new RegExp(`public function ${methodName(action)}\\(array \\$fields\\): Result\\n`), action.identifier);
      assert.ok(client.includes(`return $this->send('${action.identifier}', $fields);`), action.identifier);
      assert.match(contractInterface, new RegExp(`public function ${methodName(action)}\\(array \\$fields\\): Result;`), action.identifier);
      const param = arrayShapeParam(methodFields(contract, action)).join('\n     * ');
      assert.ok(client.includes(`     * ${param}\n`) && contractInterface.includes(`     * ${param}\n`), param);
    }
    assert.match(client, /final class Client implements ClientInterface/);
    assert.match(contractInterface, /public function send\(string \$action, array \$fields\): Result;/);
  });

  test("an action's shape marks its optional fields and names a listed field's values", () => {
    const fields = [
      { name: 'subscription_id', type: 'integer', required: true, constraints: [] },
      { name: 'status', type: 'string', required: true, constraints: [{ keyword: 'enum', label: 'one of', values: ['active', 'on-hold'] }] },
      { name: 'note', type: 'string', required: false, constraints: [] },
    ];
    assert.equal(arrayShape(fields), "array{subscription_id: int, status: 'active'|'on-hold', note?: string}");
    assert.deepEqual(arrayShapeParam(fields), ["@param array{subscription_id: int, status: 'active'|'on-hold', note?: string} $fields"]);
    const many = [...fields, { name: 'a_longer_optional_field', type: 'string', required: false, constraints: [] }];
    assert.deepEqual(arrayShapeParam(many), [
      '@param array{',
      '    subscription_id: int,',
      "    status: 'active'|'on-hold',",
      '    note?: string,',
      '    a_longer_optional_field?: string',
      '} $fields',
    ]);
  });

  test('the runtime is copied as it is, each file saying where its source is, in the package\'s namespace', () => {
    const runtime = phpRuntimeFiles();
    assert.ok(runtime.size > 10, 'the runtime has its classes');
    for (const [file, source] of runtime) {
      assert.equal(files.get(file), source, file);
      assert.ok(source.includes(`copied into the package as it is from\n * src/clients/php/runtime/${file.slice('src/'.length)}`), `${file} names its source`);
      assert.match(source, new RegExp(`^namespace ${phpNamespace.replaceAll('\\', '\\\\')}(\\\\[A-Za-z]+)?;$`, 'm'), file);
    }
  });

  test('every generated PHP file says what it was generated from and not to edit it', () => {
    const runtime = phpRuntimeFiles();
    const generated = [...files].filter(([file]) => file.endsWith('.php') && !runtime.has(file));
    assert.ok(generated.length >= 4, generated.map(([file]) => file).join(', '));
    for (const [file, source] of generated) {
      assert.match(source, new RegExp(`^<\\?php\\n\\n/\\*\\*\\n \\* Generated from the OpenAPI document ${contract.model.documentVersion.replaceAll('.', '\\.')} `), file);
      assert.match(source, /Do not edit it/, file);
    }
  });

  test('the runtime names no field, status or code of the contract: the generated description hands them over', () => {
    const description = clientDescription(contract);
    const runtime = [...phpRuntimeFiles().values()].join('\n');
    const facts = [description.selector, description.credential, ...Object.values(description.error_body), description.retry_after_header, ...Object.keys(description.error_classes)];
    for (const fact of facts.filter((name) => !(attemptReportMembers as readonly string[]).includes(name))) assert.doesNotMatch(runtime, new RegExp(`'${fact}'`), fact);
    for (const action of contract.model.actions) assert.ok(!runtime.includes(action.identifier), action.identifier);
  });

  test('the runtime reports every attempt with the shared members and outcomes, and checks the shared keywords', () => {
    const core = files.get('src/Internal/ClientCore.php') ?? '';
    const context = /\$context = \[([^\]]*)\];/.exec(core)?.[1] ?? '';
    assert.deepEqual([...context.matchAll(/'([a-z_]+)' =>/g)].map((match) => match[1]), [...attemptReportMembers]);
    for (const outcome of attemptOutcomes) assert.ok(core.includes(`'${outcome}'`), outcome);
    const check = files.get('src/Internal/FieldCheck.php') ?? '';
    const keywords = [...check.matchAll(/case '([A-Za-z]+)':/g)].map((match) => match[1]).filter((keyword) => !['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'].includes(keyword ?? ''));
    assert.deepEqual(new Set(keywords), checkedKeywords);
  });

  test('the exception classes are named by the shared table of error kinds', () => {
    for (const kind of Object.keys(fixedErrorKinds) as FixedErrorKindId[]) {
      assert.ok(files.has(`src/Exception/${fixedErrorClassName(kind, 'php')}.php`), kind);
    }
    for (const response of documentedErrors(contract)) assert.equal(exceptionClassName(response.status), statusErrorClassName(response.status, 'php'));
  });

  test('one exception class per documented error, with its codes as constants', () => {
    for (const response of documentedErrors(contract)) {
      const source = files.get(`src/Exception/${exceptionClassName(response.status)}.php`) ?? '';
      for (const error of response.errorCodes) assert.ok(source.includes(`= '${error.code}';`), `${response.status} ${error.code}`);
    }
    assert.ok(files.has(`src/Exception/${exceptionClassName(contract.throttled.status)}.php`));
  });

  test('the client takes the key into a Secret before anything can throw, with no declared type a TypeError could name it by', () => {
    assert.match(client, /public function __construct\(\$siteUrl, \$apiKey, \$options = \[\]\)\n\s+\{\n\s+\$this->core = new ClientCore\(self::DESCRIPTION, \$siteUrl, Secret::take\(\$apiKey\), \$options\);\n\s+\}/);
  });
});
