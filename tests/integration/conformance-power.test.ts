import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { exitCodeOf, exitCodes } from '../../src/conformance/exit-codes.ts';
import { junitXml, mismatchDetails, noteDetails, notReachedHint } from '../../src/conformance/report.ts';
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
    const details = [...(report.setup === undefined ? [] : [`✖ ${report.setup.message}`]), ...report.fatal.map((line) => `✖ ${line}`), ...mismatchDetails(report, deployment.apiKey)].join('\n');
    // What the suite prints and writes never holds the key, whatever the deployment sends back.
    const printed = [details, ...noteDetails(report, deployment.apiKey), junitXml(report, deployment.apiKey)].join('\n');
    return { code: exitCodeOf(report, true), details, unreachedAdvice: report.fatal.length + report.setupFindings.length === 0 ? notReachedHint(report) : undefined, keyShown: printed.toLowerCase().includes(deployment.apiKey.toLowerCase()) || printed.includes(deployment.apiKey.slice(0, -1)) };
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
      const { code, details, keyShown, unreachedAdvice } = await check(deployment);
      if (keyShown) missed.push(`${deployment.kind}: the report or the JUnit file shows the API key`);
      // The set-up names a subscription for every case: unless a move of the set-up failed (a finding of its own),
      // a case left unreached follows from the fault, never from the count of named subscriptions.
      if (unreachedAdvice !== undefined) missed.push(`${deployment.kind}: the report blames the named subscriptions: ${unreachedAdvice}`);
      if (process.env.CONFORMANCE_POWER_VERBOSE === '1') console.log(`— ${deployment.kind}\n${details.split('\n').slice(0, 6).join('\n')}`);
      const findings = details.split('\n').filter((line) => line.startsWith('✖ ')).length;
      const exit = deployment.exit === undefined ? exitCodes.mismatch : exitCodes[deployment.exit];
      if (code !== exit || !deployment.finding.test(details)) {
        missed.push(`${deployment.kind}: exit ${code}, the report does not match ${deployment.finding}:\n${details.split('\n').slice(0, 12).join('\n')}`);
      } else if (deployment.findings !== undefined && findings !== deployment.findings) {
        missed.push(`${deployment.kind}: ${findings} findings where one fault must make ${deployment.findings}:\n${details.split('\n').filter((line) => line.startsWith('✖ ')).join('\n')}`);
      }
    }
    console.log(`The suite caught ${deployments.length - missed.length} of ${deployments.length} deployments off the contract.`);
    assert.deepEqual(missed, []);
  });
});
