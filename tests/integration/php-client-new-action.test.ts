/**
 * A ninth action added to a copy of the contract alone (as rule 9.4 lets version 1 grow) reaches
 * the generated PHP library with no hand edit: its method, its fields' checks, its PHPDoc, and
 * the package still parses as PHP 7.4 and passes `php -l`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addActions } from '../../src/bench/scaled-contract.ts';
import { methodFields, methodName } from '../../src/clients/php/client-class.ts';
import { phpPackageFiles, writePhpPackage } from '../../src/clients/php/generate.ts';
import { php74Problems } from '../../src/clients/php/php-74-syntax.ts';
import { arrayShape, arrayShapeParam, phpNamespace } from '../../src/clients/php/php-source.ts';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument } from '../../src/lib/contract/document.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bundledDocument, copyContract, type ContractCopy } from '../support/contract-copy.ts';

const newAction = 'ninth_action_for_the_test';

describe('an action added to the contract alone', () => {
  let copy: ContractCopy;
  let grown: ExecutableContract;

  before(() => {
    copy = copyContract();
    const template = readExecutableContract(bundledDocument()).model.actions.find((action) => action.transition.kind === 'fixed');
    assert.ok(template !== undefined);
    addActions(copy.directory, [{ identifier: newAction, template: template.identifier }]);
    const bundle = bundleContract(copy.directory, contractRoot, '.generated/openapi');
    grown = readExecutableContract(asOpenApiDocument(bundle.document, bundle.jsonPath));
  });

  after(() => copy?.remove());

  test('has its method in the generated client, sending its identifier, with its fields checked', () => {
    const action = grown.action(newAction);
    assert.ok(action !== undefined, 'the copy has the action');
    assert.equal(grown.model.actions.length, readExecutableContract(bundledDocument()).model.actions.length + 1);
    const client = phpPackageFiles(grown).get('src/Client.php') ?? '';
    assert.match(client, new RegExp(`public function ${methodName(action)}\\(array \\$fields\\): Result`));
    assert.ok(client.includes(`$this->send('${newAction}'`));
    assert.ok(client.includes(`'${newAction}' => [`), 'the action has its field rules');
    assert.ok(client.includes(action.title), 'the PHPDoc carries the action title');
  });

  test('the grown package parses as PHP 7.4 and passes php -l', { skip: spawnSync('php', ['--version'], { stdio: 'ignore' }).status === 0 ? false : 'php is not installed here (apt-get install -y php-cli)' }, () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'php-client-grown-'));
    try {
      const files = writePhpPackage(grown, directory).filter((file) => file.endsWith('.php'));
      const sources = phpPackageFiles(grown);
      assert.deepEqual(files.flatMap((file) => php74Problems(file, sources.get(file) ?? '')), []);
      const lint = spawnSync('php', ['-l', path.join(directory, 'src/Client.php')], { encoding: 'utf8' });
      assert.equal(lint.status, 0, `${lint.stdout}${lint.stderr}`);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('an optional field inserted before note in a copy of the contract', () => {
  let copy: ContractCopy;
  let original: ExecutableContract;
  let grown: ExecutableContract;
  const inserted = 'field_before_note_for_the_test';

  before(() => {
    original = readExecutableContract(bundledDocument());
    copy = copyContract();
    const schema = 'openapi/components/schemas/PauseSubscriptionRequest.yaml';
    copy.replace(schema, '  note:\n', `  ${inserted}:\n    type: string\n    maxLength: 40\n    description: An optional field a later release adds, before note.\n  note:\n`);
    const bundle = bundleContract(copy.directory, contractRoot, '.generated/openapi');
    grown = readExecutableContract(asOpenApiDocument(bundle.document, bundle.jsonPath));
  });

  after(() => copy?.remove());

  test('changes no method of the client or its interface, and adds the field to the array shape as optional', () => {
    const action = grown.model.actions.find((candidate) => candidate.fields.some((field) => field.name === inserted));
    assert.ok(action !== undefined, 'the copy has the field');
    const signatures = (contract: ExecutableContract, file: string) => [...(phpPackageFiles(contract).get(file) ?? '').matchAll(/public function \w+\(.*\)(?:: \w+)?/g)].map((match) => match[0]);
    for (const file of ['src/Client.php', 'src/ClientInterface.php']) assert.deepEqual(signatures(grown, file), signatures(original, file), file);
    const fields = methodFields(grown, action);
    assert.match(arrayShape(fields), new RegExp(`${inserted}\\?: string, note\\?: string\\}$`));
    assert.ok((phpPackageFiles(grown).get('src/Client.php') ?? '').includes(arrayShapeParam(fields).join('\n     * ')));
  });

  test('a call written for the last release sends its note as the note', { skip: spawnSync('php', ['--version'], { stdio: 'ignore' }).status === 0 ? false : 'php is not installed here (apt-get install -y php-cli)' }, () => {
    const action = grown.model.actions.find((candidate) => candidate.fields.some((field) => field.name === inserted));
    assert.ok(action !== undefined);
    const { subject } = grown.model.envelope;
    const directory = mkdtempSync(path.join(tmpdir(), 'php-client-grown-field-'));
    try {
      writePhpPackage(grown, directory);
      // A transport that answers success and prints what it was sent, the key left out.
      const script = `<?php
spl_autoload_register(function (string $class): void {
    $file = ${JSON.stringify(path.join(directory, 'src'))} . '/' . str_replace('\\\\', '/', substr($class, strlen(${JSON.stringify(`${phpNamespace}\\`)}))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
use ${phpNamespace}\\Transport\\Request;
use ${phpNamespace}\\Transport\\Response;
use ${phpNamespace}\\Transport\\Transport;
$transport = new class () implements Transport {
    public function send(Request $request): Response
    {
        $body = json_decode($request->body(), true);
        unset($body[${JSON.stringify(grown.model.envelope.credential)}]);
        echo json_encode($body);
        return new Response(200, ['content-type' => 'application/json'], '{}');
    }
};
$client = new ${phpNamespace}\\Client('https://shop.example', 'example-key-not-a-secret', ['transport' => $transport, 'pace' => 0]);
$client->${methodName(action)}([${JSON.stringify(subject)} => 42, 'note' => 'kept as the note']);
`;
      const file = path.join(directory, 'call.php');
      writeFileSync(file, script);
      const run = spawnSync('php', [file], { encoding: 'utf8' });
      assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
      assert.deepEqual(JSON.parse(run.stdout), { [subject]: 42, note: 'kept as the note', [grown.model.envelope.selector]: action.identifier });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
