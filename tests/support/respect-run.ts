import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gateBundleDirectory } from '../../src/gate/run-gate.ts';
import { redoclyInvocation } from '../../src/lib/contract/bundle.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { arazzoYaml, respectArguments, sourceDescriptionName, sourceDescriptionUrl, type RespectTarget } from '../../src/lib/workflows/arazzo-document.ts';
import { subscriptionInputName, type PlannedWorkflow } from '../../src/lib/workflows/workflow-plan.ts';
import type { Subscription } from '../../src/sandbox/store.ts';
import { projectDirectory } from './contract-copy.ts';

/** A folder with the Arazzo description and the OpenAPI document it runs against, as the site publishes them side by side. */
export interface WorkflowFiles {
  directory: string;
  arazzoFile: string;
  remove(): void;
}

/**
 * Writes the description generated from `contract` beside the bundle it was read from (by default
 * the one `npm run lint` wrote), or the text given, such as a broken copy.
 */
export function writeWorkflowFiles(contract: ExecutableContract, options: { text?: string; bundleYaml?: string } = {}): WorkflowFiles {
  const directory = mkdtempSync(path.join(tmpdir(), 'arazzo-'));
  copyFileSync(options.bundleYaml ?? path.join(projectDirectory, gateBundleDirectory, 'v1.yaml'), path.join(directory, sourceDescriptionUrl));
  const arazzoFile = path.join(directory, 'v1.arazzo.yaml');
  writeFileSync(arazzoFile, options.text ?? arazzoYaml(contract));
  return { directory, arazzoFile, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

export interface RespectRun {
  exitCode: number | null;
  output: string;
  /** Each workflow's outcome as Respect's JSON report gives it (`success`, `error`), by workflow ID. */
  outcomes: Map<string, string>;
  seconds: number;
}

/**
 * Runs the real `redocly respect` as a reader would, on every workflow of the file or those named.
 * `serverUrl` gives `--server` as a reader may mistype it, in place of the site's address followed
 * by the path of the version's namespace.
 */
export async function runRespect(
  contract: ExecutableContract,
  files: WorkflowFiles,
  target: Omit<RespectTarget, 'file'> & { serverUrl?: string },
  extra: string[] = [],
): Promise<RespectRun> {
  const report = path.join(files.directory, `report-${Date.now()}.json`);
  const readerArguments = respectArguments(contract, { ...target, file: files.arazzoFile });
  if (target.serverUrl !== undefined) readerArguments[readerArguments.indexOf('--server') + 1] = `${sourceDescriptionName}=${target.serverUrl}`;
  const args = [...readerArguments, '--json-output', report, ...extra];
  const { file, args: cliArgs, options } = redoclyInvocation(args, files.directory);
  const started = performance.now();
  const child = spawn(file, cliArgs, { ...options, env: { ...options.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  const outcomes = new Map<string, string>();
  try {
    const parsed: unknown = JSON.parse(readFileSync(report, 'utf8'));
    const reported = isRecord(parsed) && isRecord(parsed.files) ? Object.values(parsed.files) : [];
    for (const entry of reported) {
      if (!isRecord(entry) || !Array.isArray(entry.executedWorkflows)) continue;
      for (const workflow of entry.executedWorkflows) if (isRecord(workflow)) outcomes.set(String(workflow.workflowId), String(workflow.status));
    }
  } catch {
    // No report: Respect stopped before running; the output says why.
  }
  return { exitCode, output, outcomes, seconds };
}

/**
 * Gives each workflow a subscription of a site's seed in the status it starts from, each
 * subscription to one workflow only; where the seed has too few in a status (or none is given),
 * new IDs from `firstNewId`. Returns the inputs to pass and the subscriptions to place (all of
 * them, so a site whose subscriptions have moved since it was seeded is put back first).
 */
export function assignSubscriptions(
  workflows: readonly PlannedWorkflow[],
  seed: readonly Subscription[],
  firstNewId = Math.max(0, ...seed.map((subscription) => subscription.id)) + 1,
): { inputs: Record<string, number>; placed: Subscription[] } {
  const free = [...seed];
  let next = firstNewId;
  const inputs: Record<string, number> = {};
  const placed: Subscription[] = [];
  for (const workflow of workflows) {
    const index = free.findIndex((subscription) => subscription.status === workflow.startStatus);
    const id = index < 0 ? next++ : (free.splice(index, 1)[0]?.id ?? next++);
    inputs[subscriptionInputName(workflow.workflowId)] = id;
    placed.push({ id, status: workflow.startStatus });
  }
  return { inputs, placed };
}
