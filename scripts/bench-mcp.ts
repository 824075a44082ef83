/**
 * `npm run bench:mcp`: tool calls per second, p50 and p99 latency with 16 concurrent clients on
 * 127.0.0.1, the server's CPU time per call, and resident memory, for the product-information
 * server's `api_overview` and its `search_docs` (the evaluation's questions, one after another)
 * and, beside each in the same run, the bare SDK answering the same number of bytes
 * (scripts/bench/bare-mcp-server.ts). Rounds alternate between the four so that a busy machine
 * slows all alike; medians are reported. CPU per call is the server process's user and system
 * time over a round (/proc/PID/stat) divided by the calls it answered, the SDK's and HTTP's work
 * included; then, in this process, the CPU time of the search's own work (the tool's answer, from
 * the parsed arguments to the structured result) call by call, its median and p99.
 *   npm run bench:mcp -- [--clients 16] [--seconds 4] [--rounds 3] [--node-flags="--max-old-space-size=48 …"]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { median, percentile } from '../src/lib/measures/statistics.ts';
import { loadKnowledge } from '../src/mcp-server/load-knowledge.ts';
import { searchDocsTool } from '../src/mcp-server/tools/search-docs.ts';
import { bundleForNode, mcpServerBundle } from './build-mcp-server.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const usage = 'Usage: npm run bench:mcp -- [--clients N] [--seconds N] [--rounds N] [--node-flags "--flag …"]';
const { values } = scriptArguments(usage, { clients: { type: 'string' }, seconds: { type: 'string' }, rounds: { type: 'string' }, 'node-flags': { type: 'string' } });
const clients = wholeNumberOption(usage, 'clients', values.clients, 16, 1);
const seconds = wholeNumberOption(usage, 'seconds', values.seconds, 4, 1);
const rounds = wholeNumberOption(usage, 'rounds', values.rounds, 3, 1);
const root = path.resolve(import.meta.dirname, '..');
/** The Node flags of `npm run mcp` (package.json), for both servers, unless --node-flags names others to compare. */
function mcpScriptFlags(): string[] {
  const script = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.mcp ?? '';
  return script.split(/\s+/).filter((word) => word.startsWith('--'));
}
const heapFlags = values['node-flags'] === undefined ? mcpScriptFlags() : values['node-flags'].split(/\s+/).filter((word) => word !== '');

interface Target {
  name: string;
  child: ChildProcess;
  url: string;
  tool: string;
  /** The arguments of the nth call. */
  argumentsOf: (call: number) => Record<string, unknown>;
}

const noArguments = () => ({});

