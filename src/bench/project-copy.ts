import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/** What a build or an install leaves behind; none of it is part of the project's sources. */
const notCopied = new Set(['node_modules', '.git', 'dist', '.astro', '.generated', 'test-results', 'playwright-report', 'bench-results']);

export interface ProjectCopy {
  directory: string;
  remove(): void;
}

/**
 * A copy of the project that `astro build` can build: sources and configuration copied, and a
 * `node_modules` of its own whose entries link the installed packages. Linking the folder itself
 * would share Astro's caches with the project; and the copy lives in the project's ignored
 * `.generated/`, since Vite treats a linked package as part of the project only when the two
 * share a folder other than `/`, which a copy in the system's temporary folder would not.
 */
export function copyBuildableProject(projectDirectory: string, prefix: string): ProjectCopy {
  const parent = path.join(projectDirectory, '.generated');
  mkdirSync(parent, { recursive: true });
  const directory = mkdtempSync(path.join(parent, prefix));
  for (const entry of readdirSync(projectDirectory)) {
    if (!notCopied.has(entry)) cpSync(path.join(projectDirectory, entry), path.join(directory, entry), { recursive: true });
  }
  const installed = path.join(projectDirectory, 'node_modules');
  mkdirSync(path.join(directory, 'node_modules'));
  for (const entry of readdirSync(installed)) {
    if (entry !== '.astro' && entry !== '.vite') symlinkSync(path.join(installed, entry), path.join(directory, 'node_modules', entry));
  }
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
