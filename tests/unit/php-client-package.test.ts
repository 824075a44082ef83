/**
 * The generated PHP library's source: every file parses as PHP 7.4 (the floor composer.json
 * states), the check refuses newer syntax, and the names, bounds and codes come from the model.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { methodName } from '../../src/clients/php/client-class.ts';
import { documentedErrors, exceptionClassName } from '../../src/clients/php/exception-classes.ts';
import { phpPackageFiles } from '../../src/clients/php/generate.ts';
import { php74Problems } from '../../src/clients/php/php-74-syntax.ts';
import { phpFloor } from '../../src/clients/php/php-source.ts';
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

  test('one method per action of the model, each with its identifier', () => {
    for (const action of contract.model.actions) {
      assert.match(client, new RegExp(`public function ${methodName(action)}\\(`), action.identifier);
      assert.ok(client.includes(`$this->send('${action.identifier}'`), action.identifier);
    }
  });

  test('one exception class per documented error, with its codes as constants', () => {
    for (const response of documentedErrors(contract)) {
      const source = files.get(`src/Exception/${exceptionClassName(response.status)}.php`) ?? '';
      for (const error of response.errorCodes) assert.ok(source.includes(`= '${error.code}';`), `${response.status} ${error.code}`);
    }
    assert.ok(files.has(`src/Exception/${exceptionClassName(contract.throttled.status)}.php`));
  });

  test('the client shows no key when dumped, and overwrites its argument before anything can throw', () => {
    assert.match(client, /public function __debugInfo\(\): array/);
    assert.match(client, /\$this->apiKey = \$apiKey;\n\s+\/\/[^\n]*\n\s+\$apiKey = '\(not shown\)';/);
  });
});
