import { execFile, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { redoclyInvocation } from '../lib/contract/bundle.ts';
import { isRecord, type OpenApiDocument } from '../lib/contract/document.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { yamlSyntaxRule } from './yaml-hints.ts';

/** The API's name in `redocly.yaml`; Redocly reads its root and its rules from there. */
export const redoclyApiName = 'service@v1';

/**
 * Makes Redocly's text read the same on every machine: absolute paths inside the project
 * (Redocly quotes them when a `$ref` cannot be read) become project-relative.
 */
export function withoutProjectDirectory(text: string, projectDirectory: string): string {
  return text.replaceAll(`${path.resolve(projectDirectory)}${path.sep}`, '');
}

interface RedoclyLocation {
  source: { ref: string };
  start?: { line: number };
  pointer?: string;
}

interface RedoclyProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: RedoclyLocation[];
}

function isRedoclyProblem(value: unknown): value is RedoclyProblem {
  return (
    isRecord(value) &&
    typeof value.ruleId === 'string' &&
    typeof value.severity === 'string' &&
    typeof value.message === 'string' &&
    Array.isArray(value.location) &&
    value.location.every((location) => isRecord(location) && isRecord(location.source) && typeof location.source.ref === 'string')
  );
}

/** Reads the problems out of `redocly lint --format=json`; `undefined` if the report is not that. */
export function parseRedoclyReport(report: string): RedoclyProblem[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(report);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.problems)) return undefined;
  return parsed.problems.filter(isRedoclyProblem);
}

function toGateProblem(problem: RedoclyProblem, projectDirectory: string): GateProblem {
  const location = problem.location[0];
  const source = location?.source.ref ?? '';
  const file = path.isAbsolute(source) ? path.relative(projectDirectory, source) : source;
  const message = withoutProjectDirectory(problem.message, projectDirectory);
  const line = location?.start?.line;
  const rule = `Redocly rule ${problem.ruleId}`;
  return typeof line === 'number' ? { file, message, line, rule } : { file, message, rule };
}

const unparsable = /^Failed to parse: (.+)$/s;
const unresolvable = /^Can't resolve \$ref: (.+)$/s;

/**
 * One cause, one problem. A file that is not valid YAML makes Redocly report it once for every
 * `$ref` that reaches it, and again as a `$ref` it cannot resolve from every file that points at
 * it: a single missing bracket became "16 problems in 9 files". This keeps one problem per
 * unreadable file, at the line of the syntax error, and drops the echoes (an example that cannot
 * be validated because of a $ref that cannot be resolved is one too).
 */
