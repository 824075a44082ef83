/**
 * A ninth action added to a copy of the contract alone (as rule 9.4 lets version 1 grow) reaches
 * the generated PHP library with no hand edit: its method, its fields' checks, its PHPDoc, and
 * the package still parses as PHP 7.4 and passes `php -l`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addActions } from '../../src/bench/scaled-contract.ts';
import { methodName } from '../../src/clients/php/client-class.ts';
import { phpPackageFiles, writePhpPackage } from '../../src/clients/php/generate.ts';
import { php74Problems } from '../../src/clients/php/php-74-syntax.ts';
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
    assert.match(client, new RegExp(`public function ${methodName(action)}\\(int \\$`));
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
