/**
 * `node scripts/bench-mcp-worker.ts`: the CPU time each tool of the product-information server
 * takes in workerd, as deployed (the module `npm run build:worker` bundles, run by Miniflare under
 * wrangler.jsonc's compatibility date), beside the simplest worker that answers the same number of
 * bytes, in the same run.
 *
 * How CPU time is observed: workerd reports none to the worker itself (its clocks stand still while
 * code runs) and Miniflare none to the caller, so this reads the workerd process's own CPU time
 * from Linux, the sum of /proc/PID/task/TID/schedstat's first field (nanoseconds on a CPU) over its
 * threads, before and after each call, one call at a time on an otherwise idle workerd. That counts
 * workerd's HTTP handling, Miniflare's entry worker and V8's platform threads (background
 * compilation, concurrent marking) as well as the tool, so a figure is an upper bound of the CPU
 * time Cloudflare would count for the request; the column "Main thread p99" counts workerd's main
 * thread alone, which runs the isolate and the collections it waits for. The bare worker's row
 * shows what that overhead alone costs, and the bare SDK's row (scripts/bench/bare-mcp-worker.ts:
 * the SDK's stateless handler answering one tool with as many characters) what the SDK costs a
 * tool call. The start-up (workerd's CPU until the worker is ready: its own start and the
 * worker's global scope, which builds the handler and loads the knowledge) and the first request
 * are reported on their own line, beside a bare worker's start-up.
 *   node scripts/bench-mcp-worker.ts [--repeat N] [--calls N] [--warm-up N] [--era legacy|modern|both] [--module PATH] [--gc]
 * Each call is made N times (5 unless told), and each tool at least --calls times (1,000 unless
 * told; a tool's arguments are cycled): a p99 is the 10th slowest of 1,000 calls, where of 200 it
 * was the 3rd, so that two collections falling in one tool's calls decided it. Before any call
 * counts, --warm-up passes (10 unless told) over every tool's arguments warm the isolate up, as one
 * serving a stream of requests is: without them, V8 compiles the tools' code on its own threads
 * while the first tools are measured, and that CPU fell in their calls; the bare SDK's worker and
 * the bare worker get as many calls first. --era picks the protocol era the calls speak, ours
 * and the bare SDK alike: `legacy` (the default) as the SDK's v2 client sends a call unless told
 * otherwise (its `versionNegotiation` defaults to the 2025 era: no envelope, `MCP-Protocol-Version`
 * of the 2025 revision, answered as one server-sent event), `modern` as a client pinned to
 * 2026-07-28 sends it (the per-request `_meta` envelope and the `Mcp-Method`/`Mcp-Name` headers,
 * answered as JSON), and `both` measures each era in turn, each on workers of its own, and prints
 * a table for each. --module runs another bundle of the worker (one an earlier commit's
 * `npm run build:worker` wrote, kept aside under the project) instead of building this
 * checkout's, so that two versions can be measured in turn under the same conditions. --gc runs
 * workerd with V8's --trace-gc (through Miniflare's MINIFLARE_WORKERD_V8_FLAGS), each line written
 * as it comes, and prints, for each worker, its collections while the calls were measured: how
 * many, how long, and how much of the young generation each scavenge kept, which is what the
 * slowest calls pay for.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { loadavg } from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { percentile } from '../src/lib/measures/statistics.ts';
import { readKnowledgeSource } from '../src/mcp-server/load-knowledge.ts';
import { mcpPath } from '../src/mcp-server/http.ts';
import { readWranglerConfig } from '../src/mcp-server/wrangler-config.ts';
import { buildWorker } from './build-worker.ts';
import { bundleBareSdk } from './bench/bare-sdk-bundle.ts';
import { eraRevisions, erasOption, listedTools, toolCallArguments, toolCallRequest, toolsListBody, type Era, type ListedTool } from './bench/tool-calls.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const usage = 'Usage: node scripts/bench-mcp-worker.ts [--repeat N] [--calls N] [--warm-up N] [--era legacy|modern|both] [--module PATH] [--gc]';
const { values } = scriptArguments(usage, { repeat: { type: 'string' }, calls: { type: 'string' }, 'warm-up': { type: 'string' }, era: { type: 'string' }, module: { type: 'string' }, gc: { type: 'boolean' } });
const eras = erasOption(usage, values.era);
const traceGc = values.gc === true;
// Read by Miniflare when it starts workerd: every isolate then prints its collections on workerd's stdout.
if (traceGc) process.env.MINIFLARE_WORKERD_V8_FLAGS = '--trace-gc';
// workerd's stdout is a pipe, which the C library fills 4 KB at a time, and Miniflare kills workerd
// when it is disposed, so the collections still in that buffer would be lost. coreutils' stdbuf
// library, preloaded into the processes this one starts, makes workerd write each line as it comes.
const lineBuffering = ['/usr/libexec/coreutils/libstdbuf.so', '/usr/lib/coreutils/libstdbuf.so'].find((library) => existsSync(library));
if (traceGc && lineBuffering !== undefined) {
  process.env.LD_PRELOAD = lineBuffering;
  process.env._STDBUF_O = 'L';
} else if (traceGc) {
  console.log("coreutils' libstdbuf.so is not here: workerd's last collections before each worker stops may be missing from the figures.");
}
const repeat = wholeNumberOption(usage, 'repeat', values.repeat, 5, 1);
// A p99 of fewer calls than this is its maximum: a tool that takes one set of arguments (api_overview)
// would be judged by its one slowest call, whatever fell in it. Its arguments are cycled up to this count.
const minimumCalls = wholeNumberOption(usage, 'calls', values.calls, 1000, 1);
const warmUpPasses = wholeNumberOption(usage, 'warm-up', values['warm-up'], 10, 1);
const root = path.resolve(import.meta.dirname, '..');

const wrangler = readWranglerConfig(root);

/** The workerd processes this process started, by their parent's id in /proc. */
function workerdProcesses(): Set<number> {
  const found = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = /\((.*)\)/s.exec(stat)?.[1] ?? '';
      const parent = Number(stat.replace(/^.*\) /s, '').split(' ')[1]);
      if (command.startsWith('workerd') && parent === process.pid) found.add(Number(entry));
    } catch {
      // A process that ended while the list was read.
    }
  }
  return found;
}

