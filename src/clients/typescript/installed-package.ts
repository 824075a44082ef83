/**
 * The TypeScript client as a reader gets it: built from a contract, packed by `npm pack`, and
 * installed from the tarball into an empty folder with npm. The tests and the benchmark import it
 * from there, never from the generator's sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { typescriptClientPackageName } from './generate.ts';
import { packTypescriptClient } from './package.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';

export interface InstalledClient {
  /** The folder the tarball was installed into, with its package.json. */
  folder: string;
  tarball: string;
  /** The installed package's folder under node_modules. */
  packageDirectory: string;
  /** The package's entry, for `import()`. */
  entryUrl: string;
  remove(): void;
}

/** Builds and packs the client of `contract`, and installs the tarball into a fresh folder with `npm install`. */
export function installTypescriptClient(contract: ExecutableContract): InstalledClient {
  const work = mkdtempSync(path.join(tmpdir(), 'typescript-client-'));
  const tarball = packTypescriptClient(contract, path.join(work, 'packed'), { packageDirectory: path.join(work, 'package') });
  const folder = path.join(work, 'consumer');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
  const packageDirectory = path.join(folder, 'node_modules', ...typescriptClientPackageName.split('/'));
  return {
    folder,
    tarball,
    packageDirectory,
    entryUrl: pathToFileURL(path.join(packageDirectory, 'dist/index.js')).href,
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}
