import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectDirectory } from './contract-copy.ts';

export interface LintRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `scripts/lint.ts` as `npm run lint` runs it: a child process of the project's own Node (`process.execPath`), in the project. */
export function runLint(...args: string[]): LintRun {
  const run = spawnSync(process.execPath, [path.join(projectDirectory, 'scripts/lint.ts'), ...args], { encoding: 'utf8', cwd: projectDirectory });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
