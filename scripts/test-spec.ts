/**
 * `npm run test:spec`: the rule map. Runs the checks of every rule of the interface
 * specification (src/lib/spec-rules.ts) against the contract, the sources and the built site, and
 * prints each rule with its checks. Builds first when `dist/` is missing or older than a source.
 * Exits 1 when a check fails or a rule has no check.
 */
import path from 'node:path';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { createSpecContext, formatRuleMap, runRuleMap } from '../tests/spec/rule-map.ts';
import { closeObservedServer } from '../tests/spec/server-rules.ts';
import { scriptArguments } from './script-options.ts';

scriptArguments('Usage: npm run test:spec (no options; builds first when dist/ is stale)', {});

const projectDirectory = path.resolve(import.meta.dirname, '..');

try {
  ensureBuiltSite(projectDirectory);
} catch {
  console.error('✖ The build failed, so the rules cannot be checked against the built site; run `npm run build` to see why.');
  process.exit(1);
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
