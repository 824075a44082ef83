/**
 * The end-to-end half of tests/unit/model-refusals.test.ts: the real `npm run lint` (scripts/lint.ts
 * in a child process, as CI runs it) on copies of the contract that the model refuses and that
 * the gate let through before it ran the model: a success example missing for one action, and an
 * error code without a description. Each fails with the file, the line and the model's rule, and
 * every problem of the copy is listed, not only the first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copyContract } from '../support/contract-copy.ts';
import { runLint } from '../support/lint-run.ts';

function lint(directory: string): { status: number | null; output: string } {
  const run = runLint('--project', directory);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('npm run lint refuses, with file, line and rule, two edits the build refuses and the gate once passed', () => {
  const copy = copyContract();
  try {
    copy.replace('openapi/components/responses/ActionSucceeded.yaml', '      pause_subscription:\n        $ref: ../examples/PauseSubscriptionResult.yaml\n', '');
    copy.replace(
      'openapi/components/schemas/TransitionNotAllowedError.yaml',
      "    description: The subscription's current status is not one the action accepts; `data.allowed_actions` lists what it does accept.\n",
      '',
    );
    const run = lint(copy.directory);
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, /^openapi\/components\/responses\/ActionSucceeded\.yaml: line \d+: Response ActionSucceeded, example `pause_subscription` is missing: the 200 response needs an example named after every action \[reference model\]$/m);
    assert.match(run.output, /^openapi\/components\/schemas\/TransitionNotAllowedError\.yaml: line \d+: Schema TransitionNotAllowedError, property `code`: the code `service_transition_not_allowed` needs a description: it says when the error happens \[reference model\]$/m);
  } finally {
    copy.remove();
  }
});

test('npm run lint refuses, each at its file and line, what the sandbox, the samples and the pages would refuse of a contract', () => {
  const copy = copyContract();
  try {
    const noteLine = copy.read('openapi/components/schemas/PauseSubscriptionRequest.yaml').split('\n').indexOf('  note:') + 1;
    // A field a WordPress route argument cannot describe (the sandbox and the MCP server derive the route's arguments).
    copy.replace('openapi/components/schemas/PauseSubscriptionRequest.yaml', '  note:\n', '  tags:\n    type: object\n    description: Labels.\n  note:\n');
    // An error body that does not require the message the samples print.
    copy.replace('openapi/components/schemas/NotFoundError.yaml', 'required: [code, message, data]', 'required: [code, data]');
    // A success example that contradicts x-transitions, and a conflict example missing an allowed action.
    copy.replace('openapi/components/examples/PauseSubscriptionResult.yaml', 'status: on-hold', 'status: cancelled');
    copy.replace('openapi/components/responses/TransitionNotAllowed.yaml', 'trial_end, payment_failed]', 'trial_end]');
    const run = lint(copy.directory);
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, new RegExp(`^openapi/components/schemas/PauseSubscriptionRequest\\.yaml: line ${noteLine}: Schema PauseSubscriptionRequest, property \`tags\`: the field tags is of type object, which a WordPress route argument does not describe yet \\[reference model\\]$`, 'm'));
    assert.match(run.output, /^openapi\/components\/schemas\/NotFoundError\.yaml: line 1: Schema NotFoundError: the error bodies do not all require `message`, which the samples read \[reference model\]$/m);
    assert.match(run.output, /^openapi\/components\/examples\/PauseSubscriptionResult\.yaml: line 7: Response ActionSucceeded, example `pause_subscription`, `status`: pause_subscription leads from active to on-hold in x-transitions, yet the example says `cancelled` \[reference model\]$/m);
    assert.match(run.output, /^openapi\/components\/responses\/TransitionNotAllowed\.yaml: line 26: Response TransitionNotAllowed, example `trial_cannot_be_paused`, `data`, `allowed_actions`: for a subscription that is trial, the example leaves out `payment_failed`, which x-transitions allows \[reference model\]$/m);
  } finally {
    copy.remove();
  }
});

test('npm run lint refuses a field with two schemas in two actions, at the later one, and an example naming another action', () => {
  const copy = copyContract();
  try {
    const noteLine = copy.read('openapi/components/schemas/PauseSubscriptionRequest.yaml').split('\n').indexOf('  note:') + 1;
    copy.replace('openapi/components/schemas/PauseSubscriptionRequest.yaml', '  note:\n    $ref: ./Note.yaml\n', '  note:\n    type: string\n    maxLength: 3\n    description: A shorter note.\n');
    copy.replace('openapi/components/examples/TrialEndResult.yaml', 'action: trial_end', 'action: pause_subscription');
    const run = lint(copy.directory);
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, new RegExp(`^openapi/components/schemas/PauseSubscriptionRequest\\.yaml: line ${noteLine}: Schema PauseSubscriptionRequest, property \`note\`: note has another schema in pause_subscription than in an earlier action; one route argument cannot describe both \\[reference model\\]$`, 'm'));
    assert.match(run.output, /^openapi\/components\/examples\/TrialEndResult\.yaml: line 4: Response ActionSucceeded, example `trial_end`, `action`: the example of trial_end names the action `pause_subscription` \[reference model\]$/m);
  } finally {
    copy.remove();
  }
});
