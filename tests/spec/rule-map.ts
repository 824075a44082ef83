import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadBundledDocument } from '../../src/lib/contract/document.ts';
import { specRules, type SpecRuleId } from '../../src/lib/spec-rules.ts';
import { readBuiltPage, type BuiltPage } from './built-page.ts';
import { contractRuleChecks } from './contract-rules.ts';
import { pageClaimCheck, pageClaims } from './page-claims.ts';
import type { CheckOutcome, RuleCheck, SpecContext } from './rule-check.ts';
import { serverRuleChecks } from './server-rules.ts';
import { siteRuleChecks } from './site-rules.ts';
import { versioningRuleChecks } from './versioning-rules.ts';

/** Every check of the rule map, in no particular order; the map groups them by rule. */
export const ruleChecks: RuleCheck[] = [
  ...contractRuleChecks,
  ...siteRuleChecks,
  ...versioningRuleChecks,
  ...serverRuleChecks,
  ...pageClaims.map(pageClaimCheck),
];

export function createSpecContext(projectDirectory: string, siteDirectory = path.join(projectDirectory, 'dist')): SpecContext {
  const pages = new Map<string, BuiltPage>();
  return {
    projectDirectory,
    siteDirectory,
    document: loadBundledDocument(path.join(projectDirectory, '.generated/openapi/v1.json')),
    page(route) {
      let page = pages.get(route);
      if (page === undefined) {
        page = readBuiltPage(siteDirectory, route);
        pages.set(route, page);
      }
      return page;
    },
    siteFile: (route) => readFileSync(path.join(siteDirectory, route), 'utf8'),
  };
}

export async function runCheck(check: RuleCheck, context: SpecContext): Promise<CheckOutcome> {
  try {
    return { check, problems: await check.run(context) };
  } catch (error) {
    // A check that cannot read what it guards has not shown the rule holds.
    return { check, problems: [`the check could not run: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

export interface RuleMap {
  rules: { id: SpecRuleId; statement: string; outcomes: CheckOutcome[] }[];
  ok: boolean;
}

export async function runRuleMap(context: SpecContext, checks: readonly RuleCheck[] = ruleChecks): Promise<RuleMap> {
  const outcomes = await Promise.all(checks.map((check) => runCheck(check, context)));
  const rules = specRules.map((rule) => ({
    id: rule.id,
    statement: rule.statement,
    outcomes: outcomes.filter((outcome) => outcome.check.rule === rule.id),
  }));
  const ok = rules.every((rule) => rule.outcomes.length > 0 && rule.outcomes.every((outcome) => outcome.problems.length === 0));
  return { rules, ok };
}

/** The map as lines: each rule, then each of its checks with pass or fail and why. */
export function formatRuleMap(map: RuleMap): string[] {
  const lines: string[] = [];
  for (const rule of map.rules) {
    const failed = rule.outcomes.filter((outcome) => outcome.problems.length > 0).length;
    const verdict = rule.outcomes.length === 0 ? 'NO CHECK' : failed > 0 ? 'FAIL' : 'pass';
    lines.push(`${rule.id.padEnd(7)} ${verdict.padEnd(8)} ${rule.statement}`);
    if (rule.outcomes.length === 0) lines.push(`          ✖ [${rule.id}] no check guards this rule`);
    for (const outcome of rule.outcomes) {
      if (outcome.problems.length === 0) lines.push(`          ✔ ${outcome.check.name}`);
      else for (const problem of outcome.problems) lines.push(`          ✖ [${rule.id}] ${problem}`);
    }
  }
  return lines;
}
