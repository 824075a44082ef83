/**
 * The gate's contract rules: one file each under `rules/`, run over the parts of the contract
 * that the model reads once. Rules that Redocly's assertions can express (POST only, JSON only,
 * the credential in the body only, the 429 with Retry-After) live in `redocly.yaml` instead, and
 * the Redocly lint step reports them.
 */
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { ruleLabel } from '../lib/spec-rules.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { createSourceLocator } from './source-files.ts';
import { apiKeyInBodyRule } from './rules/api-key-in-body.ts';
import { contractPartsOf, type ContractRule } from './rules/contract-rule.ts';
import { descriptionsRule } from './rules/descriptions.ts';
import { eightActionsRule } from './rules/eight-actions.ts';
import { placeholderApiKeyRule } from './rules/placeholder-api-key.ts';
import { requestExamplesRule } from './rules/request-examples.ts';
import { singleEndpointRule } from './rules/single-endpoint.ts';
import { siteVariableRule } from './rules/site-variable.ts';
import { tolerantReaderRule } from './rules/tolerant-reader.ts';
import { transitionTableRule } from './rules/transition-table.ts';

export type { ContractRule };
export { specifiedActions } from './rules/eight-actions.ts';
export { isReservedExampleHost } from './rules/site-variable.ts';

/** Every contract rule, in the order of the specification's sections. */
export const contractRules: readonly ContractRule[] = [
  singleEndpointRule,
  siteVariableRule,
  eightActionsRule,
  apiKeyInBodyRule,
  requestExamplesRule,
  placeholderApiKeyRule,
  transitionTableRule,
  tolerantReaderRule,
  descriptionsRule,
];

/** Something a rule found, at a JSON pointer of the bundled document. */
export interface Finding {
  pointer: string;
  message: string;
  rule: ContractRule;
}

/** How a problem names its rule: `single-endpoint: rule 1.2, 4.1b`, or the bare name. */
export function ruleName(rule: ContractRule): string {
  return rule.rules.length === 0 ? rule.name : `${rule.name}: ${ruleLabel(rule.rules)}`;
}

/** Runs the rules over a bundled document, read once; findings keep the pointer, not yet the file. */
export function runContractRules(document: OpenApiDocument, rules: readonly ContractRule[] = contractRules): Finding[] {
  const parts = contractPartsOf(document);
  const findings: Finding[] = [];
  for (const rule of rules) {
    try {
      rule.check(parts, ({ message, location }) => findings.push({ pointer: location, message, rule }));
    } catch (error) {
      // A document too broken for a rule to read is itself a failure of that rule.
      findings.push({ pointer: '#', message: `The rule could not read the document: ${(error as Error).message}`, rule });
    }
  }
  return findings;
}

/** The gate step: the rules above, each finding tied to the source file to open. */
export const contractRulesStep: GateStep = {
  name: 'contract checks',
  run(context: GateContext): GateProblem[] {
    const locate = createSourceLocator(context.projectDirectory, context.root);
    return runContractRules(context.document).map((finding) => ({
      ...locate(finding.pointer),
      message: finding.message,
      rule: ruleName(finding.rule),
    }));
  },
};
