import type { OpenApiDocument } from '../lib/contract/document.ts';

/** One thing wrong with the contract, tied to the file a maintainer has to open. */
export interface GateProblem {
  /** Path of the offending file, relative to the project (e.g. `openapi/paths/action.yaml`). */
  file: string;
  /** What is wrong, in a sentence. */
  message: string;
  /** Line in `file` (1-based), when the tool that found the problem knows it. */
  line?: number;
  /**
   * The rule broken, as printed between brackets after the message: a check with the ids of
   * src/lib/spec-rules.ts (`post-only: rule 4.1a, 4.1-r1`) or a tool's rule
   * (`Redocly rule no-invalid-media-type-examples`). Every step of the gate sets it.
   */
  rule?: string;
  /**
   * What is wrong, without the words a step put before it to name the place: two steps that
   * find one problem at one place are printed once, however each names the place.
   */
  cause?: string;
}

/** A problem as `npm run lint` and `npm run build` print it: `file: line N: message [rule]`. */
export function formatGateProblem(problem: GateProblem): string {
  const where = problem.line === undefined ? '' : `line ${problem.line}: `;
  const rule = problem.rule === undefined ? '' : ` [${problem.rule}]`;
  return `${problem.file}: ${where}${problem.message}${rule}`;
}

/** What every step of `npm run lint` gets to look at. */
export interface GateContext {
  /** The project being checked: the repository itself, or a copy made by a test. */
  projectDirectory: string;
  /** The contract's root file, relative to `projectDirectory`. */
  root: string;
  /** The bundled document, produced by Redocly's bundler from `root`. */
  document: OpenApiDocument;
  /** Absolute path of the bundled JSON that `document` was read from. */
  bundlePath: string;
  /**
   * Output format the user asked for (`stylish`, `github-actions`). The gate prints every
   * step's problems itself in that format, so a step only needs it to shape its messages.
   */
  format: string;
}

/** A named step of the gate. Steps run in order; all problems are reported together. */
export interface GateStep {
  name: string;
  run(context: GateContext): GateProblem[] | Promise<GateProblem[]>;
}
