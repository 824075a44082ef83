/**
 * `node scripts/bench-client-typescript.ts [--calls N]`: what the TypeScript client adds to a call.
 * Packs the client and installs it into a temporary folder (as a reader gets it), starts the
 * sandbox, and sends the same request, alternating, with the library (pace off, so no wait
 * applies) and with a bare `fetch` of the same body, in one run; prints the medians, the time
 * the library adds per call, and the ratio. Not a timed test: the target is at most 1 ms added.
 */
import { parseArgs } from 'node:util';
import { methodName, typescriptClientClassName } from '../src/clients/typescript/generate.ts';
import { loadGatedContract } from '../src/sandbox/contract-gate.ts';
import { median } from '../src/lib/measures/statistics.ts';
import { outcomeOf } from '../src/lib/contract/lifecycle.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { installTypescriptClient } from '../src/clients/typescript/installed-package.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '400' } } });
const calls = Number(values.calls);
if (!Number.isInteger(calls) || calls < 10) {
  console.error('Usage: node scripts/bench-client-typescript.ts [--calls N]   (N >= 10, default 400)');
  process.exit(2);
}

const contract = await loadGatedContract(process.cwd());
const { selector, credential, subject } = contract.model.envelope;
const [action] = contract.model.actions;
if (action === undefined) throw new Error('The contract has no action.');
const from = contract.model.lifecycle.states.find((state) => outcomeOf(action.transition, state, action.transition.kind === 'chosen' ? String(action.requestExample.value[action.transition.field]) : undefined).kind === 'changed');
const installed = installTypescriptClient(contract);
const sandbox = await startSandbox({ port: 0, contract, seed: [{ id: 1, status: from ?? '' }] });
try {
  const library = (await import(installed.entryUrl)) as Record<string, new (url: string, key: string, options: object) => Record<string, (fields: object) => Promise<unknown>>>;
  const Client = library[typescriptClientClassName];
  if (Client === undefined) throw new Error(`The package exports no ${typescriptClientClassName}.`);
  const client = new Client(sandbox.url, sandbox.apiKey, { pace: 0 });
  const { [selector]: _selector, [credential]: _key, ...example } = action.requestExample.value;
  const fields = { ...example, [subject]: 1 };
  const method = methodName(action.identifier);
  const body = JSON.stringify({ ...fields, [selector]: action.identifier, [credential]: sandbox.apiKey });
  const bare = async () => {
    const response = await fetch(sandbox.endpointUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(30_000) });
    if (response.status !== 200) throw new Error(`bare fetch: HTTP ${response.status}`);
    return response.json();
  };
  const withLibrary = () => (client[method] as (fields: object) => Promise<unknown>).call(client, fields);
  // Warm both paths (connections, JIT), and move the subscription to where every call repeats the action.
  for (let index = 0; index < 20; index += 1) {
    await withLibrary();
    await bare();
  }
  const timings = { library: [] as number[], bare: [] as number[] };
  for (let index = 0; index < calls; index += 1) {
    const order = index % 2 === 0 ? (['library', 'bare'] as const) : (['bare', 'library'] as const);
    for (const kind of order) {
      const started = performance.now();
      await (kind === 'library' ? withLibrary() : bare());
      timings[kind].push(performance.now() - started);
    }
  }
  const library50 = median(timings.library);
  const bare50 = median(timings.bare);
  console.log(`${calls} calls each, alternating, against the sandbox at ${sandbox.url} (${action.identifier}, every call a repeat):`);
  console.log(`  bare fetch: median ${bare50.toFixed(3)} ms`);
  console.log(`  library:    median ${library50.toFixed(3)} ms`);
  console.log(`  added:      ${(library50 - bare50).toFixed(3)} ms per call (target: at most 1 ms); ratio ${(library50 / bare50).toFixed(3)}`);
} finally {
  await sandbox.close();
  installed.remove();
}