export function oneProblemPerCause(problems: readonly GateProblem[]): GateProblem[] {
  const causes = new Map<string, { problem: GateProblem; references: number }>();
  for (const problem of problems) {
    const cause = unparsable.exec(problem.message)?.[1];
    if (cause !== undefined && !causes.has(cause)) causes.set(cause, { problem, references: 0 });
  }
  // An example that cannot be validated because a $ref cannot be resolved echoes that $ref.
  const anyUnresolvable = problems.some((problem) => unresolvable.test(problem.message) || unparsable.test(problem.message));
  const seen = new Set<string>();
  const kept: GateProblem[] = [];
  for (const problem of problems) {
    if (anyUnresolvable && /^Example validation errored: can't resolve reference /.test(problem.message)) continue;
    const echo = unresolvable.exec(problem.message)?.[1] ?? unparsable.exec(problem.message)?.[1];
    const cause = echo === undefined ? undefined : causes.get(echo);
    if (cause !== undefined) {
      if (unresolvable.test(problem.message)) cause.references += 1;
      if (cause.problem !== problem) continue;
    }
    const key = `${problem.file}\u0000${problem.line ?? ''}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(problem);
  }
  return kept.map((problem) => {
    const cause = unparsable.exec(problem.message)?.[1];
    const found = cause === undefined ? undefined : causes.get(cause);
    if (cause === undefined || found === undefined) return problem;
    const what = cause.replace(/ in "[^"]*" \((\d+):(\d+)\)\s*$/, ' at line $1, column $2');
    const references = found.references === 0 ? '' : ` (${found.references} $ref${found.references === 1 ? ' leads' : 's lead'} here, so nothing else could be checked)`;
    return { ...problem, message: `This file is not valid YAML: ${what}${references}.`, rule: yamlSyntaxRule };
  });
}

/** The problems of a finished `redocly lint` run, from its exit code and its output. */
export function lintProblems(
  outcome: { exitCode: number; stdout: string; stderr: string },
  projectDirectory: string,
  root: string,
): GateProblem[] {
  if (outcome.exitCode === 0) return [];
  const problems = parseRedoclyReport(outcome.stdout);
  if (problems === undefined) {
    // Redocly stopped before linting (for example a broken `redocly.yaml`): pass on its words.
    const words = withoutProjectDirectory(`${outcome.stderr}${outcome.stdout}`.trim(), projectDirectory);
    return [{ file: 'redocly.yaml', message: `redocly lint could not run: ${words || `exit code ${outcome.exitCode}`}`, rule: 'Redocly configuration' }];
  }
  // Redocly repeats a problem once for every place that reaches it; one report is enough.
  const gateProblems = oneProblemPerCause(
    problems.filter((candidate) => candidate.severity === 'error').map((problem) => toGateProblem(problem, projectDirectory)),
  );
  if (gateProblems.length === 0) {
    return [{ file: root, message: `redocly lint failed (exit code ${outcome.exitCode}) without naming a problem.`, rule: 'Redocly lint' }];
  }
  return gateProblems;
}

/** A `redocly lint` run under way. */
export interface RedoclyLintRun {
  problems: Promise<GateProblem[]>;
  /** Stops the run when its report is no longer wanted; `problems` then never matters. */
  cancel(): void;
}

/**
 * Starts the real `redocly lint` in the background, with the rules of the project's
 * `redocly.yaml` (the `recommended-strict` ruleset plus the configurable rules written for the
 * interface specification). `runRedocly` would block until Redocly ends; this one lets the gate
 * bundle at the same time, since the lint reads the source files and not the bundle.
 *
 * Redocly is asked for its JSON report whatever format the user chose: the gate prints every
 * step's problems itself, one list in one format, and JSON is the only one of Redocly's formats
 * that gives each problem's file, line and rule without scraping text.
 */
export function startRedoclyLint(projectDirectory: string, root: string): RedoclyLintRun {
  const { file, args, options } = redoclyInvocation(
    ['lint', redoclyApiName, '--lint-config=error', '--format=json', '--max-problems=1000'],
    projectDirectory,
  );
  let child: ChildProcess | undefined;
  const problems = new Promise<GateProblem[]>((resolve) => {
    child = execFile(
      file,
      args,
      { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        const outcome = { exitCode, stdout, stderr: error !== null && stderr === '' ? error.message : stderr };
        resolve(lintProblems(outcome, projectDirectory, root));
      },
    );
  });
  return { problems, cancel: () => child?.kill() };
}

/** Step (a) of the gate: Redocly's own lint of the source files. */
export const redoclyLintStep: GateStep = {
  name: 'Redocly lint',
  run: (context: GateContext) => startRedoclyLint(context.projectDirectory, context.root).problems,
};

/** A problem Redocly found in a bundled document, at a JSON pointer of it. */
export interface RedoclyFinding {
  ruleId: string;
  message: string;
  pointer: string;
}

/**
 * Lints a bundled document (not the source files) with the project's `redocly.yaml`: how the
 * rule map proves that a rule living only in `redocly.yaml` still fails when the contract breaks
 * it, without writing the broken contract back into `openapi/`.
 */
export function lintBundledDocument(document: OpenApiDocument, projectDirectory: string): RedoclyFinding[] {
  const directory = mkdtempSync(path.join(tmpdir(), 'redocly-lint-'));
  try {
    const file = path.join(directory, 'bundle.json');
    writeFileSync(file, JSON.stringify(document));
    const config = path.join(path.resolve(projectDirectory), 'redocly.yaml');
    const { file: node, args, options } = redoclyInvocation(['lint', file, `--config=${config}`, '--format=json', '--max-problems=1000'], projectDirectory);
    const run = spawnSync(node, args, { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const problems = parseRedoclyReport(run.stdout);
    if (problems === undefined) throw new Error(`redocly lint could not lint the bundled document: ${run.stderr || run.stdout}`);
    return problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => ({ ruleId: problem.ruleId, message: problem.message, pointer: problem.location[0]?.pointer ?? '#' }));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
