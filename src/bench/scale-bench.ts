/**
 * How the project grows with the number of actions, measured by taking copies of the project with
 * more actions (src/bench/scaled-contract.ts) through the real gate, the real Astro build, the
 * sandbox and the product-information server. Each copy is built in its own folder under
 * `.generated/` and removed afterwards; the project's own files are never touched.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { actionPagePath, endpointPagePath, referenceIndexPath } from '../lib/site/navigation.ts';
import { builtPageElements, pageElementBound } from '../lib/site/page-elements.ts';
import { startProductInformationServer } from '../mcp-server/http.ts';
import { startSandbox } from '../sandbox/server.ts';
import { copyBuildableProject } from './project-copy.ts';
import { addActions, spreadCopies } from './scaled-contract.ts';

export interface ScaleFigures {
  actions: number;
  gateSeconds: number;
  buildSeconds: number;
  pages: number;
  siteBytes: number;
  bundleBytes: number;
  /** One action page (`pause_subscription`), as served and gzipped. */
  actionPageBytes: number;
  actionPageGzipBytes: number;
  referenceIndexGzipBytes: number;
  statesPageGzipBytes: number;
  endpointPageGzipBytes: number;
  /** Elements of the pages that list every action, and the largest page of all (src/lib/site/page-elements.ts). */
  endpointPageElements: number;
  statesPageElements: number;
  referenceIndexElements: number;
  homePageElements: number;
  actionPageElements: number;
  largestPageElements: number;
  largestPage: string;
  sandboxStartSeconds: number;
  sandboxRequestsPerSecond: number;
  mcpStartSeconds: number;
  toolsListBytes: number;
  actionDetailsBytes: number;
  actionDetailsPerSecond: number;
}

const statesPagePath = '/states-and-transitions/';
/** The action page compared across sizes: an action every size of contract has. */
const measuredAction = 'pause_subscription';
const sandboxRequests = 600;
const sandboxConcurrency = 8;
const actionDetailsCalls = 300;
/** Requests and calls sent before the measured ones, so that the first size is not measured cold. */
const warmUp = 100;
/** Runs of the gate and of the build; the fastest counts, as the one least slowed by whatever else the machine runs. */
const timedRuns = 2;

function seconds(since: number): number {
  return (performance.now() - since) / 1000;
}

/** A size whose copy the gate or the build refused: a finding of the benchmark, with the lines that say why. */
export interface ScaleRefusal {
  actions: number;
  refusedBy: string;
  lines: string[];
}

export class RunRefused extends Error {
  readonly what: string;
  readonly lines: string[];

  constructor(what: string, lines: string[]) {
    super(`${what} refused the copy`);
    this.what = what;
    this.lines = lines;
  }
}

/** Astro prefixes its lines with a time and colours; the refusal reads better without either. */
function refusalLines(output: string): string[] {
  const lines = output
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.replace(/^\d\d:\d\d:\d\d\s+/, '').trimEnd())
    .filter((line) => line.length > 0);
  const errors = lines.filter((line) => /\[ERROR\]|error|refuse|fail/i.test(line));
  return (errors.length > 0 ? errors : lines).slice(-20);
}

/** The fastest of `timedRuns` runs of a command, in seconds; a refused run ends the size with what it printed. */
function fastestRun(command: string, args: string[], cwd: string, what: string): number {
  const times: number[] = [];
  for (let round = 0; round < timedRuns; round += 1) {
    const started = performance.now();
    const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) throw new RunRefused(what, refusalLines(`${result.stdout}\n${result.stderr}`));
    times.push(seconds(started));
  }
  return Math.min(...times);
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function pageFile(dist: string, urlPath: string): string {
  return path.join(dist, urlPath, 'index.html');
}

function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function measureSandbox(directory: string): Promise<Pick<ScaleFigures, 'sandboxStartSeconds' | 'sandboxRequestsPerSecond'>> {
  const started = performance.now();
  const sandbox = await startSandbox({ projectDirectory: directory, port: 0 });
  const sandboxStartSeconds = seconds(started);
  try {
    const { envelope, lifecycle } = sandbox.contract.model;
    const fixed = lifecycle.transitions.filter((transition) => transition.kind === 'fixed').map((transition) => transition.action);
    const subscriptions = sandbox.subscriptions().map((subscription) => subscription.id);
    const send = async (index: number): Promise<void> => {
      const body = {
        [envelope.credential]: sandbox.apiKey,
        [envelope.selector]: fixed[index % fixed.length],
        [envelope.subject]: subscriptions[index % subscriptions.length],
      };
      const response = await fetch(sandbox.endpointUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      await response.text();
      if (response.status !== 200 && response.status !== 409) throw new Error(`the sandbox answered ${response.status} to ${JSON.stringify(body)}`);
    };
    await inParallel(warmUp, sandboxConcurrency, send);
    const requested = performance.now();
    await inParallel(sandboxRequests, sandboxConcurrency, send);
    return { sandboxStartSeconds, sandboxRequestsPerSecond: sandboxRequests / seconds(requested) };
  } finally {
    await sandbox.close();
  }
}

async function mcpCall(url: string, id: number, method: string, params: Record<string, unknown>): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) throw new Error(`${method}: ${response.status} ${text.slice(0, 300)}`);
  return text;
}

