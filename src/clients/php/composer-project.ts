/**
 * A Composer project that uses the PHP library from the site's zip, as the page installs it: the
 * zip unpacked with PHP's own Phar extension (Composer's `artifact` repository would need ext-zip),
 * then required from a `path` repository, offline, with Packagist switched off. The tests and the
 * benchmark build theirs this way.
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
export function installPackage(repository: { type: 'path' | 'artifact'; url: string }, packageName: string, version: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'php-client-project-'));
  const home = path.join(directory, '.composer-home');
  mkdirSync(home);
  writeFileSync(
    path.join(directory, 'composer.json'),
    JSON.stringify({ require: { [packageName]: version }, repositories: [{ ...repository, ...(repository.type === 'path' ? { options: { symlink: false } } : {}) }, { 'packagist.org': false }] }, null, 2),
  );
  const run = spawnSync('composer', ['install', '--no-interaction', '--no-progress'], {
    cwd: directory,
    encoding: 'utf8',
    env: { ...process.env, COMPOSER_HOME: home, COMPOSER_DISABLE_NETWORK: '1', COMPOSER_NO_INTERACTION: '1' },
  });
  if (run.status !== 0) throw new Error(`composer install refused the package:\n${run.stdout}${run.stderr}`);
  return directory;
}