/** Nanoseconds one thread of a process has spent on a CPU, as Linux's scheduler counts them. */
function threadNanoseconds(pid: number, thread: number | string): number {
  return Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
}

/** Nanoseconds a process's threads have spent on a CPU. */
function cpuNanoseconds(pid: number): number {
  let total = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += threadNanoseconds(pid, thread);
    } catch {
      // A thread that ended while the list was read.
    }
  }
  return total;
}

/**
 * Nanoseconds workerd's main thread has spent on a CPU. It runs the isolate, so this is the part of
 * the process's time that the worker's JavaScript and the collections it waits for take; V8's
 * platform threads (\`V8 DefaultWorker\`: background compilation, concurrent marking, parallel
 * scavenging's helpers) take the rest.
 */
function mainThreadNanoseconds(pid: number): number {
  return threadNanoseconds(pid, pid);
}

/** One collection as V8's --trace-gc prints it. */
interface Collection {
  isolate: string;
  /** When it began, in milliseconds since its isolate started. */
  atMs: number;
  kind: 'Scavenge' | 'Mark-Compact';
  heapAfterMb: number;
  pauseMs: number;
}

const collectionLine = /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (Scavenge|Mark-Compact) [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \//;

interface RunningWorker {
  url: URL;
  pid: number;
  /** The CPU workerd took until the worker was ready, in milliseconds: its own start and the worker's global scope. */
  startupMs: number;
  /** Collections printed so far, in order, when --gc is given. */
  collections: Collection[];
  /** Milliseconds since the worker was ready, the clock of a collection's `atMs` give or take its start-up. */
  elapsedMs: () => number;
  /** Stops workerd and waits for the last collections it printed. */
  dispose: () => Promise<void>;
}

/** A stretch of a worker's life, in milliseconds since it was ready. */
interface Window {
  fromMs: number;
  toMs: number;
}

async function startWorker(options: { scriptPath: string } | { script: string }): Promise<RunningWorker> {
  const before = workerdProcesses();
  const collections: Collection[] = [];
  // Lines arrive through a pipe: the last ones are read after workerd has stopped, when its output closes.
  let outputClosed: Promise<void> = Promise.resolve();
  const readCollections = (stdout: Readable, stderr: Readable) => {
    const lines = createInterface({ input: stdout });
    outputClosed = new Promise((resolve) => lines.once('close', resolve));
    lines.on('line', (line) => {
      const match = collectionLine.exec(line);
      if (match === null) console.log(line);
      else collections.push({ isolate: match[1] ?? '', atMs: Number(match[2]), kind: match[3] === 'Scavenge' ? 'Scavenge' : 'Mark-Compact', heapAfterMb: Number(match[4]), pauseMs: Number(match[5]) });
    });
    stderr.pipe(process.stderr);
  };
  const worker = new Miniflare({
    modules: true,
    ...options,
    compatibilityDate: wrangler.compatibility_date,
    compatibilityFlags: wrangler.compatibility_flags ?? [],
    ...(traceGc ? { handleRuntimeStdio: readCollections } : {}),
  });
  const url = new URL(mcpPath, await worker.ready);
  const readyAt = performance.now();
  const started = [...workerdProcesses()].filter((pid) => !before.has(pid));
  if (started.length !== 1 || started[0] === undefined) throw new Error(`Expected one new workerd process, found ${started.length}`);
  return {
    url,
    pid: started[0],
    startupMs: cpuNanoseconds(started[0]) / 1e6,
    collections,
    elapsedMs: () => performance.now() - readyAt,
    dispose: async () => {
      await worker.dispose();
      // Disposing may leave the pipe open a while; a second is more than its last lines need.
      await Promise.race([outputClosed, new Promise((resolve) => setTimeout(resolve, 1000))]);
    },
  };
}

/** The budget of a call at p99 (issue #43), and the pause that alone takes a call of a median of about 1 ms past it. */
const budgetMs = 5;
const longPauseMs = 4;

/** How many of `timings` (ms of CPU) are over the budget. */
function callsOverBudget(timings: readonly number[]): number {
  return timings.filter((cpu) => cpu > budgetMs).length;
}

/**
 * The collections of the worker's own isolate (the largest heap: Miniflare's entry worker runs in
 * an isolate of its own) within `window`, read once the worker is disposed: how many of each kind,
 * their pauses, and how much the heap kept after each scavenge grew, the young objects it moved
 * to the old generation. The isolate starts a little before the worker is ready, so the window
 * may take in a collection or two from just before it.
 */
function collectionSummary(worker: RunningWorker, window: Window, timings: readonly number[]): string {
  const measured = worker.collections.filter((entry) => entry.atMs >= window.fromMs && entry.atMs <= window.toMs);
  const largest = measured.reduce<Collection | undefined>((top, entry) => (top === undefined || entry.heapAfterMb > top.heapAfterMb ? entry : top), undefined);
  const own = measured.filter((entry) => entry.isolate === largest?.isolate);
  const pauses = (kind: Collection['kind']) => own.filter((entry) => entry.kind === kind).map((entry) => entry.pauseMs).sort((a, b) => a - b);
  const scavenges = pauses('Scavenge');
  const markCompacts = pauses('Mark-Compact');
  const kept = own.flatMap((entry, index) => {
    const previous = own[index - 1];
    return entry.kind === 'Scavenge' && previous?.kind === 'Scavenge' ? [entry.heapAfterMb - previous.heapAfterMb] : [];
  });
  kept.sort((a, b) => a - b);
  const figure = (values: number[], unit: string) => (values.length === 0 ? 'none' : `median ${percentile(values, 0.5).toFixed(2)}${unit}, max ${(values.at(-1) ?? 0).toFixed(2)}${unit}`);
  const longPauses = [...scavenges, ...markCompacts].filter((pause) => pause >= longPauseMs).length;
  const overBudget = callsOverBudget(timings);
  return `${scavenges.length} scavenges (pause ${figure(scavenges, ' ms')}; the heap grew by ${figure(kept, ' MB')} a scavenge), ${markCompacts.length} mark-compacts (pause ${figure(markCompacts, ' ms')}); ${longPauses} collections paused ${longPauseMs} ms or more, and ${overBudget} of ${timings.length} calls took over ${budgetMs} ms`;
}

const revisionOf = eraRevisions(root);

let requestId = 0;
/** One tools/call, and the CPU workerd spent on it, in milliseconds. */
async function timedCall(worker: RunningWorker, era: Era, name: string, args: Record<string, unknown>): Promise<{ cpu: number; mainThread: number; bytes: number }> {
  const { headers, body } = toolCallRequest(revisionOf, era, ++requestId, name, args);
  const mainBefore = mainThreadNanoseconds(worker.pid);
  const before = cpuNanoseconds(worker.pid);
  const response = await fetch(worker.url, { method: 'POST', headers: { ...headers, Host: worker.url.host }, body });
  const text = await response.text();
  const cpu = (cpuNanoseconds(worker.pid) - before) / 1e6;
  const mainThread = (mainThreadNanoseconds(worker.pid) - mainBefore) / 1e6;
  if (response.status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) throw new Error(`${name} ${JSON.stringify(args)}: ${response.status} ${text.slice(0, 300)}`);
  return { cpu, mainThread, bytes: text.length };
}

const scriptPath = values.module === undefined ? await buildWorker(root, () => {}) : path.resolve(values.module);
const source = await readKnowledgeSource(root);

/** The tools a worker lists, from its first request. */
async function listTools(worker: RunningWorker): Promise<ListedTool[]> {
  const listed = await fetch(worker.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: toolsListBody });
  return listedTools(await listed.text());
}

