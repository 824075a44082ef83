import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutableContract } from '../lib/executable-contract.ts';
import { defaultApiKey } from '../sandbox/seed.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { startSandbox } from '../sandbox/server.ts';
import type { Subscription } from '../sandbox/store.ts';
import { generateCases } from './cases.ts';

/**
 * Subscriptions for a run against a sandbox of the suite's own: one in the status each case of
 * the lifecycle needs, so that every cell of the matrix is reached without a single move.
 */
export function conformanceSeed(contract: ExecutableContract): Subscription[] {
  const cases = generateCases(contract, { apiKey: defaultApiKey, unknownSubscriptionId: 1, throttleHeader: '' });
  const needs = cases.flatMap((testCase) => (testCase.needs.kind === 'status' ? [testCase.needs.status] : []));
  return needs.map((status, index) => ({ id: index + 1, status }));
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
