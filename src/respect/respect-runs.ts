/**
 * The lifecycle's Arazzo workflows run by Redocly's Respect against a new sandbox, at build time:
 * once, when every workflow passes, and again on the same sandbox, when the workflows that moved
 * their subscription on fail; and one workflow with `--verbose` against a sandbox that holds
 * another key, which prints the status and body the site answered. The workflows page shows the
 * commands a reader types and what these real runs printed, so what it shows cannot drift from
 * what the tools do.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import projectPackage from '../../package.json' with { type: 'json' };
import { bundleDirectory, redoclyInvocation } from '../lib/contract/bundle.ts';
import { loadExecutableContract, type ExecutableContract } from '../lib/contract/executable-contract.ts';
import { arazzoYaml, respectArguments, sourceDescriptionUrl, type RespectTarget } from '../lib/workflows/arazzo-document.ts';
import { planWorkflows } from '../lib/workflows/workflow-plan.ts';
import { defaultApiKey } from '../sandbox/seed.ts';
import { defaultPort, startSandbox } from '../sandbox/server.ts';

/** The file name a reader downloads the description as. */
export const arazzoDownloadName = 'v1.arazzo.yaml';

/** The Redocly CLI the project pins (the one the gate runs), as `npx` names it. */
export function redoclyPackage(): string {
  const manifest: { devDependencies?: Record<string, string>; dependencies?: Record<string, string> } = projectPackage;
  const version = manifest.devDependencies?.['@redocly/cli'] ?? manifest.dependencies?.['@redocly/cli'];
  if (version === undefined) throw new Error('package.json does not name @redocly/cli');
  return `@redocly/cli@${version}`;
}

/** The command a reader runs, in the folder holding both downloads, against a site. */
export function respectCommand(contract: ExecutableContract, target: Omit<RespectTarget, 'file'> & { workflow?: string; verbose?: boolean }): string {
  // --yes: npx would otherwise ask before it installs, and a shell without a terminal says no.
  return ['npx', '--yes', redoclyPackage(), ...respectArguments(contract, { ...target, file: arazzoDownloadName })].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** One run, as the page shows it. */
export interface RespectRunShown {
  exitCode: number;
  /** The lines a reader looks at: one workflow's checks (or the failures) and the summary. */
  excerpt: string;
  seconds: number;
}

/**
 * The key the sandbox of the verbose run is started with (`--api-key`), so that the page's
 * command, which sends the default key, is refused: visibly not a key either.
 */
export const otherSandboxKey = 'another-sandbox-key-not-a-secret';

export interface RespectRuns {
  /** The command against a sandbox started as the sandbox guide says. */
  sandboxCommand: string;
  passing: RespectRunShown;
  failing: RespectRunShown;
  /** One workflow with `--verbose` against a sandbox started with `otherSandboxKey`: the status and body it answered. */
  verbose: RespectRunShown & { command: string; workflowId: string };
}

// eslint-disable-next-line no-control-regex
const colours = /\u001b\[[0-9;]*m/g;

/** Lines from the first matching `from` (at or after `after`) up to, not including, the next matching `to`. */
function linesBetween(lines: readonly string[], from: RegExp, to: RegExp, after = 0): string[] {
  const start = lines.findIndex((line, index) => index >= after && from.test(line));
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && to.test(line));
  return lines.slice(start, end < 0 ? undefined : end);
}

/** Runs of blank lines made one, and none at either end. */
function tidy(lines: readonly string[]): string[] {
  const kept = lines.filter((line, index) => line !== '' || (index > 0 && lines[index - 1] !== ''));
  while (kept.at(-1) === '') kept.pop();
  while (kept[0] === '') kept.shift();
  return kept;
}

/**
 * What the page shows of a run: the first workflow's checks when it passed, the first failed
 * workflow's failures when it did not, then the summary, without the time it took. Respect pads its lines with no-break
 * spaces and colours them; the page shows plain text.
 */
function excerptOf(output: string, passed: boolean): string {
  const lines = output.replace(colours, '').replaceAll('\u00a0', ' ').split('\n').map((line) => line.trimEnd());
  const failures = lines.findIndex((line) => /Failed tests info:/.test(line));
  const detail = passed
    ? linesBetween(lines, /Running workflow /, /^\s*─+$/)
    : [lines[failures] ?? '', '', ...linesBetween(lines, /^\s*Workflow name: /, /^\s*Workflow name: |^\s*Summary for /, failures)];
  // The summary without its time: the page, and the product-information server that reads it,
  // stay the same from one build to the next.
  const summary = linesBetween(lines, /^\s*Summary for /, /^\s*Time: /);
  return [...tidy(detail), '', ...tidy(summary)].join('\n');
}

/** What a verbose line of Respect's step block labels, at the start of the line after its indent. */
const verboseLabel = /^ {4}(Request URL|Request Headers|Request Body|Response status code|Response time|Response Headers|Response Size|Response Body):/;
/** The labels the page shows: what the site answered, without what changes from run to run (times, dates, ports). */
const shownLabels = new Set(['Response status code', 'Response Body']);

/**
 * What the page shows of a verbose run of one workflow: each step's line, the status and the
 * body the site answered, and the step's checks, then the summary. The request (the sandbox's
 * port), the answer's headers (a date), its time and its size are left out, so that the page
 * stays the same from one build to the next.
 */
export function verboseExcerptOf(output: string): string {
  const lines = output.replace(colours, '').replaceAll('\u00a0', ' ').split('\n').map((line) => line.trimEnd());
  const block = linesBetween(lines, /Running workflow /, /Failed tests info:|^\s*Summary for /);
  let shown = true;
  const kept = block.filter((line) => {
    const label = verboseLabel.exec(line)?.[1];
    if (label !== undefined) shown = shownLabels.has(label);
    else if (!/^ {6}/.test(line) && line !== '') shown = true;
    return shown;
  });
  const summary = linesBetween(lines, /^\s*Summary for /, /^\s*Time: /);
  return [...tidy(kept), '', ...tidy(summary)].join('\n');
}

function runRespect(args: string[], directory: string): Promise<{ exitCode: number; output: string; seconds: number }> {
  const { file, args: cliArgs, options } = redoclyInvocation(args, directory);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, cliArgs, { ...options, env: { ...options.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code ?? 1, output, seconds: (performance.now() - started) / 1000 }));
  });
}

