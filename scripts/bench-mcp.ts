/**
 * `npm run bench:mcp`: tool calls per second, p50 and p99 latency with 32 concurrent clients on
 * 127.0.0.1, and resident memory, for the product-information server and, beside it in the same
 * run, the bare SDK answering the same number of bytes (scripts/bench/bare-mcp-server.ts). Rounds
 * alternate between the two so that a busy machine slows both alike; medians are reported.
 *   npm run bench:mcp -- [--clients 32] [--seconds 4] [--rounds 3] [--node-flags="--max-old-space-size=48 …"]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { median, percentile } from '../src/lib/measures/statistics.ts';
import { bundleForNode, mcpServerBundle } from './build-mcp-server.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const usage = 'Usage: npm run bench:mcp -- [--clients N] [--seconds N] [--rounds N] [--node-flags "--flag …"]';
const { values } = scriptArguments(usage, { clients: { type: 'string' }, seconds: { type: 'string' }, rounds: { type: 'string' }, 'node-flags': { type: 'string' } });
const clients = wholeNumberOption(usage, 'clients', values.clients, 32, 1);
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
}

function start(name: string, args: string[], tool: string, urlOf: (line: string) => string | undefined): Promise<Target> {
  const child = spawn(process.execPath, [...heapFlags, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const url = buffer.split('\n').map(urlOf).find((candidate) => candidate !== undefined);
      if (url !== undefined) resolve({ name, child, url, tool });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

async function call(target: Target, id: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(target.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: target.tool, arguments: {} } }),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"result"')) throw new Error(`${target.name}: ${response.status} ${text.slice(0, 200)}`);
  return performance.now() - started;
}

async function round(target: Target): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let id = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) latencies.push(await call(target, ++id));
    }),
  );
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

function peakResidentMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

// Both run as `npm run mcp` runs ours: bundled into JavaScript, so neither carries Node's TypeScript stripping.
const oursBundle = await bundleForNode('scripts/mcp.ts', mcpServerBundle);
const bareBundle = await bundleForNode('scripts/bench/bare-mcp-server.ts', '.generated/bare-mcp-server.js');
const ours = await start('ours', [oursBundle, '--port', '0'], 'api_overview', (line) => /at (http:\/\/\S+\/mcp)$/.exec(line)?.[1]);
const overviewBytes = (await (await fetch(ours.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'api_overview', arguments: {} } }) })).text()).length;
const bare = await start('bare SDK', [bareBundle, '--answer-bytes', String(Math.round(overviewBytes / 2))], 'answer', (line) => (/^\d+$/.test(line.trim()) ? `http://127.0.0.1:${line.trim()}/mcp` : undefined));
const loadBefore = loadavg()[0] ?? 0;
const results = new Map<string, { perSecond: number; p50: number; p99: number }[]>([[ours.name, []], [bare.name, []]]);
try {
  for (const target of [ours, bare]) await round({ ...target }); // warm-up
  for (let index = 0; index < rounds; index += 1) {
    for (const target of index % 2 === 0 ? [ours, bare] : [bare, ours]) results.get(target.name)?.push(await round(target));
  }
  const summary = [ours, bare].map((target) => {
    const runs = results.get(target.name) ?? [];
    return { name: target.name, perSecond: median(runs.map((run) => run.perSecond)), p50: median(runs.map((run) => run.p50)), p99: median(runs.map((run) => run.p99)), rss: peakResidentMiB(target.child) };
  });
  const [mine, simplest] = summary;
  console.log(`${new Date().toISOString().slice(0, 10)}, ${clients} clients on 127.0.0.1, ${rounds} rounds of ${seconds} s each (median), one-minute load ${loadBefore.toFixed(1)} at the start; answer ${overviewBytes} bytes; node ${heapFlags.join(' ')}`);
  console.log('| Server | Tool calls/s | p50 | p99 | Peak resident memory |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of summary) console.log(`| ${row.name} | ${row.perSecond.toFixed(0)} | ${row.p50.toFixed(1)} ms | ${row.p99.toFixed(1)} ms | ${row.rss.toFixed(0)} MiB |`);
  if (mine !== undefined && simplest !== undefined) console.log(`Ours reaches ${((mine.perSecond / simplest.perSecond) * 100).toFixed(0)} % of the bare SDK's calls per second; p99 ${((mine.p99 / simplest.p99) * 100).toFixed(0)} % of its.`);
} finally {
  ours.child.kill();
  bare.child.kill();
}