function start(name: string, args: string[], tool: string, urlOf: (line: string) => string | undefined): Promise<Target> {
  const child = spawn(process.execPath, [...heapFlags, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const url = buffer.split('\n').map(urlOf).find((candidate) => candidate !== undefined);
      if (url !== undefined) resolve({ name, child, url, tool, argumentsOf: noArguments });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

async function callText(url: string, id: number, tool: string, args: Record<string, unknown>): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } }),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) throw new Error(`${tool} at ${url}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

async function call(target: Target, id: number): Promise<number> {
  const started = performance.now();
  await callText(target.url, id, target.tool, target.argumentsOf(id));
  return performance.now() - started;
}

/** The kernel's unit of a process's CPU time in /proc (USER_HZ). */
const clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** The CPU time a process has used, in milliseconds, user and system (/proc/PID/stat's utime and stime). */
function cpuMilliseconds(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  // After the command's closing parenthesis, utime and stime are the 12th and 13th fields.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}

interface RoundResult {
  perSecond: number;
  p50: number;
  p99: number;
  cpuPerCall: number;
}

async function round(target: Target): Promise<RoundResult> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let id = 0;
  const cpuBefore = cpuMilliseconds(target.child);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) latencies.push(await call(target, ++id));
    }),
  );
  const cpuPerCall = (cpuMilliseconds(target.child) - cpuBefore) / latencies.length;
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), cpuPerCall };
}

function peakResidentMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * The CPU time of `search_docs`'s own answer to each query, call by call, in this process over the
 * same knowledge the server loads: what a search costs beyond the protocol.
 */
async function searchCpuPerCall(queries: string[], repetitions: number): Promise<number[]> {
  const answer = searchDocsTool.answer(await loadKnowledge(root));
  if (answer === undefined) throw new Error('search_docs has no answer here');
  const timings: number[] = [];
  for (let repetition = 0; repetition < repetitions + 1; repetition += 1) {
    for (const query of queries) {
      const started = process.cpuUsage();
      answer.run(answer.inputSchema.parse({ query }));
      const used = process.cpuUsage(started);
      // The first pass warms the code up and is not counted.
      if (repetition > 0) timings.push((used.user + used.system) / 1000);
    }
  }
  return timings.sort((a, b) => a - b);
}

/** The questions of the published evaluation, as results.json records them: what agents search for. */
function evaluationQueries(): string[] {
  const recorded = JSON.parse(readFileSync(path.join(root, 'src/mcp-server/evaluation/results.json'), 'utf8')) as { results: { question: string }[] };
  return recorded.results.map((result) => result.question);
}

// Both run as `npm run mcp` runs ours: bundled into JavaScript, so neither carries Node's TypeScript stripping.
const oursBundle = await bundleForNode('scripts/mcp.ts', mcpServerBundle);
const bareBundle = await bundleForNode('scripts/bench/bare-mcp-server.ts', '.generated/bare-mcp-server.js');
const ours = await start('ours: api_overview', [oursBundle, '--port', '0'], 'api_overview', (line) => /at (http:\/\/\S+\/mcp)$/.exec(line)?.[1]);
const queries = evaluationQueries();
const oursSearching: Target = { ...ours, name: 'ours: search_docs', tool: 'search_docs', argumentsOf: (call) => ({ query: queries[call % queries.length] }) };
const overviewBytes = (await callText(ours.url, 0, 'api_overview', {})).length;
let searchBytes = 0;
for (const [index, query] of queries.entries()) searchBytes += (await callText(ours.url, index, 'search_docs', { query })).length;
searchBytes = Math.round(searchBytes / queries.length);
const bareOf = (name: string, bytes: number) => start(name, [bareBundle, '--answer-bytes', String(Math.round(bytes / 2))], 'answer', (line) => (/^\d+$/.test(line.trim()) ? `http://127.0.0.1:${line.trim()}/mcp` : undefined));
const bare = await bareOf('bare SDK, overview\'s bytes', overviewBytes);
const bareSearchSized = await bareOf('bare SDK, a search\'s bytes', searchBytes);
const targets = [ours, bare, oursSearching, bareSearchSized];
const loadBefore = loadavg()[0] ?? 0;
const results = new Map<string, RoundResult[]>(targets.map((target) => [target.name, []]));
try {
  for (const target of targets) await round(target); // warm-up
  for (let index = 0; index < rounds; index += 1) {
    for (const target of index % 2 === 0 ? targets : [...targets].reverse()) results.get(target.name)?.push(await round(target));
  }
  const summary = targets.map((target) => {
    const runs = results.get(target.name) ?? [];
    return {
      name: target.name,
      perSecond: median(runs.map((run) => run.perSecond)),
      p50: median(runs.map((run) => run.p50)),
      p99: median(runs.map((run) => run.p99)),
      cpuPerCall: median(runs.map((run) => run.cpuPerCall)),
      rss: peakResidentMiB(target.child),
    };
  });
  console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${clients} clients on 127.0.0.1, ${rounds} rounds of ${seconds} s each (median), one-minute load ${loadBefore.toFixed(1)} at the start; api_overview answers ${overviewBytes} bytes, search_docs ${searchBytes} on average over the evaluation's ${queries.length} questions; node ${heapFlags.join(' ')}`);
  // Calls per CPU-second: what the one thread would answer with a core to itself, which a shared machine's load does not halve.
  console.log('| Server | Tool calls/s | p50 | p99 | Server CPU per call | Calls per CPU-second | Peak resident memory |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of summary) console.log(`| ${row.name} | ${row.perSecond.toFixed(0)} | ${row.p50.toFixed(1)} ms | ${row.p99.toFixed(1)} ms | ${row.cpuPerCall.toFixed(2)} ms | ${(1000 / row.cpuPerCall).toFixed(0)} | ${row.rss.toFixed(0)} MiB |`);
  const [overview, bareOverview, search, bareSearch] = summary;
  if (overview !== undefined && bareOverview !== undefined) console.log(`api_overview reaches ${((overview.perSecond / bareOverview.perSecond) * 100).toFixed(0)} % of the bare SDK's calls per second; p99 ${((overview.p99 / bareOverview.p99) * 100).toFixed(0)} % of its.`);
  if (search !== undefined && bareSearch !== undefined) console.log(`search_docs reaches ${((search.perSecond / bareSearch.perSecond) * 100).toFixed(0)} % of the bare SDK's calls per second (aim: 500 calls/s); ${search.cpuPerCall.toFixed(2)} ms of CPU a call against the bare SDK's ${bareSearch.cpuPerCall.toFixed(2)} ms (aim: at most 1 ms).`);
  const ownWork = await searchCpuPerCall(queries, 20);
  console.log(`search_docs's own work, in process, ${ownWork.length} calls: median ${percentile(ownWork, 0.5).toFixed(3)} ms of CPU a call, p99 ${percentile(ownWork, 0.99).toFixed(3)} ms (aim: a median of at most 1 ms).`);
} finally {
  ours.child.kill();
  bare.child.kill();
  bareSearchSized.child.kill();
}
