/**
 * `npm run soak`: the product-information server and the sandbox, each in its own process as its
 * npm command starts it, driven together for a long while (an hour by default) by 16 clients on
 * 127.0.0.1, half on each. Not a test: it prints, minute by minute, the calls made, the errors,
 * p50 and p99 latency and each server's resident memory, then whether memory stayed flat (the
 * mean of the last ten minutes within 10 % of the mean of minutes 5 to 15). Exits 1 on any error
 * or on memory that grew.
 *
 *   npm run soak -- [--minutes 60] [--clients 16]
 *
 * The mix is what each server's users send:
 * - MCP: the plain agent of the published evaluation (src/mcp-server/evaluation/agent.ts) asking
 *   the evaluation's questions in turn through the SDK's own client over Streamable HTTP, a new
 *   session now and then as agents come and go; an error is a call that throws or answers isError.
 * - Sandbox: mostly actions that change a seeded subscription (so the database is written all hour
 *   long, as a shop's is), some repeats that answer unchanged and lifecycle refusals, with wrong
 *   keys, unknown subscriptions, broken JSON and missing fields mixed in. A move into a final
 *   status (one no action leads out of) is sent now and then to a subscription kept in reserve for
 *   it, so the clients' own subscriptions never get stuck where only repeats and refusals remain.
 *   An error is a failed connection, a 5xx, an answer that is not JSON, or a status and code the
 *   contract does not document for the action.
 * A request the server's closing of an idle kept-alive connection cut off is sent once more, as HTTP
 * allows, and counted apart from the errors.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { askAgent, type ListedTool } from '../src/mcp-server/evaluation/agent.ts';
import { evaluationQuestions } from '../src/mcp-server/evaluation/questions.ts';
import { readServerIdentity } from '../src/mcp-server/identity.ts';
import { readProductFacts } from '../src/lib/product-facts.ts';
import { loadGatedContract } from '../src/sandbox/contract-gate.ts';
import { validBody, wrongKeys } from '../src/conformance/cases.ts';
import { defaultApiKey } from '../src/sandbox/seed.ts';
import { percentile } from '../src/lib/measures/statistics.ts';
import { bundleForNode, mcpServerBundle } from './build-mcp-server.ts';
import { startChild } from './bench/start-child.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const usage = 'Usage: npm run soak -- [--minutes N] [--clients N]';
const { values } = scriptArguments(usage, { minutes: { type: 'string' }, clients: { type: 'string' } });
const minutes = wholeNumberOption(usage, 'minutes', values.minutes, 60, 1);
const clients = wholeNumberOption(usage, 'clients', values.clients, 16, 2);
const projectDirectory = path.resolve(import.meta.dirname, '..');

/** The memory check's windows, in whole minutes from the start: the settled early window and the last ten. */
const earlyWindow = { from: 5, to: 15 };
/** Subscriptions each sandbox client owns and moves around the lifecycle. */
const subscriptionsPerClient = 8;
/** One turn in this many sends a move into a final status, to a subscription of the client's reserve. */
const finalMoveEvery = 200;
/** Reserve subscriptions each sandbox client gets per minute of the soak, more than it uses at 300 actions a second. */
const reservePerClientMinute = 120;
const lastWindowMinutes = 10;
const flatShare = 0.1;

interface MinuteFigures {
  calls: number;
  errors: number;
  latencies: number[];
}

/** What one server did in the current minute, and in every minute before. */
class Tally {
  current: MinuteFigures = { calls: 0, errors: 0, latencies: [] };
  readonly errorSamples: string[] = [];

  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  record(milliseconds: number, error?: string): void {
    this.current.calls += 1;
    this.current.latencies.push(milliseconds);
    if (error !== undefined) {
      this.current.errors += 1;
      if (this.errorSamples.length < 20) {
        this.errorSamples.push(error);
        console.error(`${new Date().toISOString()} ${this.name} error: ${error}`);
      }
    }
  }

