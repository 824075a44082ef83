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
 * workerd's HTTP handling and Miniflare's entry worker as well as the tool, so a figure is an upper
 * bound of the CPU time Cloudflare would count for the request; the bare worker's row shows what
 * that overhead alone costs, and the bare SDK's row (scripts/bench/bare-mcp-worker.ts: the SDK's
 * stateless handler answering one tool with as many characters) what the SDK costs a tool call.
 * The first request, which builds the handler and loads the knowledge, is reported on its own line,
 * and each tool's first pass over its arguments warms it up uncounted.
 *   node scripts/bench-mcp-worker.ts [--repeat N] [--era legacy|modern|both] [--module PATH] [--gc]
 * Each call is made N times (5 unless told). --era picks the protocol era the calls speak, both
 * workers alike: `legacy` (the default) as the SDK's v2 client sends a call unless told otherwise
 * (its `versionNegotiation` defaults to the 2025 era: no envelope, `MCP-Protocol-Version` of the
 * 2025 revision, answered as one server-sent event), `modern` as a client pinned to 2026-07-28
 * sends it (the per-request `_meta` envelope and the `Mcp-Method`/`Mcp-Name` headers, answered as
 * JSON), and `both` measures each era in turn on the same workers and prints a table for each. --module runs another bundle of the worker (one an
 * earlier commit's `npm run build:worker` wrote, kept aside under the project) instead of building
 * this checkout's, so that two versions can be measured in turn under the same conditions. --gc
 * runs workerd with V8's --trace-gc (through Miniflare's MINIFLARE_WORKERD_V8_FLAGS) and prints,
 * for each worker, its collections while the calls were measured: how many, how long, and how much
 * of the young generation each scavenge kept, which is what the slowest calls pay for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { build } from 'esbuild';
import { loadavg } from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { percentile } from '../src/lib/measures/statistics.ts';
import { readReferenceModel } from '../src/lib/contract/actions.ts';
import { llmsFullSections } from '../src/lib/site/llms-txt.ts';
import { readKnowledgeSource } from '../src/mcp-server/load-knowledge.ts';
import { readServerIdentity } from '../src/mcp-server/identity.ts';
import { mcpPath } from '../src/mcp-server/http.ts';
import { readWranglerConfig } from '../src/mcp-server/wrangler-config.ts';
import { buildWorker } from './build-worker.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const usage = 'Usage: node scripts/bench-mcp-worker.ts [--repeat N] [--era legacy|modern|both] [--module PATH] [--gc]';
const { values } = scriptArguments(usage, { repeat: { type: 'string' }, era: { type: 'string' }, module: { type: 'string' }, gc: { type: 'boolean' } });
type Era = 'legacy' | 'modern';
const eraChoices: Record<string, Era[]> = { legacy: ['legacy'], modern: ['modern'], both: ['legacy', 'modern'] };
const eras = eraChoices[values.era ?? 'legacy'];
if (eras === undefined) {
  console.error(`--era takes legacy, modern or both, not ${JSON.stringify(values.era)}.\n${usage}`);
  process.exit(2);
}
const traceGc = values.gc === true;
// Read by Miniflare when it starts workerd: every isolate then prints its collections on workerd's stdout.
if (traceGc) process.env.MINIFLARE_WORKERD_V8_FLAGS = '--trace-gc';
const repeat = wholeNumberOption(usage, 'repeat', values.repeat, 5, 1);
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

/** Nanoseconds a process's threads have spent on a CPU, as Linux's scheduler counts them. */
function cpuNanoseconds(pid: number): number {
  let total = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended while the list was read.
    }
  }
  return total;
}

/** One collection as V8's --trace-gc prints it. */
interface Collection {
  isolate: string;
  kind: 'Scavenge' | 'Mark-Compact';
  heapAfterMb: number;
  pauseMs: number;
}

