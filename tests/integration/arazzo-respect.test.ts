/**
 * The lifecycle's Arazzo workflows run by the real `redocly respect`, as a reader runs them: against
 * a fresh sandbox given only its address and key (every workflow green once; then red where a workflow
 * moved its subscription on), against a throttling host (waited out, within the bound), against
 * deployments off the contract (the workflows that meet the fault fail, and only they), and on a
 * contract grown by a ninth action (its workflow is there, the gate lints it and it runs green).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addActions } from '../../src/bench/scaled-contract.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { arazzoFileName, checkArazzoFile } from '../../src/gate/workflows-step.ts';
import { asOpenApiDocument, isRecord } from '../../src/lib/contract/document.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { errorDataField } from '../../src/lib/contract/response-names.ts';
import { successResponse } from '../../src/lib/contract/response-lookups.ts';
import { planWorkflows, workflowSubscriptions } from '../../src/lib/workflows/workflow-plan.ts';
import { defaultApiKey, sandboxSeed } from '../../src/sandbox/seed.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { bundledDocument, copyContract } from '../support/contract-copy.ts';
import { serveOffContract } from '../support/off-contract-deployments.ts';
import { runRespect, writeWorkflowFiles, type WorkflowFiles } from '../support/respect-run.ts';

const contract = readExecutableContract(bundledDocument());
const { model, result, errors } = contract;
const planned = planWorkflows(contract);
const everyWorkflow = planned.map((workflow) => workflow.workflowId);
let files: WorkflowFiles;

before(() => {
  files = writeWorkflowFiles(contract);
});

after(() => files.remove());

function failed(outcomes: Map<string, string>): string[] {
  return [...outcomes].filter(([, status]) => status !== 'success').map(([id]) => id).sort();
}

describe('against a fresh sandbox, given only its address and key', () => {
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ port: 0, contract });
  });

  after(() => sandbox.close());

  test('every workflow passes once, and Respect exits 0', async () => {
    const run = await runRespect(contract, files, { siteUrl: sandbox.url, apiKey: sandbox.apiKey });
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual([...run.outcomes.keys()], everyWorkflow);
    assert.deepEqual(failed(run.outcomes), [], run.output);
    assert.match(run.output, new RegExp(`Workflows: ${everyWorkflow.length} passed, ${everyWorkflow.length} total`));
    // Each workflow's own subscription ends where its last step led, or, after a refusal, moved on from where it started.
    const held = new Map(sandbox.subscriptions().map((subscription) => [subscription.id, subscription.status]));
    for (const { workflowId, id } of workflowSubscriptions(contract)) {
      const workflow = planned.find((candidate) => candidate.workflowId === workflowId);
      const last = workflow?.steps.at(-1)?.expect;
      if (last?.kind === 'result') assert.equal(held.get(id), last.result.status, workflowId);
      else assert.notEqual(held.get(id), workflow?.startStatus, workflowId);
    }
  });

  test('run again on the same sandbox, the workflows that changed their subscription fail, and Respect exits 1', async () => {
    const run = await runRespect(contract, files, { siteUrl: sandbox.url, apiKey: sandbox.apiKey });
    assert.equal(run.exitCode, 1, run.output);
    // A walk there and back leaves its subscription where it found it, so it passes again.
    const movedOn = planned.filter((workflow) => {
      const last = workflow.steps.at(-1)?.expect;
      return workflow.changesSubscription && (last?.kind !== 'result' || last.result.status !== workflow.startStatus);
    });
    assert.ok(movedOn.length > 0);
    assert.deepEqual(failed(run.outcomes), movedOn.map((workflow) => workflow.workflowId).sort());
  });
});

describe('a throttling host', () => {
  const throttled = planned.find((workflow) => workflow.kind === 'throttled');
  const retryLimit = (): number => {
    const text = readFileSync(files.arazzoFile, 'utf8');
    return Number(/retryLimit: (\d+)/.exec(text)?.[1]);
  };

  test('is waited out and the request sent again, within the bound', async () => {
    assert.ok(throttled);
    const sandbox = await startSandbox({ port: 0, contract });
    try {
      sandbox.throttleNext(2, '1');
      const run = await runRespect(contract, files, { siteUrl: sandbox.url, apiKey: sandbox.apiKey }, ['--workflow', throttled.workflowId]);
      assert.equal(run.exitCode, 0, run.output);
      assert.equal(run.outcomes.get(throttled.workflowId), 'success');
      assert.equal(run.output.match(/Retrying step/g)?.length, 2, run.output);
    } finally {
      await sandbox.close();
    }
  });

  test('beyond the bound, the workflow fails', async () => {
    assert.ok(throttled);
    const sandbox = await startSandbox({ port: 0, contract });
    try {
      sandbox.throttleNext(retryLimit() + 1, '0');
      const run = await runRespect(contract, files, { siteUrl: sandbox.url, apiKey: sandbox.apiKey }, ['--workflow', throttled.workflowId]);
      assert.equal(run.exitCode, 1, run.output);
      assert.equal(run.outcomes.get(throttled.workflowId), 'error');
    } finally {
      await sandbox.close();
    }
  });
});

describe('a failing run with --verbose names the status the site answered, which its checks alone do not', () => {
  const [first] = planned;
  /** The status line Respect's verbose output gives a step's answer. */
  const statusLine = (status: number | string): string => `Response status code: ${status}`;
  const cases: { name: string; status: () => number | string; body?: () => string; prepare: (sandbox: Sandbox) => { apiKey: string; serverUrl?: string } }[] = [
    {
      name: 'a key the site does not hold',
      status: () => errors.invalidKey.status,
      body: () => errors.invalidKey.code,
      prepare: () => ({ apiKey: `not-${defaultApiKey}` }),
    },
    {
      name: 'a host that throttles every request',
      status: () => contract.throttled.status,
      prepare: (sandbox) => {
        sandbox.throttleNext(1, '0');
        return { apiKey: sandbox.apiKey };
      },
    },
    {
      name: 'a --server without the path of the version',
      status: () => errors.noRoute.status,
      prepare: (sandbox) => ({ apiKey: sandbox.apiKey, serverUrl: sandbox.url }),
    },
  ];
  for (const { name, status, body, prepare } of cases) {
    test(name, async () => {
      assert.ok(first);
      const sandbox = await startSandbox({ port: 0, contract });
      try {
        // Each run is prepared afresh: a throttled answer is used up by the request it answers.
        const run = (extra: string[]) => runRespect(contract, files, { siteUrl: sandbox.url, ...prepare(sandbox) }, ['--workflow', first.workflowId, ...extra]);
        const quiet = await run([]);
        assert.equal(quiet.exitCode, 1, quiet.output);
        assert.ok(!quiet.output.includes(statusLine(status())), 'without --verbose, Respect does not print the answer');
        const verbose = await run(['--verbose']);
        assert.equal(verbose.exitCode, 1, verbose.output);
        assert.ok(verbose.output.includes(statusLine(status())), `the output names the ${status()} the site answered:\n${verbose.output}`);
        if (body !== undefined) assert.ok(verbose.output.includes(body()), `the output gives the body, with ${body()}`);
        // The success check still names the status the workflow expected, beside the one that came back.
        assert.match(verbose.output, new RegExp(`\\$statusCode == ${successResponse(model.responses).status}`));
      } finally {
        await sandbox.close();
      }
    });
  }
});

