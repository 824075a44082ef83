/**
 * The built site, built when it is missing or older than a source: the rule map checks it, and the
 * product-information server answers from the pages it holds (llms.txt, llms-full.txt).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { alive, pidFrom } from '../lib/local-servers.ts';

const sources = ['src', 'openapi', 'public', 'product', 'astro.config.mjs', 'ec.config.mjs', 'package.json', 'package-lock.json', 'redocly.yaml', 'tsconfig.json'];

function newestModification(target: string): number {
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => Math.max(newest, newestModification(path.join(target, entry))), stats.mtimeMs);
}

export function builtSiteIsCurrent(projectDirectory: string): boolean {
  const builtMarker = path.join(projectDirectory, 'dist/index.html');
  if (!existsSync(builtMarker) || !existsSync(path.join(projectDirectory, '.generated/openapi/v1.json'))) return false;
  const built = statSync(builtMarker).mtimeMs;
  return sources.every((source) => {
    const absolute = path.join(projectDirectory, source);
    return !existsSync(absolute) || newestModification(absolute) <= built;
  });
}

/**
 * Runs `npm run build` unless `dist/` is current; throws when the build fails. Test files run in
 * parallel processes, so one builds while the others wait for its lock and then find `dist/` current.
 * A lock whose process has ended (a build that was killed) is taken over rather than waited on.
 */
export function ensureBuiltSite(projectDirectory: string, say: (line: string) => void = console.log): void {
  const lock = path.join(projectDirectory, '.generated/build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    if (builtSiteIsCurrent(projectDirectory)) return;
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const owner = pidFrom(path.join(lock, 'pid'));
      if (owner !== undefined && !alive(owner)) {
        say(`the build lock of process ${owner}, which has ended, is removed`);
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    if (builtSiteIsCurrent(projectDirectory)) return;
    say('dist/ is missing or older than the sources: building first (npm run build).');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: projectDirectory, stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
