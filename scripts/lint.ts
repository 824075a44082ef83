/**
 * `npm run lint`: the one gate for the contract, run by CI and by anyone changing `openapi/`.
 *
 *   node scripts/lint.ts [--format stylish|github-actions] [--project <dir>]
 *
 * The format is `github-actions` by default when run by GitHub Actions, `stylish` elsewhere.
 *
 * Exits 0 when the contract meets the interface specification, 1 on any problem (each printed
 * with the file to open and the rule it breaks), 2 when called with options it does not know.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatGateProblem, type GateProblem } from '../src/gate/gate.ts';
import { runGate, type GateResult } from '../src/gate/run-gate.ts';
import { productFactsFile, ProductFactsError, readProductFacts, unpublishedFacts } from '../src/lib/product-facts.ts';

/**
 * The product facts are the publisher's to fill: an invalid file fails the gate, while values
 * still marked not yet published only warn, since the specification gives none of them.
 */
function productFactsReport(projectDirectory: string): boolean {
  try {
    const unpublished = unpublishedFacts(readProductFacts(projectDirectory));
    if (unpublished.length > 0) {
      console.log(`⚠ ${productFactsFile}: not yet published: ${unpublished.join(', ')}. The product page and the product-information server say so until the publisher fills them in.`);
    }
    return true;
  } catch (error) {
    if (!(error instanceof ProductFactsError)) throw error;
    console.log(error.message);
    console.log(`✖ ${productFactsFile} does not follow its schema (src/lib/product-facts.ts).`);
    return false;
  }
}

const formats = ['stylish', 'github-actions'] as const;
type Format = (typeof formats)[number];

function isFormat(value: string): value is Format {
  return (formats as readonly string[]).includes(value);
}

/** Workflow commands must not contain raw newlines, and properties must not contain `,` or `:`. */
function escapeAnnotationData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeAnnotationProperty(text: string): string {
  return escapeAnnotationData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

export function formatProblem(problem: GateProblem, format: Format): string[] {
  const lines = [formatGateProblem(problem)];
  if (format === 'github-actions') {
    const properties = [`file=${escapeAnnotationProperty(problem.file)}`];
    if (problem.line !== undefined) properties.push(`line=${problem.line}`);
    properties.push(`title=${escapeAnnotationProperty(problem.rule === undefined ? 'Contract gate' : `Contract gate: ${problem.rule}`)}`);
    lines.push(`::error ${properties.join(',')}::${escapeAnnotationData(problem.message)}`);
  }
  return lines;
}

export function summarize(result: GateResult, seconds: number): string {
  const timing = `${seconds.toFixed(1)} s`;
  const stepNames = result.steps.map((step) => step.name).join(', ');
  if (result.ok) return `✔ The contract passes the gate (${stepNames}; ${timing}).`;
  const files = new Set(result.problems.map((problem) => problem.file));
  const perStep = result.steps
    .filter((step) => step.problems.length > 0)
    .map((step) => `${step.name}: ${step.problems.length}`)
    .join(', ');
  const count = result.problems.length;
  return `✖ The contract fails the gate: ${count} ${count === 1 ? 'problem' : 'problems'} in ${files.size} ${files.size === 1 ? 'file' : 'files'} (${perStep}; ${timing}). Each line above names the file to fix and the rule it breaks.`;
}

async function main(): Promise<number> {
  let values: { format?: string; project?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        // On GitHub Actions the problems also become annotations on the file and line to fix.
        format: { type: 'string', default: process.env.GITHUB_ACTIONS === 'true' ? 'github-actions' : 'stylish' },
        project: { type: 'string', default: process.cwd() },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: node scripts/lint.ts [--format ${formats.join('|')}] [--project <dir>]`);
    return 2;
  }
  if (values.help === true) {
    console.log(`Usage: node scripts/lint.ts [--format ${formats.join('|')}] [--project <dir>]`);
    return 0;
  }
  const format = values.format ?? 'stylish';
  if (!isFormat(format)) {
    console.error(`Unknown format "${format}"; use one of: ${formats.join(', ')}.`);
    return 2;
  }
  const projectDirectory = path.resolve(values.project ?? process.cwd());

  const started = performance.now();
  const result = await runGate({ projectDirectory, format });
  for (const problem of result.problems) {
    for (const line of formatProblem(problem, format)) console.log(line);
  }
  console.log(summarize(result, (performance.now() - started) / 1000));
  return result.ok && productFactsReport(projectDirectory) ? 0 : 1;
}

if (import.meta.main) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // A gate that cannot run has not shown the contract is sound, so it fails.
      console.error(`The contract gate could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    },
  );
}