const collectionLine = /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (Scavenge|Mark-Compact) [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \//;

interface RunningWorker {
  url: URL;
  pid: number;
  /** Collections printed so far, in order, when --gc is given. */
  collections: Collection[];
  dispose: () => Promise<void>;
}

async function startWorker(options: { scriptPath: string } | { script: string }): Promise<RunningWorker> {
  const before = workerdProcesses();
  const collections: Collection[] = [];
  const readCollections = (stdout: Readable, stderr: Readable) => {
    createInterface({ input: stdout }).on('line', (line) => {
      const match = collectionLine.exec(line);
      if (match === null) console.log(line);
      else collections.push({ isolate: match[1] ?? '', kind: match[2] === 'Scavenge' ? 'Scavenge' : 'Mark-Compact', heapAfterMb: Number(match[3]), pauseMs: Number(match[4]) });
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
  const started = [...workerdProcesses()].filter((pid) => !before.has(pid));
  if (started.length !== 1 || started[0] === undefined) throw new Error(`Expected one new workerd process, found ${started.length}`);
  return { url, pid: started[0], collections, dispose: () => worker.dispose() };
}

/**
 * The collections of the worker's own isolate (the largest heap: Miniflare's entry worker runs in
 * an isolate of its own) among those after `from`: how many of each kind, their pauses, and how
 * much the heap kept after each scavenge grew, the young objects it moved to the old generation.
 */
/** The budget of a call at p99 (issue #43), and the pause that alone takes a call of a median of about 1 ms past it. */
const budgetMs = 5;
const longPauseMs = 4;

function collectionSummary(worker: RunningWorker, from: number, timings: readonly number[]): string {
  const measured = worker.collections.slice(from);
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
  const overBudget = timings.filter((cpu) => cpu > budgetMs).length;
  return `${scavenges.length} scavenges (pause ${figure(scavenges, ' ms')}; the heap grew by ${figure(kept, ' MB')} a scavenge), ${markCompacts.length} mark-compacts (pause ${figure(markCompacts, ' ms')}); ${longPauses} collections paused ${longPauseMs} ms or more, and ${overBudget} of ${timings.length} calls took over ${budgetMs} ms`;
}

/**
 * The revisions a client of each era names, from the card: the newest it lists is the 2026-07-28
 * era's, the newest of the rest the 2025 era's.
 */
const cardVersions = [...readServerIdentity(root).supportedProtocolVersions].sort().reverse();
const revisionOf: Record<Era, string> = { modern: cardVersions[0] ?? '', legacy: cardVersions[1] ?? '' };

/** A tools/call's headers and body as the SDK's v2 client sends them in each era. */
function toolCallRequest(era: Era, id: number, name: string, args: Record<string, unknown>): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': revisionOf[era] };
  if (era === 'legacy') return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) };
  const envelope = { 'io.modelcontextprotocol/protocolVersion': revisionOf.modern, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return { headers: { ...headers, 'Mcp-Method': 'tools/call', 'Mcp-Name': name }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: envelope } }) };
}

let requestId = 0;
/** One tools/call, and the CPU workerd spent on it, in milliseconds. */
async function timedCall(worker: RunningWorker, era: Era, name: string, args: Record<string, unknown>): Promise<{ cpu: number; bytes: number }> {
  const { headers, body } = toolCallRequest(era, ++requestId, name, args);
  const before = cpuNanoseconds(worker.pid);
  const response = await fetch(worker.url, { method: 'POST', headers: { ...headers, Host: worker.url.host }, body });
  const text = await response.text();
  const cpu = (cpuNanoseconds(worker.pid) - before) / 1e6;
  if (response.status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) throw new Error(`${name} ${JSON.stringify(args)}: ${response.status} ${text.slice(0, 300)}`);
  return { cpu, bytes: text.length };
}

const scriptPath = values.module === undefined ? await buildWorker(root, () => {}) : path.resolve(values.module);
const source = await readKnowledgeSource(root);
const model = readReferenceModel(source.document);
const pages = llmsFullSections(source.llmsFullTxt);
const queries = (JSON.parse(readFileSync(path.join(root, 'src/mcp-server/evaluation/results.json'), 'utf8')) as { results: { question: string }[] }).results.map((result) => result.question);
const { envelope, lifecycle } = model;

