/**
 * What one action costs the sandbox without HTTP, beside the bare server's work for the same
 * action, in one process:
 *
 *   node scripts/bench-sandbox/answer-cost.ts [--answers 5000] [--rounds 7]
 *
 * The sandbox's `answer` (the host's answers, the route, WordPress's validation, the lifecycle,
 * the store, the answer serialised with its headers) and the bare server's handler
 * (`bare-actions.ts`: the body parsed, the same transaction, the answer serialised) each act on a
 * SQLite file of their own, toggling the subscriptions as `npm run bench:sandbox` does, in
 * alternating batches. CPU time is the process's (garbage collection included), so a busy moment
 * of the shared machine inflates it far less than throughput; the ratio is taken batch beside batch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleContract } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument } from '../../src/lib/contract/document.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { median } from '../../src/lib/measures/statistics.ts';
import { openSandbox } from '../../src/sandbox/server.ts';
import { scriptArguments, wholeNumberOption } from '../script-options.ts';
import { openBareActions } from './bare-actions.ts';
import { togglingLoad } from './toggling-pair.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
const clients = 16;
const usage = 'Usage: node scripts/bench-sandbox/answer-cost.ts [--answers N] [--rounds N]';
const { values } = scriptArguments(usage, { answers: { type: 'string' }, rounds: { type: 'string' } });
const answers = wholeNumberOption(usage, 'answers', values.answers, 5000, 1);
const rounds = wholeNumberOption(usage, 'rounds', values.rounds, 7, 1);

const bundle = bundleContract(projectDirectory, undefined, '.generated/bench-sandbox');
const contract = readExecutableContract(asOpenApiDocument(bundle.document, bundle.jsonPath));
const toggling = togglingLoad(contract, clients);
const bodies = toggling.bodies.map((pair) => pair.map((body) => Buffer.from(body)));
const directory = mkdtempSync(path.join(tmpdir(), 'answer-cost-'));
const seed = Array.from({ length: clients }, (_, index) => ({ id: index + 1, status: toggling.initial }));
const sandbox = await openSandbox({ contract, db: path.join(directory, 'sandbox.sqlite'), seed });
const bare = openBareActions(path.join(directory, 'bare.sqlite'), clients, toggling.initial, {
  [toggling.there.action.identifier]: toggling.there.to,
  [toggling.back.action.identifier]: toggling.back.to,
});
const target = contract.model.endpoint.urlPath;

/** The body of the nth action: the clients in turn, each going there and back. */
function bodyOf(index: number): Buffer {
  const client = index % clients;
  const turn = Math.floor(index / clients) % 2;
  return bodies[client]?.[turn] ?? Buffer.alloc(0);
}

function microsecondsEach(work: (body: Buffer) => void): number {
  const before = process.cpuUsage();
  for (let index = 0; index < answers; index += 1) work(bodyOf(index));
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / answers;
}

const sandboxAnswer = (body: Buffer) => {
  const answer = sandbox.answer({ method: 'POST', target, headers: { host: '127.0.0.1:8787', 'content-type': 'application/json', 'content-length': String(body.length) }, body, tooLarge: false });
  if (answer.status !== 200) throw new Error(`the sandbox answered ${answer.status}: ${answer.body}`);
};
const bareAnswer = (body: Buffer) => {
  bare(body);
};

try {
  // A first batch of each warms up the code and the files; it is not counted.
  microsecondsEach(sandboxAnswer);
  microsecondsEach(bareAnswer);
  const sandboxCosts: number[] = [];
  const bareCosts: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    sandboxCosts.push(microsecondsEach(sandboxAnswer));
    bareCosts.push(microsecondsEach(bareAnswer));
  }
  const ratios = sandboxCosts.map((cost, index) => (bareCosts[index] ?? Number.NaN) / cost);
  console.log(`${rounds} rounds of ${answers} actions each (${toggling.there.action.identifier} and ${toggling.back.action.identifier} on ${clients} subscriptions), CPU per action:`);
  console.log(`  sandbox answer: median ${median(sandboxCosts).toFixed(1)} µs (${sandboxCosts.map((cost) => cost.toFixed(1)).join(', ')})`);
  console.log(`  bare handler:   median ${median(bareCosts).toFixed(1)} µs (${bareCosts.map((cost) => cost.toFixed(1)).join(', ')})`);
  console.log(`  bare / sandbox, batch beside batch: median ${median(ratios).toFixed(2)}, from ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}`);
} finally {
  sandbox.close();
  rmSync(directory, { recursive: true, force: true });
}
