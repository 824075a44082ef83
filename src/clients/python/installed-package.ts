/**
 * The Python library as a reader gets it: packed into a wheel, and installed with pip from the
 * wheel alone (`--no-index`) into a fresh virtual environment. The tests run it from there, never
 * from the generator's output folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { packPythonClient } from './package.ts';

export interface InstalledPythonClient {
  /** The wheel pip installed, and the sdist packed beside it. */
  wheel: string;
  sdist: string;
  /** The virtual environment's own Python, with the package installed. */
  python: string;
  remove(): void;
}

/**
 * Creates a virtual environment with `python3 -m venv` and installs `archive` (the wheel or the
 * sdist, a path or a URL) into it with pip, offline: no index, so nothing but the archive and what
 * the fresh environment holds is used. Returns the environment's Python.
 */
export function installWithPip(archive: string, into: string): string {
  execFileSync('python3', ['-m', 'venv', into], { stdio: ['ignore', 'pipe', 'pipe'] });
  const python = path.join(into, 'bin', 'python');
  execFileSync(python, ['-m', 'pip', 'install', '--no-index', '--disable-pip-version-check', '--no-cache-dir', '--quiet', archive], { stdio: ['ignore', 'pipe', 'pipe'] });
  return python;
}

/** Packs the library of `contract` and installs its wheel into a fresh virtual environment. */
export function installPythonClient(contract: ExecutableContract): InstalledPythonClient {
  const work = mkdtempSync(path.join(tmpdir(), 'python-client-'));
  const { wheel, sdist } = packPythonClient(contract, path.join(work, 'packed'));
  const python = installWithPip(wheel, path.join(work, 'venv'));
  return { wheel, sdist, python, remove: () => rmSync(work, { recursive: true, force: true }) };
}
