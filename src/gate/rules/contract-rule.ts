import type { ContractParts } from '../../lib/contract/contract-parts.ts';
import type { ReportProblem } from '../../lib/contract/problems.ts';
import type { SpecRuleId } from '../../lib/spec-rules.ts';

/**
 * One rule of the interface specification the gate holds the contract to, in a file of its own
 * named after it (as Redocly's rules are). A rule reads the parts of the contract the model read
 * once, and reports each problem with the JSON pointer it is at; the gate names the file and line.
 * A rule that Redocly's assertions can express lives in `redocly.yaml` instead, not here.
 */
export interface ContractRule {
  /** The rule's name, as printed between brackets (`single-endpoint: rule 1.2, 4.1b`). */
  name: string;
  /** What the rule enforces, in a sentence. */
  rule: string;
  /**
   * The rules of the specification it guards (src/lib/spec-rules.ts). A rule that guards a
   * decision recorded in openapi/README.md rather than a rule of the specification has none.
   */
  rules: readonly SpecRuleId[];
  check(parts: ContractParts, report: ReportProblem): void;
}

/** The identifiers, each in double quotes, for a message. */
export function quoteList(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(', ');
}
