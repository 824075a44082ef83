import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument } from '../../lib/contract/document.ts';
import { locateEndpoint } from '../../lib/contract/endpoint.ts';
import { listedActionNames } from '../../lib/contract/extensible-enum.ts';
import type { Located } from '../../lib/contract/located.ts';
import type { ReportProblem } from '../../lib/contract/problems.ts';
import { locateRequest, type RequestParts } from '../../lib/contract/request-body.ts';
import type { SpecRuleId } from '../../lib/spec-rules.ts';

/**
 * What a rule looks at: the parts of the contract as the model's own readers find them before
 * they check them (`locateEndpoint`, `locateRequest`), each with its pointer, whatever is broken.
 */
export interface ContractParts extends RequestParts {
  document: OpenApiDocument;
  /** The POST operation of the endpoint's path: `/action` when it is there, otherwise the first path. */
  operation: Located<OpenAPIV3_1.OperationObject> | undefined;
  /** The action identifiers `ActionName` lists, as an extensible enum or a closed one. */
  listedActionNames: string[] | undefined;
}

/** Reads the parts once, through the model's readers, for every rule. */
export function contractPartsOf(document: OpenApiDocument): ContractParts {
  const { operation } = locateEndpoint(document);
  return { document, operation, ...locateRequest(document, operation), listedActionNames: listedActionNames(document.components) };
}

/**
 * One rule of the interface specification the gate holds the contract to, in a file of its own
 * named after it (as Redocly's rules are). A rule reads the parts of the contract the model reads,
 * and reports each problem with the JSON pointer it is at; the gate names the file and line.
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
