import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { exitCodeOf, exitCodes } from '../../src/conformance/exit-codes.ts';
import { mismatchDetails } from '../../src/conformance/report.ts';
import { runConformance } from '../../src/conformance/runner.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { throttleHeader } from '../../src/sandbox/host.ts';
import { loadGatedContract } from '../../src/sandbox/contract-gate.ts';
import { offContractDeployments, serveOffContract, type OffContract } from '../support/off-contract-deployments.ts';
import { projectDirectory } from '../support/contract-copy.ts';

/**
 * The suite's power: deployments made from the sandbox, each off the contract in one way, every
 * one of which the suite must fail (exit 1) with a report naming the fault. The sandbox unbroken,
 * served the same way, passes: the wrapper itself breaks nothing.
 */

let contract: ExecutableContract;
before(async () => {
  contract = await loadGatedContract(projectDirectory);
});

async function check(breakage: Pick<OffContract, 'request' | 'answer' | 'store'>) {
  const deployment = await serveOffContract(contract, breakage);
  try {
    const report = await runConformance({ contract, baseUrl: deployment.url, apiKey: deployment.apiKey, subscriptions: deployment.subscriptions, throttleHeader });
    return { code: exitCodeOf(report, true), details: [...report.fatal.map((line) => `✖ ${line}`), ...mismatchDetails(report, deployment.apiKey)].join('\n') };
  } finally {
    await deployment.close();
  }
}

describe('the suite against deployments off the contract', () => {
  test('the sandbox served through the same wrapper, unbroken, passes', async () => {
    const { code, details } = await check({});
    assert.equal(code, exitCodes.passed, details);
  });

  test('fails every one, naming the fault', async () => {
    const deployments = offContractDeployments(contract);
    assert.ok(deployments.length >= 20, `${deployments.length} kinds`);
    const missed: string[] = [];
    for (const deployment of deployments) {
      const { code, details } = await check(deployment);
      if (process.env.CONFORMANCE_POWER_VERBOSE === '1') console.log(`— ${deployment.kind}\n${details.split('\n').slice(0, 6).join('\n')}`);
      if (code !== exitCodes.mismatch || !deployment.finding.test(details)) {
        missed.push(`${deployment.kind}: exit ${code}, the report does not match ${deployment.finding}:\n${details.split('\n').slice(0, 12).join('\n')}`);
      }
    }
    console.log(`The suite caught ${deployments.length - missed.length} of ${deployments.length} deployments off the contract.`);
    assert.deepEqual(missed, []);
  });
});
