import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleFileName, type CodeSample, type SampleLanguage } from '../../src/lib/samples/code-samples.ts';
import type { Endpoint } from '../../src/lib/contract/model.ts';

/** What a sample printed and how it ended. */
export interface SampleRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Both streams, for assertions that do not care where a line went. */
  output: string;
  seconds: number;
}

const shim = path.join(import.meta.dirname, 'wordpress-shim.php');

interface Runner {
  command: (file: string) => [string, string[]];
  /** A command that exits 0 where the language's program (and what its samples import) is here. */
  probe: [string, string[]];
}

/** The program that runs a sample of each language (saved as `sampleFileName`). */
const runners: Record<SampleLanguage, Runner> = {
  curl: { command: (file) => ['bash', [file]], probe: ['curl', ['--version']] },
  // The project's own Node, with top-level await in an ES module, as a reader runs it.
  javascript: { command: (file) => [process.execPath, [file]], probe: [process.execPath, ['--version']] },
  python: { command: (file) => ['python3', [file]], probe: ['python3', ['-c', 'import requests']] },
  // Debian's php-cli with php-curl (`.ci/run` installs both).
  php: { command: (file) => ['php', [file]], probe: ['php', ['-r', 'exit(extension_loaded("curl") ? 0 : 1);']] },
  // The samples run inside WordPress; outside it, a shim provides the functions they call.
  wordpress: { command: (file) => ['php', ['-d', `auto_prepend_file=${shim}`, file]], probe: ['php', ['--version']] },
  // The libraries' samples run in the folder the library is installed in (`runSample`'s `directory`).
  'php-library': { command: (file) => ['php', [file]], probe: ['composer', ['--version']] },
  'typescript-library': { command: (file) => [process.execPath, [file]], probe: ['npm', ['--version']] },
  // The folder the Python library is installed in holds its virtual environment, `venv/`.
  'python-library': { command: (file) => [path.join(path.dirname(file), 'venv', 'bin', 'python'), [file]], probe: ['python3', ['-c', 'import venv, ensurepip']] },
};

/** Why a language's samples cannot run here, or false when they can. */
export function missingRunner(language: SampleLanguage): string | false {
  const [command, args] = runners[language].probe;
  return runsHere(command, args) ? false : `${command} ${args.join(' ')} fails here: ${language} samples cannot run`;
}

/**
 * The sample as a reader fills it in for a site: the example host becomes the site's host, the
 * key placeholder the site's key. The sandbox speaks plain HTTP on loopback, so the scheme of the
 * endpoint's URL is the one other change.
 */
export function fillIn(code: string, endpoint: Endpoint, site: { host: string; apiKey: string }, keyPlaceholder: string): string {
  let filled = code.replaceAll(keyPlaceholder, site.apiKey);
  for (const variable of endpoint.variables) filled = filled.replaceAll(variable.defaultValue, site.host);
  const scheme = new URL(endpoint.exampleUrl).protocol;
  return filled.replaceAll(`${scheme}//`, 'http://');
}

/**
 * Runs a sample saved in a fresh folder, or in `installed` (a folder a library is installed in,
 * which is kept) under a name of its own, so samples can run there side by side.
 */
export function runSample(sample: CodeSample, code: string, timeoutMs = 30_000, installed?: string): Promise<SampleRun> {
  const directory = installed ?? mkdtempSync(path.join(tmpdir(), `sample-${sample.language}-`));
  const runner = runners[sample.language];
  const file = path.join(directory, sampleFileName(sample.language, installed === undefined ? 'sample' : `sample-${randomUUID()}`));
  writeFileSync(file, code);
  const [command, args] = runner.command(file);
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(command, args, { cwd: directory, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      rmSync(installed === undefined ? directory : file, { recursive: true, force: true });
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ exitCode, stdout, stderr, output: `${stdout}\n${stderr}`, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** Whether `command` runs and exits 0 on this machine, so a test can skip a language it lacks. */
export function runsHere(command: string, args: readonly string[] = ['--version']): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Python with the `requests` library, which the Python samples import. */
export function pythonWithRequests(): boolean {
  return runsHere('python3', ['-c', 'import requests']);
}
