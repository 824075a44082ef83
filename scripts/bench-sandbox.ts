/**
 * `npm run bench:sandbox`: how fast the sandbox answers, beside the simplest server doing the same
 * I/O and beside Prism's mock of the same document, in one run on this machine.
 *
 *   npm run bench:sandbox [-- --seconds 4 --rounds 5]
 *
 * Each server runs in a process of its own; this process is the load: 16 clients on 127.0.0.1,
 * each sending one action after another over a kept-alive connection, toggling its own
 * subscription between two statuses so that every action writes. A round starts the three
 * servers afresh and, after a warm-up of each, drives them in turn in slices of half a second
 * (sandbox, bare, Prism, bare, Prism, sandbox, ...) until each has had its seconds, so that a busy
 * moment of the shared machine hits all three alike; the figures are medians over the rounds.
 * Before measuring, the sandbox's answer and the bare server's are compared: the same header
 * names in the same order and a body of the same size, or the run stops. Prism is installed on
 * first use into `.generated/bench-tools/`, pinned below. Writes `bench-results/sandbox-latest.md`.
 */
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { bundleContract } from '../src/lib/contract/bundle.ts';
import { asOpenApiDocument } from '../src/lib/contract/document.ts';
import { readExecutableContract } from '../src/lib/contract/executable-contract.ts';
import { median, percentile } from '../src/lib/measures/statistics.ts';
import { startChild } from './bench/start-child.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';
import { togglingLoad } from './bench-sandbox/toggling-pair.ts';

const projectDirectory = path.resolve(import.meta.dirname, '..');
const prismVersion = '5.16.0';
const clients = 16;
/** How long one server is driven before the next takes its turn. */
const sliceMs = 500;

const usage = 'Usage: npm run bench:sandbox -- [--seconds N] [--rounds N]';
const { values } = scriptArguments(usage, { seconds: { type: 'string' }, rounds: { type: 'string' } });
const seconds = wholeNumberOption(usage, 'seconds', values.seconds, 4, 1);
const rounds = wholeNumberOption(usage, 'rounds', values.rounds, 5, 1);

interface Target {
  name: string;
  /** Starts the server; resolves with its base URL (where the endpoint path is appended) and the process. */
  start(directory: string): Promise<{ baseUrl: string; path: string; child: ChildProcess }>;
}

interface Measurement {
  actionsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers other than the expected 200. */
  unexpected: number;
  peakRssMiB: number;
}

/** Peak resident memory of a process and its children, from /proc (Linux). */
function peakRssMiB(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  const visit = (id: number) => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'));
      total += Number(match?.[1] ?? 0);
    } catch {
      // Gone.
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return total / 1024;
}

/** One server as the load drives it: its kept-alive connections, and where each client is in its toggling. */
interface Driver {
  url: URL;
  agent: Agent;
  /** The next turn of each client: even sends the first action of its pair, odd the second. */
  turns: number[];
}

/** What one answer put on the wire, for the check that the bare server answers as the sandbox does. */
interface AnswerShape {
  headerNames: string[];
  headerBytes: number;
  bodyBytes: number;
}

interface Slice {
  latencies: number[];
  count: number;
  unexpected: number;
  elapsedMs: number;
  firstAnswer?: AnswerShape;
}

function driverFor(url: URL): Driver {
  return { url, agent: new Agent({ keepAlive: true, maxSockets: clients }), turns: Array.from({ length: clients }, () => 0) };
}

