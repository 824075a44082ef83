/**
 * The public surface of the Python library, read from its generated files by Python's own `ast`
 * (surface_reader.py beside this file, run with the machine's `python3`): every name the package
 * exports, each class's ancestors, methods with each parameter's name, kind, annotation and
 * default, properties and public attributes, each TypedDict's keys with whether they are required
 * and their types. The files are parsed, never imported, so reading needs no virtual environment.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { PythonSurface } from './surface.ts';

/** Python is not on this machine, so the Python library's surface cannot be read. */
export class PythonUnavailableError extends Error {
  override name = 'PythonUnavailableError';
}

const reader = path.join(import.meta.dirname, 'surface_reader.py');

/** The program the surface is read with: `python3`, Debian's (`.ci/run` installs it with python3-venv). */
export const pythonCommand = 'python3';

/** Reads the surface of the import package in `packageFolder` (the folder holding its `__init__.py`). */
export function pythonSurface(packageFolder: string, python = pythonCommand): PythonSurface {
  let output: string;
  try {
    output = execFileSync(python, [reader, packageFolder], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new PythonUnavailableError(`${python} is not installed here, so the Python library's public surface cannot be read and held against the release's record. Install it (on Debian: apt-get install -y python3) and run again.`);
    }
    const said = (failure.stderr ?? '').trim().split('\n').at(-1) ?? '';
    throw new Error(`Reading the Python library's surface with ${python} failed: ${said || failure.message}`);
  }
  return JSON.parse(output) as PythonSurface;
}
