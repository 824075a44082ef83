/**
 * Running an action page's code sample, as printed, against a sandbox holding the example's
 * subscription in a given status: shared by the raw samples' test and the libraries' test.
 */
import assert from 'node:assert/strict';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import type { CodeSample } from '../../src/lib/samples/code-samples.ts';
import { placeholdersIn } from '../../src/lib/samples/sample-parts.ts';
import type { ActionPage } from '../../src/lib/site/reference-pages.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { fillIn, runSample, type SampleRun } from './run-sample.ts';

/** The status the request example of an action names, for an action whose request chooses it. */
function requestedStatus(action: Action): string | undefined {
  const value = action.requestExample.value;
  return action.transition.kind === 'chosen' ? String(value[action.transition.field]) : undefined;
}

/** A status from which the action's request example changes the subscription, one that refuses it, and where it leads. */
export function statusesFor(contract: ExecutableContract, action: Action): { accepting: string; refusing: string; target: string } {
  const { lifecycle } = contract.model;
  const requested = requestedStatus(action);
  const accepting = lifecycle.states.find((state) => outcomeOf(action.transition, state, requested).kind === 'changed');
  const refusing = lifecycle.states.find((state) => outcomeOf(action.transition, state, requested).kind === 'refused');
  if (accepting === undefined || refusing === undefined) throw new Error(`${action.identifier}: no status accepts or refuses its example`);
  const outcome = outcomeOf(action.transition, accepting, requested);
  return { accepting, refusing, target: outcome.kind === 'changed' ? outcome.to : accepting };
}

export interface SampleAgainstSandbox {
  run: SampleRun;
  /** The subscription's status in the sandbox's own records after the run. */
  after: string | undefined;
  subscriptionId: number;
}

/** Runs `sample` (in `folder`, where a library is installed) against a new sandbox holding the example's subscription in `status`. */
export async function runAgainstSandbox(
  contract: ExecutableContract,
  page: ActionPage,
  sample: CodeSample,
  status: string,
  options: { prepare?: (sandbox: Sandbox) => void; timeoutMs?: number; folder?: string } = {},
): Promise<SampleAgainstSandbox> {
  const { model } = contract;
  const { action } = page;
  const subscriptionId = Number(action.requestExample.value[model.envelope.subject]);
  const sandbox = await startSandbox({ port: 0, contract, seed: [{ id: subscriptionId, status }] });
  try {
    options.prepare?.(sandbox);
    const [keyPlaceholder] = placeholdersIn(action.requestExample.value[model.envelope.credential]);
    assert.ok(keyPlaceholder, `the ${action.identifier} example writes the key as a placeholder`);
    const host = new URL(sandbox.url).host;
    const run = await runSample(sample, fillIn(sample.code, model.endpoint, { host, apiKey: sandbox.apiKey }, keyPlaceholder), options.timeoutMs, options.folder);
    const after = sandbox.subscriptions().find((subscription) => subscription.id === subscriptionId)?.status;
    return { run, after, subscriptionId };
  } finally {
    await sandbox.close();
  }
}

export function describeRun(run: SampleRun): string {
  return `exit ${run.exitCode}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}
