import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { exitCodeOf, exitCodes } from '../../src/conformance/exit-codes.ts';
import { generatedDetails, junitXml, mismatchDetails, noteDetails, notReachedHint } from '../../src/conformance/report.ts';
import { defaultGeneratedRuns, runConformance } from '../../src/conformance/runner.ts';
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

/** The generated pass's seed here: fixed, so that what it meets is the same on every run of the test. */
const seed = 20261128;

async function check(breakage: Pick<OffContract, 'request' | 'answer' | 'store'>) {
  const deployment = await serveOffContract(contract, breakage);
  try {
    const report = await runConformance({ contract, baseUrl: deployment.url, apiKey: deployment.apiKey, subscriptions: deployment.subscriptions, throttleHeader, seed });
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

describe('the ends of every field', () => {
  test('a deployment that refuses a value at an end the contract leaves open is caught by a fixed case on every run: without generated bodies, and whatever the seed', async () => {
    const deployments = offContractDeployments(contract).filter((candidate) => candidate.openEnd === true);
    assert.ok(deployments.length >= 8, `${deployments.length} kinds`);
    const missed: string[] = [];
    // No generated body at all, then two seeds other than the power test's own.
    const runs = [{ generated: 0, seed }, { seed: 1 }, { seed: 2 }];
    for (const deployment of deployments) {
      for (const run of runs) {
        const served = await serveOffContract(contract, deployment);
        try {
          const report = await runConformance({ contract, baseUrl: served.url, apiKey: served.apiKey, subscriptions: served.subscriptions, throttleHeader, ...run });
          const details = mismatchDetails(report, served.apiKey).join('\n');
          const findings = details.split('\n').filter((line) => line.startsWith('✖ ')).length;
          if (exitCodeOf(report, true) !== exitCodes.mismatch || !deployment.finding.test(details) || findings !== deployment.findings) {
            missed.push(`${deployment.kind} (${JSON.stringify(run)}): ${findings} findings:\n${details.split('\n').slice(0, 8).join('\n')}`);
          }
        } finally {
          await served.close();
        }
      }
    }
    console.log(`The fixed cases caught ${deployments.length * runs.length - missed.length} of ${deployments.length * runs.length} runs against ${deployments.length} deployments that refuse a value at an open end.`);
    assert.deepEqual(missed, []);
  });
});

describe('the generated pass', () => {
  test('finds a valid body no fixed case sends refused, shrinks it to the smallest, and the seed replays it', async () => {
    const [sanitizing] = offContractDeployments(contract).filter((candidate) => candidate.kind.includes('sanitize_text_field'));
    assert.ok(sanitizing !== undefined);
    const field = contract.model.envelope.note ?? '';
    const smallestOf = async (runSeed: number) => {
      const deployment = await serveOffContract(contract, sanitizing);
      try {
        const report = await runConformance({ contract, baseUrl: deployment.url, apiKey: deployment.apiKey, subscriptions: deployment.subscriptions, throttleHeader, seed: runSeed });
        assert.equal(exitCodeOf(report, true), exitCodes.mismatch);
        const printed = generatedDetails(report, deployment.apiKey).join('\n');
        assert.match(printed, new RegExp(`^✖ Generated valid bodies: \\d+ sent \\(seed ${runSeed}\\)[\\s\\S]*replay:\\s+--seed ${runSeed} --generated ${defaultGeneratedRuns}`));
        const body = JSON.parse(String(report.generated?.smallest?.exchange?.request.body)) as Record<string, unknown>;
        return { body, printed };
      } finally {
        await deployment.close();
      }
    };
    const first = await smallestOf(seed);
    // Shrunk to the one character the deployment refuses (white space or a control character), with no optional field it does not need.
    assert.match(String(first.body[field]), /^[\s\u0000-\u001f\u007f<]$/u, first.printed);
    const optional = contract.model.actions.flatMap((action) => action.fields).filter((candidate) => !candidate.required && candidate.name !== field);
    assert.deepEqual(optional.filter((candidate) => candidate.name in first.body), [], first.printed);
    assert.deepEqual((await smallestOf(seed)).body, first.body, 'the same seed sends the same bodies and shrinks to the same one');
  });

  test('a correct install passes every generated body, whatever the seed', async () => {
    const deployment = await serveOffContract(contract, {});
    try {
      for (const runSeed of [1, 2, 3]) {
        const report = await runConformance({ contract, baseUrl: deployment.url, apiKey: deployment.apiKey, subscriptions: deployment.subscriptions, throttleHeader, seed: runSeed, generated: 60 });
        assert.equal(report.generated?.sent, 60, generatedDetails(report, deployment.apiKey).join('\n'));
        assert.equal(report.generated.smallest, undefined);
      }
    } finally {
      await deployment.close();
    }
  });
});
