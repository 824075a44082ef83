import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { defaultApiKey, sandboxSeed } from '../sandbox/seed.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { startSandbox } from '../sandbox/server.ts';
import type { Subscription } from '../sandbox/store.ts';
import { generateCases, probeTarget } from './cases.ts';
import { createPlanner, forecastRun } from './plan.ts';

/** The subscriptions one run needs to reach every lifecycle case, by the status each starts in. */
export function neededSubscriptions(contract: ExecutableContract): Map<string, number> {
  const cases = generateCases(contract, { apiKey: defaultApiKey, unknownSubscriptionId: 1, throttleHeader: '' });
  return forecastRun(createPlanner(contract, probeTarget(contract)?.transition), cases, new Map()).needed;
}

/**
 * Subscriptions for a run against a sandbox of the suite's own: the fewest that reach every case
 * of the lifecycle (`neededSubscriptions`), numbered from 1 in the order of the statuses, each set
 * `runs` times over for as many runs on the same sandbox.
 */
export function conformanceSeed(contract: ExecutableContract, runs = 1): Subscription[] {
  const needed = neededSubscriptions(contract);
  const statuses = contract.model.lifecycle.states.flatMap((status) => Array.from({ length: (needed.get(status) ?? 0) * runs }, () => status));
  return statuses.map((status, index) => ({ id: index + 1, status }));
}

/** Starts a sandbox on a free loopback port with a database of its own, removed by `close()`. */
export async function startOwnSandbox(apiKey: string | undefined, contractOf: () => Promise<ExecutableContract>): Promise<Sandbox> {
  const directory = mkdtempSync(path.join(tmpdir(), 'conformance-'));
  const contract = await contractOf();
  try {
    const sandbox = await startSandbox({
      port: 0,
      db: path.join(directory, 'sandbox.sqlite'),
      seed: conformanceSeed(contract),
      contract,
      ...(apiKey === undefined ? {} : { apiKey }),
    });
    return {
      ...sandbox,
      close: async () => {
        await sandbox.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The first ID of the subscriptions the conformance guide's command names (`--subscription
 * FROM-TO`): the first hundred and one past which as many IDs as one run needs are free of every
 * subscription a new sandbox holds, so that the reference plugin, which holds both, answers that
 * command as written (101 until the sandbox's own seed reaches it).
 */
export function conformanceSubscriptionsFrom(contract: ExecutableContract): number {
  const taken = new Set(sandboxSeed(contract).map((subscription) => subscription.id));
  const needed = [...neededSubscriptions(contract).values()].reduce((sum, count) => sum + count, 0);
  for (let from = 101; ; from += 100) {
    if (!Array.from({ length: needed }, (_, index) => from + index).some((id) => taken.has(id))) return from;
  }
}
