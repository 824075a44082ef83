/**
 * A contract the gate lets through is one every consumer serves: edits a tester made that the
 * sandbox's guide once refused with a stack trace (no seeded subscription in a status the
 * quickstart's action refuses) pass the model, and the guide's requests, run through the
 * sandbox's own stages, get the answers the guide shows, the 409 included, never a 500.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { referenceModelProblems } from '../../src/gate/model-step.ts';
import type { OpenApiDocument } from '../../src/lib/contract/document.ts';
import { readWalkthrough } from '../../src/sandbox/walkthrough.ts';
import { bundledDocument } from '../support/contract-copy.ts';

type Json = Record<string, any>;

function followed(d: Json, node: Json): Json {
  const reference = node.$ref;
  if (typeof reference !== 'string') return node;
  return followed(d, reference.slice(2).split('/').reduce((parent: Json, key: string) => parent[key.replaceAll('~1', '/')], d));
}

const edits: Record<string, (d: Json) => void> = {
  'the repeated example rewritten as a repeat of cancel_subscription': (d) => {
    const example = followed(d, d.components.responses.ActionSucceeded.content['application/json'].examples.repeated_action);
    Object.assign(example.value, { action: 'cancel_subscription', previous_status: 'cancelled', status: 'cancelled', changed: false });
  },
  'pause_subscription widened to every status that is not final': (d) => {
    const table = d['x-transitions'];
    const pause = table.actions.pause_subscription;
    pause.from = d.components.schemas.SubscriptionStatus.enum.filter((state: string) => !table.final.includes(state) && state !== pause.to);
    // The conflict example that says a trial cannot be paused would now contradict the lifecycle.
    const examples = d.components.responses.TransitionNotAllowed.content['application/json'].examples;
    delete examples.trial_cannot_be_paused;
  },
};

describe('the sandbox guide of a contract the gate lets through', () => {
  for (const [name, edit] of Object.entries(edits)) {
    test(name, () => {
      const document = bundledDocument();
      edit(document as unknown as Json);
      assert.deepEqual(referenceModelProblems(document), [], 'the gate lets the edit through');
      const walkthrough = readWalkthrough(document as OpenApiDocument);
      assert.equal(walkthrough.success.status, 200);
      assert.equal(walkthrough.repeat.status, 200);
      assert.equal(walkthrough.conflict.status, 409, JSON.stringify(walkthrough.conflict.body));
    });
  }
});