  take(): MinuteFigures {
    const taken = this.current;
    this.current = { calls: 0, errors: 0, latencies: [] };
    taken.latencies.sort((a, b) => a - b);
    return taken;
  }
}

function residentMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** The Node flags `npm run mcp` gives the server (package.json), so that it runs as deployed locally. */
function mcpScriptFlags(): string[] {
  const script = (JSON.parse(readFileSync(path.join(projectDirectory, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.mcp ?? '';
  return script.split(/\s+/).filter((word) => word.startsWith('--'));
}

const contract = await loadGatedContract(projectDirectory);
const { model } = contract;
const facts = readProductFacts(projectDirectory);
const identity = readServerIdentity(projectDirectory);
const questions = evaluationQuestions(model, facts, identity);
const mcpTally = new Tally('MCP');
const sandboxTally = new Tally('sandbox');

const mcpEntry = await bundleForNode('scripts/mcp.ts', mcpServerBundle);
const mcp = await startChild(process.execPath, [...mcpScriptFlags(), mcpEntry, '--port', '0'], /at (http:\/\/\S+\/mcp)\n/, projectDirectory);
const databaseDirectory = mkdtempSync(path.join(tmpdir(), 'soak-sandbox-'));
const sandboxClients = Math.floor(clients / 2);
const fixedActions = model.actions.flatMap((action) => (action.transition.kind === 'fixed' ? [{ action, from: action.transition.from, to: action.transition.to }] : []));
type FixedMove = (typeof fixedActions)[number];
const changes = (move: FixedMove, status: string) => move.from.includes(status) && move.to !== status;
/** The statuses some action leads out of: a subscription there can go on changing. */
const liveStates = new Set(model.lifecycle.states.filter((status) => fixedActions.some((move) => changes(move, status))));
/** Moves into a final status, and a live status each can be sent from. */
const finalMoves = fixedActions.flatMap((move) => {
  const from = move.from.find((status) => liveStates.has(status) && status !== move.to);
  return liveStates.has(move.to) || from === undefined ? [] : [{ move, from }];
});
// Each sandbox client owns its subscriptions, spread over the statuses it can go on changing from,
// and a reserve for the moves into a final status, seeded in the statuses those are sent from.
const ownStarts = [...liveStates];
const reservePerClient = finalMoves.length === 0 ? 0 : minutes * reservePerClientMinute;
const owned = Array.from({ length: sandboxClients }, (_, client) =>
  Array.from({ length: subscriptionsPerClient }, (_, index) => ({ id: client * subscriptionsPerClient + index + 1, status: ownStarts[index % ownStarts.length] ?? '' })),
);
const reserves = Array.from({ length: sandboxClients }, (_, client) =>
  Array.from({ length: reservePerClient }, (_, index) => {
    const final = finalMoves[index % finalMoves.length];
    if (final === undefined) throw new Error('no move into a final status to keep a reserve for');
    return { id: sandboxClients * subscriptionsPerClient + client * reservePerClient + index + 1, status: final.from, move: final.move };
  }),
);
const seed = [...owned.flat(), ...reserves.flat()].map(({ id, status }) => ({ id, status }));
writeFileSync(path.join(databaseDirectory, 'seed.json'), JSON.stringify(seed));
const sandbox = await startChild(process.execPath, ['scripts/sandbox.ts', '--port', '0', '--db', path.join(databaseDirectory, 'sandbox.sqlite'), '--seed', path.join(databaseDirectory, 'seed.json')], /Sandbox of POST (http:\S+)\n/, projectDirectory);
const endpoint = new URL(sandbox.url);

const started = performance.now();
const deadline = started + minutes * 60_000;
const agent = new Agent({ keepAlive: true, maxSockets: clients });

function post(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(endpoint, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', reject);
    });
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The status and code pairs the contract documents for each action, and its success status. */
const documented = new Map(model.actions.map((action) => [action.identifier, new Set(action.errors.map((error) => `${error.status} ${error.code ?? ''}`))]));
const successStatuses = new Set(model.responses.filter((response) => !response.isError).map((response) => Number(response.status)));
const statusCounts = new Map<string, number>();
/** Successful actions that moved a subscription to another status: each one a write to the database. */
let changesMade = 0;

function judge(action: string, kind: string, answer: { status: number; text: string }): string | undefined {
  statusCounts.set(`${kind} → ${answer.status}`, (statusCounts.get(`${kind} → ${answer.status}`) ?? 0) + 1);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `${kind} ${action}: ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 120)}`;
  }
  if (answer.status >= 500) return `${kind} ${action}: ${answer.status} ${answer.text.slice(0, 200)}`;
  if (successStatuses.has(answer.status)) return undefined;
  const code = typeof body === 'object' && body !== null && 'code' in body ? String(body.code) : '';
  if (!(documented.get(action)?.has(`${answer.status} ${code}`) ?? false)) return `${kind} ${action}: ${answer.status} ${code} is not documented for it`;
  return undefined;
}

/**
 * One sandbox client: it owns its subscriptions (none shared, so it knows each one's status) and
 * sends mostly what a shop's integration sends: an action that changes the subscription and leaves
 * it where it can change again, now and then a repeat (answered unchanged), and a move into a final
 * status on a subscription of its reserve; with a refused move, a wrong key, an unknown
 * subscription, broken JSON and a missing field mixed in.
 */
async function sandboxClient(index: number, own: { id: number; status: string }[], reserve: { id: number; status: string; move: FixedMove }[]): Promise<void> {
  const wrong = wrongKeys(model.envelope.credential, defaultApiKey);
  for (let turn = 0; performance.now() < deadline; turn += 1) {
    const kept = turn % finalMoveEvery === finalMoveEvery - 1 ? reserve.pop() : undefined;
    const subscription = kept ?? own[turn % own.length];
    if (subscription === undefined) throw new Error('a sandbox client owns no subscription');
    const onward = fixedActions.filter((move) => changes(move, subscription.status) && liveStates.has(move.to));
    const repeats = fixedActions.filter((move) => move.to === subscription.status);
    const allowed = turn % 10 === 9 && repeats.length > 0 ? repeats : onward.length > 0 ? onward : repeats;
    const refused = fixedActions.filter((move) => !move.from.includes(subscription.status) && move.to !== subscription.status);
    const slot = kept === undefined ? (turn * 37 + index) % 100 : 0;
    // From a status every action applies to, the slot of a refused move sends an allowed one.
    const refusing = slot >= 85 && slot < 90 && refused.length > 0;
    const choices = refusing ? refused : allowed;
    const move = kept?.move ?? choices[turn % Math.max(1, choices.length)] ?? fixedActions[turn % fixedActions.length];
    if (move === undefined) throw new Error('the contract has no action with a fixed move');
    const body = validBody(contract, move.action, { apiKey: defaultApiKey }, subscription.id);
    const { [model.envelope.subject]: _subject, ...withoutSubject } = body;
    const [kind, sent] =
      slot < 90 ? [refusing ? 'refused move' : 'allowed move', JSON.stringify(body)]
      : slot < 94 ? ['wrong key', JSON.stringify({ ...body, [model.envelope.credential]: wrong[turn % wrong.length]?.key ?? 'wrong' })]
      : slot < 97 ? ['unknown subscription', JSON.stringify({ ...body, [model.envelope.subject]: 900_000_000 + turn })]
      : slot < 99 ? ['broken JSON', JSON.stringify(body).slice(0, -1)]
      : ['missing field', JSON.stringify(withoutSubject)];
    const at = performance.now();
    try {
      const answer = await post(sent).catch((error: unknown) => {
        if (!closedUnderRequest(error)) throw error;
        resentAfterClose.sandbox += 1;
        return post(sent);
      });
      sandboxTally.record(performance.now() - at, judge(move.action.identifier, kind, answer));
      if (kind === 'allowed move' && successStatuses.has(answer.status)) {
        if (move.to !== subscription.status) changesMade += 1;
        subscription.status = move.to;
      }
    } catch (error) {
      sandboxTally.record(performance.now() - at, `${kind} ${move.action.identifier}: ${(error as Error).message}`);
    }
  }
}

/**
 * A server ends a kept-alive connection after it has been idle a while (Node's default: 5 s), and a
 * client whose own event loop lags (16 clients in one process) can send on it at that moment. HTTP
 * lets a client send such a request again on a new connection (RFC 9112, section 9.3.1), as
 * browsers do: both servers' requests are safe to repeat (the MCP server is read-only, the actions
 * are repeatable), so each is sent once more, and counted apart from the errors.
 */
const resentAfterClose = { mcp: 0, sandbox: 0 };

function closedUnderRequest(error: unknown): boolean {
  const code = (error as { code?: unknown; cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

const fetchOnceMoreAfterClose: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (error) {
    if (!closedUnderRequest(error)) throw error;
    resentAfterClose.mcp += 1;
    return fetch(input, init);
  }
};

async function connect(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { fetch: fetchOnceMoreAfterClose }));
  return client;
}

/** One agent: asks the evaluation's questions in turn, and starts a new session every 20 questions, as agents come and go. */
/** A new session: connect, then list the tools, each timed and counted like a tool call. */
async function openSession(index: number): Promise<{ client: Client; tools: ListedTool[] } | undefined> {
  const sent = performance.now();
  try {
    const client = await connect(`soak-agent-${index}`);
    const tools = (await client.listTools()).tools as ListedTool[];
    mcpTally.record(performance.now() - sent);
    return { client, tools };
  } catch (error) {
    mcpTally.record(performance.now() - sent, `a new session: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
    return undefined;
  }
}

async function mcpClient(index: number): Promise<void> {
  let session = await openSession(index);
  for (let turn = index; performance.now() < deadline; turn += 1) {
    if (session === undefined || turn % 20 === 19) {
      await session?.client.close().catch(() => undefined);
      session = await openSession(index);
      if (session === undefined) continue;
    }
    const { client, tools } = session;
    const question = questions[turn % questions.length];
    if (question === undefined) throw new Error('the evaluation has no question');
    const current = client;
    await askAgent(question, tools, async (name, args) => {
      const sent = performance.now();
      try {
        const result = await current.callTool({ name, arguments: args });
        const text = (result.content as { type: string; text?: string }[]).map((item) => item.text ?? '').join('\n');
        mcpTally.record(performance.now() - sent, result.isError === true ? `${name}: ${text.slice(0, 200)}` : undefined);
        return text;
      } catch (error) {
        mcpTally.record(performance.now() - sent, `${name}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
        // Counted above; the agent goes on to its next question as if the answer were empty.
        return '{}';
      }
    });
  }
  await session?.client.close().catch(() => undefined);
}

interface MinuteRow {
  minute: number;
  mcp: MinuteFigures;
  sandbox: MinuteFigures;
  mcpMiB: number;
  sandboxMiB: number;
  load: number;
}

const rows: MinuteRow[] = [];
const latencyText = (figures: MinuteFigures, fraction: number) => (figures.latencies.length === 0 ? '-' : percentile(figures.latencies, fraction).toFixed(1));

console.log(`Soak: ${minutes} min, ${clients} clients (${Math.ceil(clients / 2)} MCP agents, ${Math.floor(clients / 2)} sandbox clients), one-minute load ${(loadavg()[0] ?? 0).toFixed(1)} at the start, ${new Date().toISOString()}`);
console.log(`MCP at ${mcp.url}; sandbox at ${sandbox.url}`);
console.log('| min | MCP calls | errors | p50 ms | p99 ms | RSS MiB | sandbox actions | errors | p50 ms | p99 ms | RSS MiB | load |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
function takeMinute(): void {
  const row: MinuteRow = { minute: rows.length + 1, mcp: mcpTally.take(), sandbox: sandboxTally.take(), mcpMiB: residentMiB(mcp.child), sandboxMiB: residentMiB(sandbox.child), load: loadavg()[0] ?? 0 };
  rows.push(row);
  console.log(
    `| ${row.minute} | ${row.mcp.calls} | ${row.mcp.errors} | ${latencyText(row.mcp, 0.5)} | ${latencyText(row.mcp, 0.99)} | ${row.mcpMiB.toFixed(0)} | ${row.sandbox.calls} | ${row.sandbox.errors} | ${latencyText(row.sandbox, 0.5)} | ${latencyText(row.sandbox, 0.99)} | ${row.sandboxMiB.toFixed(0)} | ${row.load.toFixed(1)} |`,
  );
}
const ticker = setInterval(takeMinute, 60_000);

let failed = false;
try {
  await Promise.all([
    ...Array.from({ length: Math.ceil(clients / 2) }, (_, index) => mcpClient(index)),
    ...owned.map((own, index) => sandboxClient(index, own, reserves[index] ?? [])),
  ]);
} finally {
  clearInterval(ticker);
  // The clients stop at the deadline, a moment before the ticker's last minute: that moment is the last row.
  if (rows.length < minutes) takeMinute();
  mcp.child.kill();
  sandbox.child.kill();
  agent.destroy();
  rmSync(databaseDirectory, { recursive: true, force: true });
}

const mean = (numbers: number[]) => numbers.reduce((sum, value) => sum + value, 0) / Math.max(1, numbers.length);
const errors = rows.reduce((sum, row) => sum + row.mcp.errors + row.sandbox.errors, 0);
const calls = rows.reduce((sum, row) => sum + row.mcp.calls, 0);
const actions = rows.reduce((sum, row) => sum + row.sandbox.calls, 0);
console.log(`\n${calls} MCP tool calls and ${actions} sandbox actions in ${rows.length} min; errors: ${errors}.`);
console.log(`Requests sent once more after the server closed a kept-alive connection under them: ${resentAfterClose.mcp} to the MCP server, ${resentAfterClose.sandbox} to the sandbox.`);
console.log(`Sandbox actions that changed a subscription's status (each a write): ${changesMade}.`);
console.log(`Sandbox answers by kind: ${[...statusCounts].sort().map(([key, count]) => `${key}: ${count}`).join('; ')}`);
for (const sample of [...mcpTally.errorSamples, ...sandboxTally.errorSamples]) console.log(`  error: ${sample}`);
if (errors > 0) failed = true;
if (rows.length >= earlyWindow.to + lastWindowMinutes) {
  for (const [name, pick] of [['MCP server', (row: MinuteRow) => row.mcpMiB], ['sandbox', (row: MinuteRow) => row.sandboxMiB]] as const) {
    const early = mean(rows.slice(earlyWindow.from - 1, earlyWindow.to).map(pick));
    const last = mean(rows.slice(-lastWindowMinutes).map(pick));
    const share = Math.abs(last - early) / early;
    const flat = share <= flatShare;
    if (!flat) failed = true;
    console.log(`${name}: resident memory ${early.toFixed(1)} MiB over minutes ${earlyWindow.from} to ${earlyWindow.to}, ${last.toFixed(1)} MiB over the last ${lastWindowMinutes}: ${(share * 100).toFixed(1)} % apart, ${flat ? 'flat' : `NOT flat (bound ${flatShare * 100} %)`}.`);
  }
} else {
  console.log(`Memory: a run of ${rows.length} min is too short to judge flatness (minutes ${earlyWindow.from} to ${earlyWindow.to} against the last ${lastWindowMinutes} need ${earlyWindow.to + lastWindowMinutes}).`);
}
process.exit(failed ? 1 : 0);
