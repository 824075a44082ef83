/**
 * The sandbox imitates a WordPress site with the service installed, so it is held to a real one:
 * the same battery of requests goes to the reference plugin in Debian's WordPress and to the
 * sandbox, and each must get the same status, the same `code` (inside `?_envelope` too) and the
 * same WordPress headers present or absent. Skipped, with the reason, where WordPress cannot run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ExecutableContract } from '../../src/lib/executable-contract.ts';
import { loadGatedContract } from '../../src/sandbox/contract-gate.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import type { WordPressSite } from '../../src/wordpress/site.ts';
import { seedWordPress, startWordPress, stopWordPress, wordpressAvailable } from '../../src/wordpress/site.ts';
import type { Verdict } from './wordpress-battery.ts';
import { requestBattery, sendForVerdict } from './wordpress-battery.ts';
import { projectDirectory } from './contract-copy.ts';

const availability = wordpressAvailable();

// Counted and shown as skipped, with the reason, where the machine cannot run WordPress.
if (!availability.available) test('the sandbox against the reference plugin in a real WordPress', { skip: availability.reason }, () => {});

describe('the sandbox against the reference plugin in a real WordPress', { skip: !availability.available }, () => {
  let site: WordPressSite;
  let contract: ExecutableContract;

  before(async () => {
    site = await startWordPress({ port: 0 });
    contract = await loadGatedContract(projectDirectory);
  });
  after(async () => {
    if (site !== undefined && !site.alreadyRunning) await stopWordPress();
  });

  test('answers every request of the battery with the same status, code and WordPress headers', async () => {
    // One subscription in every status on both sides, far from any other test's IDs.
    const lifecycleIds = contract.model.lifecycle.states.map((status, index) => ({ id: 880_001 + index, status }));
    await seedWordPress({ seed: lifecycleIds });
    const placed: Sandbox = await startSandbox({ port: 0, apiKey: site.apiKey, seed: lifecycleIds });
    try {
      const battery = requestBattery(contract, { apiKey: site.apiKey, unknownId: 880_999, lifecycleIds });
      const disagreements: string[] = [];
      for (const request of battery) {
        const wordpress = await sendForVerdict(site.baseUrl, request);
        const imitation = await sendForVerdict(placed.url, request);
        if (!sameVerdict(wordpress, imitation)) {
          disagreements.push(`${request.name} (${request.method} ${request.target})\n    WordPress: ${JSON.stringify(wordpress)}\n    sandbox:   ${JSON.stringify(imitation)}`);
        }
      }
      assert.ok(battery.length >= 150, `the battery has ${battery.length} requests`);
      assert.deepEqual(disagreements, [], `${disagreements.length} of ${battery.length} requests answered differently:\n${disagreements.join('\n')}`);
    } finally {
      await placed.close();
    }
  });
});

function sameVerdict(left: Verdict, right: Verdict): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
