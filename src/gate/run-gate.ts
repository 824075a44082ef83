import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { bundleContract, ContractBundleError, contractRoot, type BundledContract } from '../lib/contract/bundle.ts';
import { asOpenApiDocument, ContractError } from '../lib/contract/document.ts';
import { contractRulesStep } from './checks.ts';
import { clientSurfacesStep } from './client-surfaces-step.ts';
import { compatibilityStep } from './compatibility.ts';
import { referenceModelStep } from './model-step.ts';
import { arazzoWorkflowsStep } from './workflows-step.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { withYamlHints } from './yaml-hints.ts';
import { oneProblemPerCause, redoclyLintStep, startRedoclyLint, withoutProjectDirectory, type RedoclyLintRun } from './redocly-lint.ts';

/** The steps of `npm run lint`, in the order they run, after the bundle. */
export const gateSteps: readonly GateStep[] = [
  redoclyLintStep,
  contractRulesStep,
  referenceModelStep,
  arazzoWorkflowsStep,
  compatibilityStep,
  clientSurfacesStep,
];

/** Where the gate bundles the contract, inside the project checked (ignored by git). */
export const gateBundleDirectory = '.generated/lint';

export interface GateOptions {
  /** The project to check: the repository, or a copy made by a test. */
  projectDirectory: string;
  /** Output format requested by the user (`stylish`, `github-actions`). */
  format?: string;
  /** The contract's root file, relative to the project. */
  root?: string;
  /** The steps to run; the gate's own steps unless a test picks others. */
  steps?: readonly GateStep[];
  /**
   * Where to write the bundle, relative to the project or absolute: `.generated/lint` by default.
   * `loadGatedContract` passes a folder of its own, and publishes the bundle the gate checked.
   */
  bundleDirectory?: string;
}

export interface StepOutcome {
  name: string;
  problems: GateProblem[];
}

export interface GateResult {
  ok: boolean;
  /** Every problem of every step that ran, in the order of the steps. */
  problems: GateProblem[];
  /** What each step that ran found; `Redocly bundle` comes first and, if it fails, alone. */
  steps: StepOutcome[];
  /** The bundle every step looked at; absent when Redocly could not bundle the contract. */
  bundle?: BundledContract;
}

const bundleStepName = 'Redocly bundle';

/**
 * Turns Redocly's refusal to bundle into problems. Its report names each place as
 * `[1] openapi/components/x.yaml:18:5 at #/pointer`, followed by a blank line and the message;
 * a root that is not even YAML is reported as `Failed to parse API description at <file>:`.
 */
export function bundleFailureProblems(report: string, projectDirectory: string, root: string): GateProblem[] {
  const text = withoutProjectDirectory(report, projectDirectory);
  const problems: GateProblem[] = [];
  const rule = 'Redocly bundle';
  const located = /^\[\d+\] (\S+?):(\d+):\d+\b.*\n\n(.+)$/gm;
  for (const match of text.matchAll(located)) {
    problems.push({ file: match[1] ?? root, line: Number(match[2]), message: match[3] ?? '', rule });
  }
  const unparsable = /^Failed to parse API description at (\S+?):\s*\n\s*(?:- )?(.+)$/m.exec(text);
  if (unparsable !== null) {
    const line = /\((\d+):\d+\)\s*$/.exec(unparsable[2] ?? '');
    problems.push({
      file: unparsable[1] ?? root,
      message: `Failed to parse: ${unparsable[2] ?? ''}`,
      rule,
      ...(line === null ? {} : { line: Number(line[1]) }),
    });
  }
  if (problems.length === 0) {
    // Anything else (a broken `redocly.yaml`, say) still tends to quote `in "<file>" (line:column)`.
    const words = text.replace(/^Redocly could not bundle [^\n]*\n/, '').replace(/\s*\n\s*/g, ' ').trim();
    const quoted = /in "([^"]+)" \((\d+):\d+\)/.exec(words);
    problems.push({
      file: quoted?.[1] ?? root,
      message: `Redocly cannot bundle the contract: ${words}`,
      rule,
      ...(quoted === null ? {} : { line: Number(quoted[2]) }),
    });
  }
  return oneProblemPerCause(problems);
}

/**
 * The files of the contract that hold no value: empty, or only comments. Redocly reports each
 * `$ref` to such a file as "Can't resolve $ref" at the referrer (eight times for a shared
 * schema) and never names the file, or bundles it as `null`; the gate names it once instead.
 */
