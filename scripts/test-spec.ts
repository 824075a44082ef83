/**
 * `npm run test:spec`: the rule map. Runs the checks of every rule of the interface
 * specification (src/lib/spec-rules.ts) against the contract, the sources and the built site, and
 * prints each rule with its checks. Builds first when `dist/` is missing or older than a source.
 * Exits 1 when a check fails or a rule has no check.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createSpecContext, formatRuleMap, runRuleMap } from '../tests/spec/rule-map.ts';
import { closeObservedServer } from '../tests/spec/server-rules.ts';

const projectDirectory = path.resolve(import.meta.dirname, '..');
const builtMarker = path.join(projectDirectory, 'dist/index.html');
const bundle = path.join(projectDirectory, '.generated/openapi/v1.json');
const sources = ['src', 'openapi', 'public', 'product', 'astro.config.mjs', 'package.json', 'redocly.yaml'];

function newestModification(target: string): number {
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => Math.max(newest, newestModification(path.join(target, entry))), stats.mtimeMs);
}

function builtSiteIsCurrent(): boolean {
  if (!existsSync(builtMarker) || !existsSync(bundle)) return false;
  const built = statSync(builtMarker).mtimeMs;
  return sources.every((source) => {
    const absolute = path.join(projectDirectory, source);
    return !existsSync(absolute) || newestModification(absolute) <= built;
  });
}

if (!builtSiteIsCurrent()) {
  console.log('dist/ is missing or older than the sources: building first (npm run build).');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: projectDirectory, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    console.error('✖ The build failed, so the rules cannot be checked against the built site; run `npm run build` to see why.');
    process.exit(1);
  }
}

const map = await runRuleMap(createSpecContext(projectDirectory));
await closeObservedServer();
for (const line of formatRuleMap(map)) console.log(line);
const checks = map.rules.reduce((count, rule) => count + rule.outcomes.length, 0);
const failing = map.rules.filter((rule) => rule.outcomes.length === 0 || rule.outcomes.some((outcome) => outcome.problems.length > 0));
console.log(
  map.ok
    ? `✔ All ${map.rules.length} rules of the specification hold (${checks} checks).`
    : `✖ ${failing.length} of ${map.rules.length} rules are broken or unguarded: ${failing.map((rule) => rule.id).join(', ')}.`,
);
process.exitCode = map.ok ? 0 : 1;
