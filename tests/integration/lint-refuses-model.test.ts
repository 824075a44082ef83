/**
 * The end-to-end half of tests/unit/model-refusals.test.ts: the real `npm run lint` (scripts/lint.ts
 * in a child process, as CI runs it) on copies of the contract that the model refuses and that
 * the gate let through before it ran the model: a success example missing for one action, and an
 * error code without a description. Each fails with the file, the line and the model's rule, and
 * every problem of the copy is listed, not only the first.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { copyContract, projectDirectory } from '../support/contract-copy.ts';

function lint(directory: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [path.join(projectDirectory, 'scripts/lint.ts'), '--project', directory], { encoding: 'utf8', cwd: projectDirectory });
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
    assert.match(run.output, /^openapi\/components\/responses\/ActionSucceeded\.yaml: line \d+: #\/components\/responses\/ActionSucceeded\/content\/application~1json\/examples\/pause_subscription is missing: the 200 response needs an example named after every action \[reference model\]$/m);
    assert.match(run.output, /^openapi\/components\/schemas\/TransitionNotAllowedError\.yaml: line \d+: #\/components\/schemas\/TransitionNotAllowedError\/properties\/code the code `service_transition_not_allowed` needs a description: it says when the error happens \[reference model\]$/m);
  } finally {
    copy.remove();
  }
});
