/**
 * Every PHP sample and client the site shows or ships runs on the PHP the pages promise
 * (src/lib/samples/php-floor.ts): parsed at that version, with nothing a later PHP brought, by the
 * one checker the packing of the library uses (src/clients/php/php-74-syntax.ts).
 */
import assert from 'node:assert/strict';
import { globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { writePhpPackage } from '../../src/clients/php/generate.ts';
import { phpNewerThan } from '../../src/clients/php/php-74-syntax.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { codeSamples } from '../../src/lib/samples/code-samples.ts';
import { phpFloor, phpFloorPhrase } from '../../src/lib/samples/php-floor.ts';
import { retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');

/** The PHP files of the library as packing writes them into the zip, generated from the contract now. */
function packedLibrary(): { name: string; code: string }[] {
  const staging = mkdtempSync(path.join(tmpdir(), 'php-floor-package-'));
  try {
    return writePhpPackage(readExecutableContract(bundledDocument()), staging)
      .filter((file) => file.endsWith('.php'))
      .map((file) => ({ name: `package/${file}`, code: readFileSync(path.join(staging, file), 'utf8') }));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Every PHP program the site shows or ships: each action's PHP and WordPress samples, the
 * retrying client, the packed library's files and any PHP source kept under src/clients/php/.
 */
function phpPrograms(): { name: string; code: string }[] {
  const model = readReferenceModel(bundledDocument());
  const statuses = sampleStatuses(model.responses);
  const [first] = model.actions;
  assert.ok(first, 'the contract has an action');
  const samples = model.actions.flatMap((action) =>
    codeSamples(model.endpoint, action.requestExample.value, statuses, { envelope: model.envelope, fields: action.fields })
      .filter((sample) => sample.highlight === 'php')
      .map((sample) => ({ name: `${action.identifier}.${sample.language}.php`, code: sample.code })),
  );
  const clients = retryingClientSamples(model.endpoint, statuses, first.requestExample.value)
    .filter((sample) => sample.highlight === 'php')
    .map((sample) => ({ name: `retrying-client.${sample.language}.php`, code: sample.code }));
  const sources = globSync('src/clients/php/**/*.php', { cwd: projectDirectory }).map((file) => ({ name: file, code: readFileSync(path.join(projectDirectory, file), 'utf8') }));
  return [...samples, ...clients, ...packedLibrary(), ...sources];
}

describe(`every PHP sample and client runs on ${phpFloorPhrase}`, () => {
  test(`each parses as PHP ${phpFloor.version}, with nothing a later PHP brought`, () => {
    const programs = phpPrograms();
    assert.ok(programs.some((program) => program.name.startsWith('retrying-client')), 'the retrying client is among them');
    assert.ok(programs.some((program) => program.name === 'package/src/Client.php'), "the packed library's client is among them");
    assert.deepEqual(programs.flatMap((program) => phpNewerThan(program.code, program.name)), []);
  });

  test('the plain-PHP samples say which PHP they need where a reader copies them', () => {
    const plain = phpPrograms().filter((program) => program.name.endsWith('.php.php'));
    assert.ok(plain.length > 0);
    for (const program of plain) assert.match(program.code, new RegExp(`^// Plain ${phpFloorPhrase} with`, 'm'), program.name);
  });
});

describe(`the check refuses what PHP ${phpFloor.version} cannot run`, () => {
  const newer: [string, string, RegExp][] = [
    ['a readonly property', '<?php final class E { public readonly int $status; }', /readonly property \(PHP 8\.1\)/],
    ['the mixed type', '<?php final class E { public mixed $data; }', /the type mixed \(PHP 8\.0\)/],
    ['a union return type', '<?php function attempt(): array|string { return ""; }', /union type \(PHP 8\.0\)/],
    ['a promoted constructor parameter', '<?php final class C { public function __construct(private string $url) {} }', /promoted constructor parameter/],
    ['a match expression', '<?php $wait = match ($status) { 429 => 1, default => 2 };', /not PHP 7\.4/],
    ['a nullsafe call', '<?php $type = $response?->type;', /not PHP 7\.4/],
    ['a named argument', '<?php json_encode(value: $body);', /not PHP 7\.4/],
    ['throw as an expression', '<?php $wait = $asked ?? throw new RuntimeException("no");', /not PHP 7\.4/],
    ['a catch without a variable', '<?php try { send(); } catch (RuntimeException) { }', /not PHP 7\.4/],
    ['an enum', '<?php enum Status { case Active; }', /not PHP 7\.4/],
    ['a function PHP 8 added', '<?php if (str_starts_with($type, "application/json")) {}', /str_starts_with\(\) \(PHP 8\.0\)/],
    ['::class on an object', '<?php $name = $error::class;', /::class on an object \(PHP 8\.0\)/],
    ['a static return type', '<?php final class C { public function with(): static { return $this; } }', /the type static \(PHP 8\.0\)/],
  ];
  for (const [feature, code, expected] of newer) {
    test(feature, () => {
      const problems = phpNewerThan(code, 'newer.php');
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', expected);
      assert.match(problems[0] ?? '', /^newer\.php:\d+: /);
    });
  }

  test(`what PHP ${phpFloor.version} has passes: typed properties, arrow functions, ??=, nullable and void types, list destructuring, Name::class`, () => {
    const code = `<?php
final class Client {
    private ?string $url = null;
    private float $not_before = 0.0;
    public function send( array $body ): ?array {
        $this->url ??= 'http://127.0.0.1';
        [ $status, $text ] = array( 200, '{}' );
        $double = fn( int $x ): int => $x * 2;
        $name = RuntimeException::class;
        return 200 === $status ? json_decode( $text, true ) : null;
    }
    private function wait(): void {}
}
`;
    assert.deepEqual(phpNewerThan(code, 'floor.php'), []);
  });

  test('a later floor lets a later feature through', () => {
    assert.deepEqual(phpNewerThan('<?php final class E { public readonly int $status; }', 'e.php', '8.1'), []);
  });
});