async function measureMcpServer(directory: string, actions: string[]): Promise<Pick<ScaleFigures, 'mcpStartSeconds' | 'toolsListBytes' | 'actionDetailsBytes' | 'actionDetailsPerSecond'>> {
  const started = performance.now();
  const server = await startProductInformationServer({ projectDirectory: directory, port: 0 });
  const mcpStartSeconds = seconds(started);
  try {
    const toolsListBytes = Buffer.byteLength(await mcpCall(server.url, 1, 'tools/list', {}));
    const actionDetailsBytes = Buffer.byteLength(await mcpCall(server.url, 2, 'tools/call', { name: 'action_details', arguments: { action: measuredAction } }));
    const call = async (index: number): Promise<void> => {
      await mcpCall(server.url, 10 + index, 'tools/call', { name: 'action_details', arguments: { action: actions[index % actions.length] } });
    };
    await inParallel(warmUp, sandboxConcurrency, call);
    const called = performance.now();
    await inParallel(actionDetailsCalls, sandboxConcurrency, call);
    return { mcpStartSeconds, toolsListBytes, actionDetailsBytes, actionDetailsPerSecond: actionDetailsCalls / seconds(called) };
  } finally {
    await server.close();
  }
}

/** Takes a copy of the project with `actions` actions through the gate, the build and both servers. */
export async function measureAtScale(projectDirectory: string, actions: number, log: (line: string) => void): Promise<ScaleFigures> {
  const copy = copyBuildableProject(projectDirectory, `scale-${actions}-`);
  try {
    const { directory } = copy;
    const added = spreadCopies(directory, Math.max(0, actions - 8));
    if (added.length > 0) addActions(directory, added);
    const node = process.execPath;
    log(`${actions} actions: the gate`);
    const gateSeconds = fastestRun(node, [path.join(directory, 'scripts/lint.ts')], directory, 'npm run lint');
    log(`${actions} actions: astro build`);
    const buildSeconds = fastestRun(node, [path.join(directory, 'node_modules/astro/bin/astro.mjs'), 'build'], directory, 'astro build');
    const dist = path.join(directory, 'dist');
    const files = filesUnder(dist);
    const actionPage = pageFile(dist, actionPagePath(measuredAction));
    const elements = builtPageElements(dist);
    const elementsOf = (urlPath: string): number => elements.find(({ page }) => path.join(dist, page) === pageFile(dist, urlPath))?.elements ?? 0;
    const [largest] = elements;
    log(`${actions} actions: the sandbox and the product-information server`);
    const sandbox = await measureSandbox(directory);
    const identifiers = ['cancel_subscription', measuredAction, ...added.map((action) => action.identifier)];
    const mcp = await measureMcpServer(directory, identifiers);
    return {
      actions,
      gateSeconds,
      buildSeconds,
      pages: files.filter((file) => file.endsWith('.html')).length,
      siteBytes: files.reduce((sum, file) => sum + statSync(file).size, 0),
      bundleBytes: statSync(path.join(dist, 'openapi/v1.json')).size,
      actionPageBytes: statSync(actionPage).size,
      actionPageGzipBytes: gzipBytes(actionPage),
      referenceIndexGzipBytes: gzipBytes(pageFile(dist, referenceIndexPath)),
      statesPageGzipBytes: gzipBytes(pageFile(dist, statesPagePath)),
      endpointPageGzipBytes: gzipBytes(pageFile(dist, endpointPagePath)),
      endpointPageElements: elementsOf(endpointPagePath),
      statesPageElements: elementsOf(statesPagePath),
      referenceIndexElements: elementsOf(referenceIndexPath),
      homePageElements: elementsOf('/'),
      actionPageElements: elementsOf(actionPagePath(measuredAction)),
      largestPageElements: largest?.elements ?? 0,
      largestPage: largest?.page ?? '',
      ...sandbox,
      ...mcp,
    };
  } finally {
    copy.remove();
  }
}

type Unit = 'seconds' | 'bytes' | 'count' | 'rate';

const formats: Record<Unit, (value: number) => string> = {
  seconds: (value) => `${value.toFixed(1)} s`,
  bytes: (value) => (Math.abs(value) >= 1024 * 1024 ? `${(value / 1024 / 1024).toFixed(2)} MiB` : `${(value / 1024).toFixed(1)} KiB`),
  count: (value) => value.toFixed(0),
  rate: (value) => value.toFixed(0),
};

/** What one more action adds: milliseconds and bytes; a rate has no such share. */
const perActionFormats: Record<Unit, ((value: number) => string) | undefined> = {
  seconds: (value) => `${(value * 1000).toFixed(0)} ms`,
  bytes: (value) => `${(value / 1024).toFixed(2)} KiB`,
  count: (value) => value.toFixed(2),
  rate: undefined,
};