/** The first workflow, run alone with `--verbose` against a new sandbox that holds another key than the one sent. */
async function recordVerbose(contract: ExecutableContract, directory: string): Promise<RespectRuns['verbose']> {
  const [first] = planWorkflows(contract);
  if (first === undefined) throw new Error('The lifecycle has no workflow to run.');
  const sandbox = await startSandbox({ port: 0, contract, apiKey: otherSandboxKey });
  try {
    const args = respectArguments(contract, { file: arazzoDownloadName, siteUrl: sandbox.url, apiKey: defaultApiKey, workflow: first.workflowId, verbose: true });
    const run = await runRespect(args, directory);
    const refused = contract.errors.invalidKey;
    if (run.exitCode === 0 || !run.output.includes(`Response status code: ${refused.status}`) || !run.output.includes(refused.code)) {
      throw new Error(`Respect's verbose run against a sandbox with another key does not show the ${refused.status} it answered:\n${run.output}`);
    }
    return {
      command: respectCommand(contract, { siteUrl: `http://127.0.0.1:${defaultPort}`, apiKey: defaultApiKey, workflow: first.workflowId, verbose: true }),
      workflowId: first.workflowId,
      exitCode: run.exitCode,
      excerpt: verboseExcerptOf(run.output),
      seconds: run.seconds,
    };
  } finally {
    await sandbox.close();
  }
}

async function record(): Promise<RespectRuns> {
  const contract = loadExecutableContract();
  const directory = mkdtempSync(path.join(tmpdir(), 'respect-runs-'));
  const sandbox = await startSandbox({ port: 0, contract });
  try {
    copyFileSync(path.resolve(bundleDirectory, 'v1.yaml'), path.join(directory, sourceDescriptionUrl));
    writeFileSync(path.join(directory, arazzoDownloadName), arazzoYaml(contract));
    const args = respectArguments(contract, { file: arazzoDownloadName, siteUrl: sandbox.url, apiKey: sandbox.apiKey });
    // The verbose run has a sandbox of its own, so it runs beside the two that share one.
    const verbose = recordVerbose(contract, directory);
    // Its refusal is read below, after the other two; until then it must not count as unhandled.
    verbose.catch(() => undefined);
    const first = await runRespect(args, directory);
    const second = await runRespect(args, directory);
    if (first.exitCode !== 0) throw new Error(`The lifecycle's workflows fail against a new sandbox:\n${first.output}`);
    if (second.exitCode === 0) throw new Error('The lifecycle\'s workflows pass twice on one sandbox: none changed its subscription.');
    return {
      sandboxCommand: respectCommand(contract, { siteUrl: `http://127.0.0.1:${defaultPort}`, apiKey: defaultApiKey }),
      passing: { exitCode: first.exitCode, excerpt: excerptOf(first.output, true), seconds: first.seconds },
      failing: { exitCode: second.exitCode, excerpt: excerptOf(second.output, false), seconds: second.seconds },
      verbose: await verbose,
    };
  } finally {
    await sandbox.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

let recorded: Promise<RespectRuns> | undefined;

/** The two runs, made once per build. */
export function respectRuns(): Promise<RespectRuns> {
  recorded ??= record();
  return recorded;
}
