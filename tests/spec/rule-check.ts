import type { OpenApiDocument } from '../../src/lib/contract/document.ts';
import type { SpecRuleId } from '../../src/lib/spec-rules.ts';
import type { BuiltPage } from './built-page.ts';

/** What every check of the rule map may look at: the project, its contract and its built site. */
export interface SpecContext {
  projectDirectory: string;
  /** The built site (`dist/`). */
  siteDirectory: string;
  /** The bundled contract the site was built from. */
  document: OpenApiDocument;
  /** A built page by its route (`/authentication/`), read once. */
  page(route: string): BuiltPage;
  /** Text of a file of the built site, by its route. */
  siteFile(route: string): string;
}

/**
 * One check of one rule. `name` says what holds while the rule is kept; `run` returns one
 * sentence per way the rule is broken, empty when it holds. The runner prefixes each with the
 * rule id, so a failure reads `[5.3] the authentication guide no longer says ...`.
 */
export interface RuleCheck {
  rule: SpecRuleId;
  name: string;
  run(context: SpecContext): string[] | Promise<string[]>;
}

export interface CheckOutcome {
  check: RuleCheck;
  problems: string[];
}