const ours = await startWorker({ scriptPath });
try {
  const cpuBeforeFirst = cpuNanoseconds(ours.pid);
  const listed = await fetch(ours.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/list' }),
  });
  // The answer comes as one server-sent event or as JSON, as the client's Accept allows.
  const listedText = await listed.text();
  const { result } = JSON.parse(/^data: (.*)$/m.exec(listedText)?.[1] ?? listedText) as { result: { tools: { name: string; inputSchema: { properties?: Record<string, { enum?: string[] }> } }[] } };
  const enumOf = (tool: string, property: string) => result.tools.find((candidate) => candidate.name === tool)?.inputSchema.properties?.[property]?.enum ?? [];
  const languages = enumOf('code_sample', 'language');
  // Every tool on the arguments an agent gives it: each action, status, topic, language, page and evaluation question.
  const calls: Record<string, Record<string, unknown>[]> = {
    api_overview: [{}],
    action_details: model.actions.flatMap((action) => [{ action: action.identifier }, { action: action.identifier, errors: true }]),
    lifecycle: [{}, ...lifecycle.states.map((status) => ({ status }))],
    code_sample: model.actions.flatMap((action) => languages.map((language) => ({ action: action.identifier, language }))),
    check_request: model.actions.flatMap((action) => [
      { body: { [envelope.selector]: action.identifier, [envelope.subject]: 7, [envelope.credential]: 'placeholder-key' } },
      { body: { [envelope.selector]: action.identifier, [envelope.subject]: 7, [envelope.credential]: 'placeholder-key' }, current_status: lifecycle.states[0] },
    ]),
    search_docs: queries.map((query) => ({ query })),
    read_page: pages.map((page) => ({ url: page.url })),
    product_information: enumOf('product_information', 'topic').map((topic) => ({ topic })),
    subscription_data: [{}, { question: 'Can I list the subscriptions of a customer?' }],
  };
  const firstCall = (cpuNanoseconds(ours.pid) - cpuBeforeFirst) / 1e6;
  const unknown = result.tools.map((tool) => tool.name).filter((name) => calls[name] === undefined);
  if (unknown.length > 0) throw new Error(`No arguments for ${unknown.join(', ')}: add them to this bench`);
  type Row = { tool: string; calls: number; median: number; p99: number; max: number; bytes: number };
  /** Every tool's calls in one era, each made `repeat` times after an uncounted first pass. */
  const measureOurs = async (era: Era): Promise<{ rows: Row[]; collections: string }> => {
    const rows: Row[] = [];
    const collectionsFrom = ours.collections.length;
    const allTimings: number[] = [];
    for (const tool of result.tools.map((listedTool) => listedTool.name)) {
      const timings: number[] = [];
      let bytes = 0;
      // A first pass warms the tool's code up, as the isolate serving a stream of requests is; it is not counted.
      for (let round = 0; round <= repeat; round += 1) {
        for (const args of calls[tool] ?? []) {
          const call = await timedCall(ours, era, tool, args);
          if (round === 0) continue;
          timings.push(call.cpu);
          allTimings.push(call.cpu);
          bytes += call.bytes;
        }
      }
      timings.sort((a, b) => a - b);
      rows.push({ tool, calls: timings.length, median: percentile(timings, 0.5), p99: percentile(timings, 0.99), max: timings.at(-1) ?? 0, bytes: Math.round(bytes / timings.length) });
    }
    return { rows, collections: traceGc ? collectionSummary(ours, collectionsFrom, allTimings) : '' };
  };
  const oursByEra = new Map<Era, Awaited<ReturnType<typeof measureOurs>>>();
  for (const era of eras) oursByEra.set(era, await measureOurs(era));
  // The simplest worker answering the same bytes: a fixed response, no SDK, no knowledge.
  const firstRows = oursByEra.get(eras[0] ?? 'legacy')?.rows ?? [];
  const answerBytes = Math.round(firstRows.reduce((sum, row) => sum + row.bytes, 0) / Math.max(firstRows.length, 1));
  const fixed = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(answerBytes) }] } });
  // Each bare worker is called 50 times uncounted in each era, then `calls` times.
  type BareFigures = { timings: number[]; collections: string };
  const timeBare = async (worker: RunningWorker, calls: number, erasToTime: readonly Era[]): Promise<Map<Era, BareFigures>> => {
    const figures = new Map<Era, BareFigures>();
    try {
      for (const era of erasToTime) {
        const timings: number[] = [];
        for (let call = 0; call < 50; call += 1) await timedCall(worker, era, 'answer', {});
        const from = worker.collections.length;
        for (let call = 0; call < calls; call += 1) timings.push((await timedCall(worker, era, 'answer', {})).cpu);
        figures.set(era, { timings: timings.sort((a, b) => a - b), collections: traceGc ? collectionSummary(worker, from, timings) : '' });
      }
      return figures;
    } finally {
      await worker.dispose();
    }
  };
  const bareSdkPath = path.join(root, '.generated/bench-tools/bare-mcp-worker.js');
  await build({
    entryPoints: [path.join(root, 'scripts/bench/bare-mcp-worker.ts')],
    outfile: bareSdkPath,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2024',
    conditions: ['workerd', 'worker', 'browser'],
    define: { answerText: JSON.stringify('x'.repeat(answerBytes)) },
    logLevel: 'warning',
  });
  const bareSdkByEra = await timeBare(await startWorker({ scriptPath: bareSdkPath }), repeat * 100, eras);
  // The bare worker reads no request: one era is enough.
  const bare = (await timeBare(await startWorker({ script: `const body = ${JSON.stringify(fixed)};\nexport default { fetch() { return new Response(body, { headers: { 'Content-Type': 'application/json' } }); } };` }), repeat * 50, ['legacy'])).get('legacy') ?? { timings: [], collections: '' };
  const bareTimings = bare.timings;
  console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load ${loadavg()[0]?.toFixed(1)}, workerd (Miniflare) at compatibility date ${wrangler.compatibility_date}, ${path.relative(root, scriptPath)}, one call at a time, each call ${repeat} times; CPU is workerd's whole process (an upper bound)`);
  console.log(`First request (tools/list; builds the handler and loads the knowledge): ${firstCall.toFixed(1)} ms of CPU`);
  for (const era of eras) {
    const { rows, collections } = oursByEra.get(era) ?? { rows: [], collections: '' };
    const bareSdk = bareSdkByEra.get(era) ?? { timings: [], collections: '' };
    console.log(`\nThe ${era} era (MCP-Protocol-Version ${revisionOf[era]}):`);
    console.log('| Tool | Calls | CPU median | CPU p99 | CPU max | Answer bytes |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const row of rows) console.log(`| ${row.tool} | ${row.calls} | ${row.median.toFixed(2)} ms | ${row.p99.toFixed(2)} ms | ${row.max.toFixed(2)} ms | ${row.bytes} |`);
    console.log(`| bare SDK worker, one tool of ${answerBytes} characters | ${bareSdk.timings.length} | ${percentile(bareSdk.timings, 0.5).toFixed(2)} ms | ${percentile(bareSdk.timings, 0.99).toFixed(2)} ms | ${(bareSdk.timings.at(-1) ?? 0).toFixed(2)} ms | |`);
    console.log(`| bare worker, ${answerBytes} fixed bytes | ${bareTimings.length} | ${percentile(bareTimings, 0.5).toFixed(2)} ms | ${percentile(bareTimings, 0.99).toFixed(2)} ms | ${(bareTimings.at(-1) ?? 0).toFixed(2)} ms | ${fixed.length} |`);
    const worst = rows.reduce((slowest, row) => (row.p99 > slowest.p99 ? row : slowest));
    console.log(`Slowest tool at p99 (${era}): ${worst.tool}, ${worst.p99.toFixed(2)} ms of CPU (aim: at most 5 ms), ${(worst.p99 / Math.max(percentile(bareTimings, 0.99), 0.001)).toFixed(1)} times the bare worker's p99, ${(worst.p99 / Math.max(percentile(bareSdk.timings, 0.99), 0.001)).toFixed(1)} times the bare SDK's.`);
    if (traceGc) {
      // Pauses and calls are counted apart: workerd prints its collections through a buffer, so a line cannot be matched to the call it fell in.
      console.log(`Collections while ours was measured (${era}): ${collections}.`);
      console.log(`While the bare SDK worker was (${era}): ${bareSdk.collections}.`);
    }
  }
  if (traceGc) console.log(`While the bare worker was: ${bare.collections}.`);
} finally {
  await ours.dispose();
}