// Each era is measured on a worker of its own, so that its collections are its own.
const first = await startWorker({ scriptPath });
const cpuBeforeFirst = cpuNanoseconds(first.pid);
const tools = await listTools(first).catch(async (error: unknown) => {
  await first.dispose();
  throw error;
});
const firstCall = (cpuNanoseconds(first.pid) - cpuBeforeFirst) / 1e6;
let calls: Record<string, Record<string, unknown>[]>;
try {
  calls = toolCallArguments(root, source, tools);
} catch (error) {
  await first.dispose();
  throw error;
}
/** How many calls warm an isolate up: every tool's arguments, `warmUpPasses` times. */
const warmUpCalls = warmUpPasses * Object.values(calls).reduce((sum, argumentSets) => sum + argumentSets.length, 0);
type Row = { tool: string; calls: number; median: number; p99: number; max: number; mainThreadP99: number; bytes: number };
/** Every tool's calls in one era, each made `repeat` times after the uncounted warm-up passes. */
const measureOurs = async (worker: RunningWorker, era: Era): Promise<{ rows: Row[]; timings: number[]; window: Window }> => {
  const rows: Row[] = [];
  const toolNames = tools.map((listedTool) => listedTool.name);
  for (let pass = 0; pass < warmUpPasses; pass += 1) for (const tool of toolNames) for (const args of calls[tool] ?? []) await timedCall(worker, era, tool, args);
  const fromMs = worker.elapsedMs();
  const allTimings: number[] = [];
  for (const tool of toolNames) {
    const timings: number[] = [];
    const mainThreadTimings: number[] = [];
    let bytes = 0;
    const argumentSets = calls[tool] ?? [];
    const counted = Math.max(repeat * argumentSets.length, minimumCalls);
    for (let index = 0; index < counted; index += 1) {
      const call = await timedCall(worker, era, tool, argumentSets[index % argumentSets.length] ?? {});
      timings.push(call.cpu);
      mainThreadTimings.push(call.mainThread);
      allTimings.push(call.cpu);
      bytes += call.bytes;
    }
    timings.sort((a, b) => a - b);
    mainThreadTimings.sort((a, b) => a - b);
    rows.push({ tool, calls: timings.length, median: percentile(timings, 0.5), p99: percentile(timings, 0.99), max: timings.at(-1) ?? 0, mainThreadP99: percentile(mainThreadTimings, 0.99), bytes: Math.round(bytes / timings.length) });
  }
  return { rows, timings: allTimings, window: { fromMs, toMs: worker.elapsedMs() } };
};
const oursByEra = new Map<Era, { rows: Row[]; timings: number[]; collections: string }>();
for (const [index, era] of eras.entries()) {
  const worker = index === 0 ? first : await startWorker({ scriptPath });
  let measured: Awaited<ReturnType<typeof measureOurs>>;
  try {
    if (index > 0) await listTools(worker);
    measured = await measureOurs(worker, era);
  } finally {
    await worker.dispose();
  }
  oursByEra.set(era, { rows: measured.rows, timings: [...measured.timings].sort((a, b) => a - b), collections: traceGc ? collectionSummary(worker, measured.window, measured.timings) : '' });
}
// The simplest worker answering the same bytes: a fixed response, no SDK, no knowledge.
const firstRows = oursByEra.get(eras[0] ?? 'legacy')?.rows ?? [];
const answerBytes = Math.round(firstRows.reduce((sum, row) => sum + row.bytes, 0) / Math.max(firstRows.length, 1));
const fixed = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(answerBytes) }] } });
type BareFigures = { timings: number[]; mainThreadTimings: number[]; collections: string };
/** A bare worker called as many times uncounted as ours is warmed up, then `count` times, in one era; disposed after. */
const timeBare = async (worker: RunningWorker, count: number, era: Era): Promise<BareFigures> => {
  const timings: number[] = [];
  const mainThreadTimings: number[] = [];
  let window: Window;
  try {
    for (let call = 0; call < warmUpCalls; call += 1) await timedCall(worker, era, 'answer', {});
    const fromMs = worker.elapsedMs();
    for (let call = 0; call < count; call += 1) {
      const timed = await timedCall(worker, era, 'answer', {});
      timings.push(timed.cpu);
      mainThreadTimings.push(timed.mainThread);
    }
    window = { fromMs, toMs: worker.elapsedMs() };
  } finally {
    await worker.dispose();
  }
  timings.sort((a, b) => a - b);
  mainThreadTimings.sort((a, b) => a - b);
  return { timings, mainThreadTimings, collections: traceGc ? collectionSummary(worker, window, timings) : '' };
};
const bareSdkPath = await bundleBareSdk(root, 'workerd', JSON.stringify('x'.repeat(answerBytes)));
const bareSdkByEra = new Map<Era, BareFigures>();
for (const era of eras) bareSdkByEra.set(era, await timeBare(await startWorker({ scriptPath: bareSdkPath }), Math.max(repeat * 100, minimumCalls), era));
// The bare worker reads no request: one era is enough.
const bareWorker = await startWorker({ script: `const body = ${JSON.stringify(fixed)};\nexport default { fetch() { return new Response(body, { headers: { 'Content-Type': 'application/json' } }); } };` });
const bare = await timeBare(bareWorker, Math.max(repeat * 50, minimumCalls), 'legacy');
const bareTimings = bare.timings;
console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load ${loadavg()[0]?.toFixed(1)}, workerd (Miniflare) at compatibility date ${wrangler.compatibility_date}, ${path.relative(root, scriptPath)}, one call at a time after ${warmUpCalls} to warm each worker up, each call ${repeat} times and each tool at least ${minimumCalls} times; CPU is workerd's whole process (an upper bound)`);
// Cloudflare gives a worker's global scope 1 s of CPU to start (its start-up limit) and a request 10 ms on the free plan.
console.log(`Start-up: ${first.startupMs.toFixed(0)} ms of workerd's CPU until ready (workerd's own start and the worker's global scope, which builds the handler and loads the knowledge), a bare worker's ${bareWorker.startupMs.toFixed(0)} ms; the first request (tools/list): ${firstCall.toFixed(1)} ms of CPU`);
for (const era of eras) {
  const { rows, timings: allCalls, collections } = oursByEra.get(era) ?? { rows: [], timings: [], collections: '' };
  const bareSdk = bareSdkByEra.get(era) ?? { timings: [], mainThreadTimings: [], collections: '' };
  console.log(`\nThe ${era} era (MCP-Protocol-Version ${revisionOf[era]}), each on a worker of its own:`);
  console.log('| Tool | Calls | CPU median | CPU p99 | CPU max | Main thread p99 | Answer bytes |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(`| ${row.tool} | ${row.calls} | ${row.median.toFixed(2)} ms | ${row.p99.toFixed(2)} ms | ${row.max.toFixed(2)} ms | ${row.mainThreadP99.toFixed(2)} ms | ${row.bytes} |`);
  console.log(`| bare SDK worker, one tool of ${answerBytes} characters | ${bareSdk.timings.length} | ${percentile(bareSdk.timings, 0.5).toFixed(2)} ms | ${percentile(bareSdk.timings, 0.99).toFixed(2)} ms | ${(bareSdk.timings.at(-1) ?? 0).toFixed(2)} ms | ${percentile(bareSdk.mainThreadTimings, 0.99).toFixed(2)} ms | |`);
  console.log(`| bare worker, ${answerBytes} fixed bytes | ${bareTimings.length} | ${percentile(bareTimings, 0.5).toFixed(2)} ms | ${percentile(bareTimings, 0.99).toFixed(2)} ms | ${(bareTimings.at(-1) ?? 0).toFixed(2)} ms | ${percentile(bare.mainThreadTimings, 0.99).toFixed(2)} ms | ${fixed.length} |`);
  const worst = rows.reduce((slowest, row) => (row.p99 > slowest.p99 ? row : slowest));
  console.log(`Slowest tool at p99 (${era}): ${worst.tool}, ${worst.p99.toFixed(2)} ms of CPU (aim: at most 5 ms), ${(worst.p99 / Math.max(percentile(bareTimings, 0.99), 0.001)).toFixed(1)} times the bare worker's p99, ${(worst.p99 / Math.max(percentile(bareSdk.timings, 0.99), 0.001)).toFixed(1)} times the bare SDK's.`);
  // Which tool a slow call falls in is chance (a collection lands in whichever call allocates when it is due); the share of all calls is not.
  const overBudget = (timings: readonly number[]) => {
    const slow = callsOverBudget(timings);
    return `${slow} of ${timings.length} (${((100 * slow) / Math.max(timings.length, 1)).toFixed(2)} %)`;
  };
  console.log(`All calls (${era}): p99 ${percentile(allCalls, 0.99).toFixed(2)} ms of CPU, ${overBudget(allCalls)} over ${budgetMs} ms; the bare SDK's p99 ${percentile(bareSdk.timings, 0.99).toFixed(2)} ms, ${overBudget(bareSdk.timings)} over ${budgetMs} ms.`);
  const worstMain = rows.reduce((slowest, row) => (row.mainThreadP99 > slowest.mainThreadP99 ? row : slowest));
  console.log(`Slowest on workerd's main thread at p99 (${era}): ${worstMain.tool}, ${worstMain.mainThreadP99.toFixed(2)} ms (the bare SDK's ${percentile(bareSdk.mainThreadTimings, 0.99).toFixed(2)} ms).`);
  if (traceGc) {
    console.log(`Collections while ours was measured (${era}): ${collections}.`);
    console.log(`While the bare SDK worker was (${era}): ${bareSdk.collections}.`);
  }
}
if (traceGc) console.log(`While the bare worker was: ${bare.collections}.`);