async function load(driver: Driver, bodies: [string, string][], durationMs: number, record: boolean): Promise<Slice> {
  const latencies: number[] = [];
  let count = 0;
  let unexpected = 0;
  let firstAnswer: AnswerShape | undefined;
  const started = performance.now();
  const deadline = started + durationMs;
  // A connection the server drops counts as an answer that is not 200 rather than ending the run.
  const send = (body: string) =>
    new Promise<number>((resolve) => {
      const outgoing = request(driver.url, { method: 'POST', agent: driver.agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (incoming) => {
        let bodyBytes = 0;
        incoming.on('data', (chunk: Buffer) => {
          bodyBytes += chunk.length;
        });
        incoming.on('end', () => {
          if (firstAnswer === undefined) {
            const names = incoming.rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase());
            firstAnswer = { headerNames: names, headerBytes: incoming.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part), 0), bodyBytes };
          }
          resolve(incoming.statusCode ?? 0);
        });
        incoming.on('error', () => resolve(0));
      });
      outgoing.on('error', () => resolve(0));
      outgoing.end(body);
    });
  await Promise.all(
    bodies.map(async (pair, client) => {
      while (performance.now() < deadline) {
        const turn = driver.turns[client] ?? 0;
        const sent = performance.now();
        const status = await send(pair[turn % 2] ?? '');
        if (record) latencies.push(performance.now() - sent);
        count += 1;
        // A refused action leaves the subscription where it was, so the client sends it again.
        if (status === 200) driver.turns[client] = turn + 1;
        else unexpected += 1;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  return { latencies, count, unexpected, elapsedMs, ...(firstAnswer === undefined ? {} : { firstAnswer }) };
}

/** Stops the run when the bare server's answer is not the sandbox's on the wire: a limit that sends less is no limit. */
function checkSameAnswer(sandbox: AnswerShape | undefined, bare: AnswerShape | undefined): string {
  const date = (name: string) => name !== 'date';
  const sandboxNames = sandbox?.headerNames.filter(date).join(', ');
  const bareNames = bare?.headerNames.filter(date).join(', ');
  if (sandbox === undefined || bare === undefined || sandboxNames !== bareNames || sandbox.bodyBytes !== bare.bodyBytes) {
    throw new Error(`The bare server does not answer as the sandbox does: sandbox ${JSON.stringify(sandbox)}, bare ${JSON.stringify(bare)}. Bring scripts/bench-sandbox/bare-server.ts in line with the sandbox's answer.`);
  }
  return `the bare server's answer has the sandbox's ${sandbox.headerNames.length} headers in the same order (${bare.headerBytes} bytes of names and values against ${sandbox.headerBytes}) and a body of the same ${sandbox.bodyBytes} bytes`;
}

async function ensurePrism(): Promise<string> {
  const directory = path.join(projectDirectory, '.generated/bench-tools/prism');
  const binary = path.join(directory, 'node_modules/.bin/prism');
  const installed = path.join(directory, 'node_modules/@stoplight/prism-cli/package.json');
  if (!existsSync(installed) || (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version !== prismVersion) {
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, 'package.json'), '{ "private": true }\n');
    console.log(`Installing @stoplight/prism-cli@${prismVersion} into ${path.relative(projectDirectory, directory)} ...`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `@stoplight/prism-cli@${prismVersion}`], { cwd: directory, stdio: 'inherit' });
  }
  return binary;
}

async function main(): Promise<void> {
  const bundle = bundleContract(projectDirectory, undefined, '.generated/bench-sandbox');
  const contract = readExecutableContract(asOpenApiDocument(bundle.document, bundle.jsonPath));
  const { model } = contract;
  // Two fixed actions that undo each other, so every request of a client changes its subscription.
  const pair = togglingLoad(contract, clients);
  const { initial, bodies } = pair;
  const prism = await ensurePrism();

  const targets: Target[] = [
    {
      name: 'sandbox',
      start: async (directory) => {
        const { url, child } = await startChild(process.execPath, ['scripts/bench-sandbox/serve-sandbox.ts', path.join(directory, 'sandbox.sqlite'), String(clients), initial], /^(http:\S+)\n/m, projectDirectory);
        return { baseUrl: url, path: model.endpoint.urlPath, child };
      },
    },
    {
      name: 'bare node:http + node:sqlite',
      start: async (directory) => {
        const { url, child } = await startChild(
          process.execPath,
          ['scripts/bench-sandbox/bare-server.ts', path.join(directory, 'bare.sqlite'), String(clients), initial, `${pair.there.action.identifier}=${pair.there.to}`, `${pair.back.action.identifier}=${pair.back.to}`],
          /^(http:\S+)\n/m,
          projectDirectory,
        );
        return { baseUrl: url, path: model.endpoint.urlPath, child };
      },
    },
    {
      name: `Prism ${prismVersion} mock`,
      start: async () => {
        const port = 40_000 + Math.floor(Math.random() * 10_000);
        const { child } = await startChild(prism, ['mock', bundle.jsonPath, '--host', '127.0.0.1', '--port', String(port)], /(Prism is listening)/, projectDirectory);
        // Prism serves the document's paths without the server URL's path, which holds a variable.
        return { baseUrl: `http://127.0.0.1:${port}`, path: model.endpoint.path, child };
      },
    },
  ];

  const results = new Map<string, Measurement[]>();
  const loadBefore = loadavg()[0] ?? 0;
  let sameAnswer = '';
  for (let round = 1; round <= rounds; round += 1) {
    const running: { target: Target; child: ChildProcess; directory: string; driver: Driver; slices: Slice[] }[] = [];
    try {
      for (const target of targets) {
        const directory = mkdtempSync(path.join(tmpdir(), 'bench-sandbox-'));
        const { baseUrl, path: endpointPath, child } = await target.start(directory).catch((error: unknown) => {
          rmSync(directory, { recursive: true, force: true });
          throw error;
        });
        running.push({ target, child, directory, driver: driverFor(new URL(`${baseUrl}${endpointPath}`)), slices: [] });
      }
      const warmUps = [];
      for (const server of running) warmUps.push(await load(server.driver, bodies, 1500, false));
      if (round === 1) sameAnswer = checkSameAnswer(warmUps[0]?.firstAnswer, warmUps[1]?.firstAnswer);
      const slicesEach = Math.max(1, Math.round((seconds * 1000) / sliceMs));
      for (let slice = 0; slice < slicesEach; slice += 1) {
        // Each slice starts with the next server, so none always follows the same one.
        for (let turn = 0; turn < running.length; turn += 1) {
          const server = running[(slice + turn) % running.length];
          if (server !== undefined) server.slices.push(await load(server.driver, bodies, sliceMs, true));
        }
      }
      for (const { target, child, slices } of running) {
        const sorted = slices.flatMap((slice) => slice.latencies).sort((left, right) => left - right);
        const count = slices.reduce((sum, slice) => sum + slice.count, 0);
        const elapsedMs = slices.reduce((sum, slice) => sum + slice.elapsedMs, 0);
        const measurement = {
          actionsPerSecond: count / (elapsedMs / 1000),
          p50: percentile(sorted, 0.5),
          p99: percentile(sorted, 0.99),
          unexpected: slices.reduce((sum, slice) => sum + slice.unexpected, 0),
          peakRssMiB: child.pid === undefined ? Number.NaN : peakRssMiB(child.pid),
        };
        results.set(target.name, [...(results.get(target.name) ?? []), measurement]);
        console.log(`round ${round}, ${target.name}: ${measurement.actionsPerSecond.toFixed(0)} actions/s, p50 ${measurement.p50.toFixed(2)} ms, p99 ${measurement.p99.toFixed(2)} ms, peak RSS ${measurement.peakRssMiB.toFixed(0)} MiB${measurement.unexpected > 0 ? `, ${measurement.unexpected} answers not 200` : ''}`);
      }
    } finally {
      for (const { child, directory, driver } of running) {
        driver.agent.destroy();
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
        rmSync(directory, { recursive: true, force: true });
      }
    }
  }
  const loadAfter = loadavg()[0] ?? 0;

  const summary = [...results].map(([name, measurements]) => ({
    name,
    actionsPerSecond: median(measurements.map((measurement) => measurement.actionsPerSecond)),
    p50: median(measurements.map((measurement) => measurement.p50)),
    p99: median(measurements.map((measurement) => measurement.p99)),
    peakRssMiB: median(measurements.map((measurement) => measurement.peakRssMiB)),
    unexpected: measurements.reduce((sum, measurement) => sum + measurement.unexpected, 0),
  }));
  const sandbox = summary[0];
  const sandboxRounds = results.get(targets[0]?.name ?? '') ?? [];
  // Ratios are taken round by round, each against the run right beside it, and then the median:
  // a busy moment of the shared machine then weighs on both sides of a ratio alike.
  const roundRatio = (name: string, pick: (measurement: Measurement) => number) => {
    const rows = results.get(name) ?? [];
    return median(sandboxRounds.map((measurement, index) => pick(measurement) / pick(rows[index] ?? measurement)));
  };
  const percent = (value: number) => `${(value * 100).toFixed(0)} %`;
  const rows = summary.map((row) =>
    `| ${row.name} | ${row.actionsPerSecond.toFixed(0)} | ${row.p50.toFixed(2)} ms | ${row.p99.toFixed(2)} ms | ${row.peakRssMiB.toFixed(0)} MiB | ${percent(roundRatio(row.name, (measurement) => measurement.actionsPerSecond))} | ${percent(roundRatio(row.name, (measurement) => measurement.p99))} | ${row.unexpected} |`,
  );
  const perRound = sandboxRounds.map((measurement) => `${measurement.actionsPerSecond.toFixed(0)}/s, p99 ${measurement.p99.toFixed(1)} ms`).join('; ');
  const bareName = targets[1]?.name ?? '';
  const bareRounds = results.get(bareName) ?? [];
  const limitRatios = sandboxRounds.map((measurement, index) => measurement.actionsPerSecond / (bareRounds[index]?.actionsPerSecond ?? Number.NaN));
  const limitRatio = median(limitRatios);
  const date = new Date().toISOString().slice(0, 10);
  const report = [
    `Measured ${date} on ${cpus().length} cores with Node ${process.version}: ${clients} concurrent clients on 127.0.0.1, each toggling its own subscription with ${pair.there.action.identifier} and ${pair.back.action.identifier} over a kept-alive connection; ${rounds} rounds, each of ${seconds} s per server in interleaved slices of ${sliceMs} ms after a 1.5 s warm-up per server; medians over the rounds. One-minute load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end (the machine is shared).`,
    '',
    '| Server | Actions/s | p50 | p99 | Peak memory (RSS) | Sandbox throughput / this | Sandbox p99 / this | Answers not 200 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `The sandbox round by round: ${perRound}.`,
    `The sandbox's throughput over the bare server's (the limit), round by round: ${limitRatios.map((ratio) => ratio.toFixed(2)).join(', ')}; median ${limitRatio.toFixed(2)}, spread ${Math.min(...limitRatios).toFixed(2)} to ${Math.max(...limitRatios).toFixed(2)}. Aim: at least 0.80. ${limitRatio >= 0.8 ? 'Met.' : 'Not met in this run.'}`,
    `Same I/O: ${sameAnswer}; both commit one transaction per action that reads the status and writes it and a history row with its note.`,
    `Goal for the sandbox on 2 cores: at least 1,000 actions/s with p99 under 20 ms. ${sandbox !== undefined && sandbox.actionsPerSecond >= 1000 && sandbox.p99 < 20 ? 'Met.' : 'Not met in this run.'}`,
    `Prism answers every request with a stored example (here the first, whatever the action), keeps no state and writes nothing. The bare server commits every action to SQLite without validating it; the sandbox validates it against the document, applies the lifecycle and commits it.`,
  ].join('\n');
  mkdirSync(path.join(projectDirectory, 'bench-results'), { recursive: true });
  writeFileSync(path.join(projectDirectory, 'bench-results/sandbox-latest.md'), `${report}\n`);
  console.log(`\n${report}`);
}

await main();
