/**
 * `npm run build:clients` as docs/commands.md gives it: every client library of
 * src/clients/packages.ts packed into the folder given, each path printed; 2 on an option it does
 * not know. The PHP zip holds composer.json at its root without a version, which the site's
 * Composer repository gives each zip, and a LICENSE.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { composerPackageName } from '../../src/lib/samples/client-libraries.ts';
import { clientPackages } from '../../src/clients/packages.ts';
import { phpZipName } from '../../src/clients/php/package.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';

const out = mkdtempSync(path.join(tmpdir(), 'build-clients-'));
const script = path.join(projectDirectory, 'scripts/build-clients.ts');

describe('npm run build:clients', () => {
  after(() => rmSync(out, { recursive: true, force: true }));

  test('packs every client library into the folder given and prints each path', () => {
    const run = spawnSync(process.execPath, [script, '--out', out], { cwd: projectDirectory, encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    const files = readdirSync(out);
    // Each package prints the file a page installs from; some write more beside it (the Python sdist).
    for (const clientPackage of clientPackages) {
      const printed = new RegExp(`^${clientPackage.language}: (.+)$`, 'm').exec(run.stdout)?.[1];
      assert.ok(printed !== undefined && files.includes(path.basename(printed)), `${clientPackage.language} printed a file it wrote: ${run.stdout}`);
    }
    const zip = phpZipName(readExecutableContract(bundledDocument()).model.documentVersion);
    assert.ok(files.includes(zip), files.join(', '));
    assert.ok(run.stdout.includes(`php: ${path.join(out, zip)}`), run.stdout);
  });

  test('the PHP zip has composer.json at its root, without a version, and a LICENSE', { skip: spawnSync('php', ['--version']).status === 0 ? false : 'php is not installed here (apt-get install -y php-cli)' }, () => {
    const zip = path.join(out, phpZipName(readExecutableContract(bundledDocument()).model.documentVersion));
    const composer = spawnSync('php', ['-r', 'echo file_get_contents("phar://" . $argv[1] . "/composer.json");', zip], { encoding: 'utf8' });
    assert.equal(composer.status, 0, composer.stderr);
    const manifest = JSON.parse(composer.stdout) as { name: string; version?: string };
    assert.equal(manifest.version, undefined, 'the Composer repository gives the version');
    assert.equal(manifest.name, composerPackageName);
    const license = spawnSync('php', ['-r', 'echo file_get_contents("phar://" . $argv[1] . "/LICENSE");', zip], { encoding: 'utf8' });
    assert.equal(license.status, 0, license.stderr);
    assert.ok(license.stdout.includes(String(readExecutableContract(bundledDocument()).document.info.license?.name)), license.stdout);
  });

  test('exits 2 on an option it does not know', () => {
    const run = spawnSync(process.execPath, [script, '--colour'], { cwd: projectDirectory, encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /Usage: npm run build:clients/);
  });
});