export function emptyContractFiles(projectDirectory: string, root: string): GateProblem[] {
  const contractDirectory = path.dirname(path.resolve(projectDirectory, root));
  const files = globSync('**/*.{yaml,yml,json}', { cwd: contractDirectory }).sort();
  return files.flatMap((file): GateProblem[] => {
    const text = readFileSync(path.join(contractDirectory, file), 'utf8');
    const parsed = parseDocument(text);
    if (parsed.errors.length > 0 || parsed.contents !== null) return [];
    const relative = path.relative(projectDirectory, path.join(contractDirectory, file)).split(path.sep).join('/');
    const what = text.trim() === '' ? 'is empty' : 'holds only comments';
    return [{ file: relative, line: 1, message: `The file ${what}: a $ref to it has nothing to read. Write the component it stands for, or remove it and every $ref to it.`, rule: 'empty file' }];
  });
}

/**
 * The gate behind `npm run lint`. The contract is bundled first with Redocly's own bundler,
 * because every later step looks at the bundled document; when Redocly refuses (a YAML syntax
 * error, a dangling `$ref`), nothing else can be checked and the gate stops there. Otherwise
 * every step runs, and the problems of all of them are reported together.
 */
export async function runGate(options: GateOptions): Promise<GateResult> {
  const projectDirectory = path.resolve(options.projectDirectory);
  const root = options.root ?? contractRoot;
  const format = options.format ?? 'stylish';
  const steps = options.steps ?? gateSteps;

  // Redocly's lint reads the source files, not the bundle, so it starts at once and runs beside
  // the bundler: two Redocly processes side by side instead of one after the other.
  const earlyLint: RedoclyLintRun | undefined = steps.includes(redoclyLintStep) ? startRedoclyLint(projectDirectory, root) : undefined;

  const empty = emptyContractFiles(projectDirectory, root);
  if (empty.length > 0) {
    earlyLint?.cancel();
    return { ok: false, problems: empty, steps: [{ name: bundleStepName, problems: empty }] };
  }

  let context: GateContext;
  let bundle: BundledContract;
  try {
    bundle = bundleContract(projectDirectory, root, options.bundleDirectory ?? gateBundleDirectory);
    context = {
      projectDirectory,
      root,
      document: asOpenApiDocument(bundle.document, path.relative(projectDirectory, bundle.jsonPath)),
      bundlePath: bundle.jsonPath,
      format,
    };
  } catch (error) {
    let problems: GateProblem[];
    if (error instanceof ContractBundleError) {
      // Redocly's lint reads the same files and says the same, with structured locations, so its
      // report is preferred to the bundler's text when it names the problem.
      const linted = earlyLint === undefined ? [] : await earlyLint.problems;
      problems = linted.some((problem) => problem.line !== undefined) ? linted : bundleFailureProblems(error.message, projectDirectory, root);
    } else if (error instanceof ContractError) {
      earlyLint?.cancel();
      problems = [{ file: root, message: error.message, rule: 'OpenAPI 3.1' }];
    } else {
      earlyLint?.cancel();
      throw error;
    }
    problems = withYamlHints(problems, projectDirectory);
    return { ok: false, problems, steps: [{ name: bundleStepName, problems }] };
  }

  const outcomes: StepOutcome[] = [{ name: bundleStepName, problems: [] }];
  // The model reads the lifecycle table with the same reader as the transition-table rule: a
  // problem a step before has already named at the same place is not printed twice.
  const named = new Set<string>();
  // Every step starts at once, so the Redocly processes of the later ones (the workflows' lint,
  // the release diff) run side by side; their problems are still taken in the steps' order.
  const runs = steps.map((step) => (step === redoclyLintStep && earlyLint !== undefined ? earlyLint.problems : step.run(context)));
  for (const [index, step] of steps.entries()) {
    const problems = runs[index] ?? [];
    const fresh = (await problems).filter((problem) => {
      const key = `${problem.file}\u0000${problem.line ?? ''}\u0000${problem.cause ?? problem.message}`;
      if (named.has(key)) return false;
      named.add(key);
      return true;
    });
    outcomes.push({ name: step.name, problems: fresh });
  }
  const problems = outcomes.flatMap((outcome) => outcome.problems);
  return { ok: problems.length === 0, problems, steps: outcomes, bundle };
}