describe('deployments off the contract fail the workflows that meet the fault, and only those', () => {
  const successStatus = Number(successResponse(model.responses).status);
  const parse = (body: string | Uint8Array): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
      return isRecord(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const faults = [
    {
      kind: `a repeated action answered ${errors.transitionNotAllowed.status}`,
      answer: (answer: { status: number; headers: Record<string, string>; body: string }) => {
        const body = parse(answer.body);
        if (answer.status !== successStatus || body?.[result.changed] !== false) return answer;
        const current = String(body[result.status]);
        const refusal = { code: errors.transitionNotAllowed.code, message: errors.transitionNotAllowed.message, [errorDataField]: { [errors.statusMember]: errors.transitionNotAllowed.status, [errors.currentStatusMember]: current, [errors.allowedActionsMember]: [] } };
        return { ...answer, status: errors.transitionNotAllowed.status, body: JSON.stringify(refusal) };
      },
      // Every workflow that sends an action whose target already holds.
      fails: planned.filter((workflow) => workflow.steps.some((step) => step.expect.kind === 'result' && !step.expect.result.changed)).map((workflow) => workflow.workflowId),
    },
    {
      kind: `a refusal without \`${errors.currentStatusMember}\``,
      answer: (answer: { status: number; headers: Record<string, string>; body: string }) => {
        const body = parse(answer.body);
        const data = body?.[errorDataField];
        if (answer.status !== errors.transitionNotAllowed.status || !isRecord(data)) return answer;
        delete data[errors.currentStatusMember];
        return { ...answer, body: JSON.stringify(body) };
      },
      fails: planned.filter((workflow) => workflow.kind === 'refusal').map((workflow) => workflow.workflowId),
    },
  ];
  for (const fault of faults) {
    test(fault.kind, async () => {
      assert.ok(fault.fails.length > 0 && fault.fails.length < everyWorkflow.length);
      const deployment = await serveOffContract(contract, { answer: fault.answer }, sandboxSeed(contract));
      try {
        const run = await runRespect(contract, files, { siteUrl: deployment.url, apiKey: deployment.apiKey });
        assert.equal(run.exitCode, 1, run.output);
        assert.deepEqual(failed(run.outcomes), [...fault.fails].sort(), run.output);
      } finally {
        await deployment.close();
      }
    });
  }
});

describe('the gate lints the description with Redocly', () => {
  test('and refuses a broken copy at its file and line', async () => {
    const text = readFileSync(files.arazzoFile, 'utf8');
    const broken = text.replace(/retryLimit: \d+/, 'retryLimit: -1');
    assert.notEqual(broken, text);
    const copy = writeWorkflowFiles(contract, { text: broken });
    try {
      const problems = await checkArazzoFile(copy.arazzoFile, contract, copy.directory);
      const line = broken.slice(0, broken.indexOf('retryLimit: -1')).split('\n').length;
      assert.deepEqual(
        problems.map((problem) => ({ file: problem.file, line: problem.line, rule: problem.rule })),
        [{ file: 'v1.arazzo.yaml', line, rule: 'Redocly rule struct' }],
      );
    } finally {
      copy.remove();
    }
  });
});

describe('a ninth action added to the contract alone', () => {
  test('gets its workflow, which the gate lints and which runs green against a sandbox of that contract', async () => {
    const copy = copyContract();
    const [template] = model.actions.filter((action) => action.transition.kind === 'fixed');
    assert.ok(template);
    const identifier = `${template.identifier}_again`;
    try {
      addActions(copy.directory, [{ identifier, template: template.identifier }]);
      const gated = await runGate({ projectDirectory: copy.directory });
      assert.deepEqual(gated.problems, []);
      assert.ok(gated.bundle);
      const written = readFileSync(path.join(path.dirname(gated.bundle.jsonPath), arazzoFileName), 'utf8');
      assert.match(written, new RegExp(`workflowId: ${identifier}\\n`));
      const grown = readExecutableContract(asOpenApiDocument(gated.bundle.document, gated.bundle.jsonPath));
      const grownFiles = writeWorkflowFiles(grown, { bundleYaml: gated.bundle.yamlPath });
      const sandbox = await startSandbox({ port: 0, contract: grown });
      try {
        const run = await runRespect(grown, grownFiles, { siteUrl: sandbox.url, apiKey: sandbox.apiKey });
        assert.equal(run.exitCode, 0, run.output);
        assert.equal(run.outcomes.get(identifier), 'success');
      } finally {
        await sandbox.close();
        grownFiles.remove();
      }
    } finally {
      copy.remove();
    }
  });
});

