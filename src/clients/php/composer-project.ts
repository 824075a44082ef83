/**
 * A Composer project that uses the PHP library from the site's zip: the zip unpacked with PHP's own
 * Phar extension, then required from a `path` repository that names its version (the package's
 * composer.json carries none: the site's Composer repository gives it), offline, with Packagist
 * switched off. The tests and the benchmark build theirs this way; the page's own commands, through
 * the site's Composer repository, are run by tests/integration/composer-repository.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Unpacks a zip with PHP alone and returns the folder. */
export function unpackZip(zip: string, directory: string): string {
  const run = spawnSync('php', ['-r', '(new PharData($argv[1]))->extractTo($argv[2]);', zip, directory], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`PHP could not unpack ${zip}:\n${run.stdout}${run.stderr}`);
  return directory;
}

/** A project requiring `packageName` at `version` from `repository`, installed without the network; returns its folder. */
export function installPackage(repository: { type: 'path'; url: string }, packageName: string, version: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'php-client-project-'));
  const home = path.join(directory, '.composer-home');
  mkdirSync(home);
  writeFileSync(
    path.join(directory, 'composer.json'),
    JSON.stringify({ require: { [packageName]: version }, repositories: [{ ...repository, options: { symlink: false, versions: { [packageName]: version } } }, { 'packagist.org': false }] }, null, 2),
  );
  const run = spawnSync('composer', ['install', '--no-interaction', '--no-progress'], {
    cwd: directory,
    encoding: 'utf8',
    env: { ...process.env, COMPOSER_HOME: home, COMPOSER_DISABLE_NETWORK: '1', COMPOSER_NO_INTERACTION: '1' },
  });
  if (run.status !== 0) throw new Error(`composer install refused the package:\n${run.stdout}${run.stderr}`);
  return directory;
}