const columns: [string, Unit, (row: ScaleFigures) => number][] = [
  ['Gate (`npm run lint`)', 'seconds', (row) => row.gateSeconds],
  ['Build (`astro build`, gate included)', 'seconds', (row) => row.buildSeconds],
  ['HTML pages', 'count', (row) => row.pages],
  ['Site (`dist/`)', 'bytes', (row) => row.siteBytes],
  ['Bundle (`/openapi/v1.json`)', 'bytes', (row) => row.bundleBytes],
  [`Action page (${measuredAction})`, 'bytes', (row) => row.actionPageBytes],
  ['Action page, gzip', 'bytes', (row) => row.actionPageGzipBytes],
  ['Reference index, gzip', 'bytes', (row) => row.referenceIndexGzipBytes],
  ['States page, gzip', 'bytes', (row) => row.statesPageGzipBytes],
  ['Endpoint page, gzip', 'bytes', (row) => row.endpointPageGzipBytes],
  ['Endpoint page, elements', 'count', (row) => row.endpointPageElements],
  ['States page, elements', 'count', (row) => row.statesPageElements],
  ['Reference index, elements', 'count', (row) => row.referenceIndexElements],
  ['Home page, elements', 'count', (row) => row.homePageElements],
  [`Action page (${measuredAction}), elements`, 'count', (row) => row.actionPageElements],
  [`Largest page, elements (bound ${pageElementBound})`, 'count', (row) => row.largestPageElements],
  ['Sandbox start (gate included)', 'seconds', (row) => row.sandboxStartSeconds],
  ['Sandbox requests/s', 'rate', (row) => row.sandboxRequestsPerSecond],
  ['MCP server start (gate included)', 'seconds', (row) => row.mcpStartSeconds],
  ['MCP `tools/list` answer', 'bytes', (row) => row.toolsListBytes],
  ['MCP `action_details` answer', 'bytes', (row) => row.actionDetailsBytes],
  ['MCP `action_details` calls/s', 'rate', (row) => row.actionDetailsPerSecond],
];

/** The figures as a Markdown table, one column per size, then how each grows and what one more action adds. */
export function formatScaleReport(rows: ScaleFigures[]): string {
  const first = rows[0];
  const last = rows.at(-1);
  if (first === undefined || last === undefined) return '';
  const lines = [
    `| | ${rows.map((row) => `${row.actions} actions`).join(' | ')} | ${last.actions} ÷ ${first.actions} | per added action |`,
    `|---|${rows.map(() => '---:').join('|')}|---:|---:|`,
  ];
  for (const [name, unit, value] of columns) {
    const growth = value(first) === 0 ? '' : `${(value(last) / value(first)).toFixed(2)}×`;
    const perAction = perActionFormats[unit];
    const added = perAction === undefined || last.actions === first.actions ? '' : perAction((value(last) - value(first)) / (last.actions - first.actions));
    lines.push(`| ${name} | ${rows.map((row) => formats[unit](value(row))).join(' | ')} | ${growth} | ${added} |`);
  }
  return lines.join('\n');
}

/** What the table cannot say: the largest page at each size, and each size whose copy was refused, with the refusal's lines. */
export function formatFindings(rows: ScaleFigures[], refusals: ScaleRefusal[]): string {
  const lines = rows.map((row) => `With ${row.actions} actions the largest page is ${row.largestPage}, ${row.largestPageElements} elements (the bound is ${pageElementBound}).`);
  for (const { actions, refusedBy, lines: said } of refusals) {
    lines.push('', `With ${actions} actions ${refusedBy} refused the copy, so nothing was measured at that size. It said:`, ...said.map((line) => `    ${line}`));
  }
  return lines.join('\n');
}

/** Runs the benchmark for each size and prints the table with the conditions it ran under; a refused size is a finding, not a crash. */
export async function runScaleBench(projectDirectory: string, sizes: number[], log: (line: string) => void = console.error): Promise<{ report: string; refused: boolean }> {
  const load = loadavg()[0] ?? 0;
  const rows: ScaleFigures[] = [];
  const refusals: ScaleRefusal[] = [];
  const started = performance.now();
  for (const size of sizes) {
    try {
      rows.push(await measureAtScale(projectDirectory, size, log));
    } catch (error) {
      if (!(error instanceof RunRefused)) throw error;
      log(`${size} actions: ${error.message}`);
      refusals.push({ actions: size, refusedBy: error.what, lines: error.lines });
    }
  }
  const first = rows[0];
  const last = rows.at(-1);
  const verdict =
    first && last && first !== last
      ? `The ${measuredAction} page with ${last.actions} actions is ${(last.actionPageGzipBytes / first.actionPageGzipBytes).toFixed(2)}× its gzip size with ${first.actions} (the limit is 1.5×).`
      : '';
  const report = [
    `${new Date().toISOString().slice(0, 10)}, one-minute load ${load.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end, ${seconds(started).toFixed(0)} s in all. Gate and build: the faster of ${timedRuns} runs. Sandbox: ${sandboxRequests} requests, MCP: ${actionDetailsCalls} action_details calls, each ${sandboxConcurrency} at a time after ${warmUp} to warm up.`,
    '',
    formatScaleReport(rows),
    '',
    verdict,
    formatFindings(rows, refusals),
  ].join('\n');
  return { report, refused: refusals.length > 0 };
}
