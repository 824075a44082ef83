/**
 * The lifecycle as Arazzo workflows (src/lib/workflows/): what the published description holds,
 * read back from its YAML and held to the model, the sandbox's seed and the gate's name check.
 * Running the workflows with `redocly respect` is tests/integration/arazzo-respect.test.ts.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { checkWorkflowNames, workflowsRule } from '../../src/gate/workflows-step.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { acceptedStates, actionsThatChange, refusedStates } from '../../src/lib/contract/lifecycle.ts';
import { downloadPaths } from '../../src/lib/site/navigation.ts';
import { apiKeyInput, arazzoYaml, sourceDescriptionUrl } from '../../src/lib/workflows/arazzo-document.ts';
import { planWorkflows, subscriptionInputName, workflowSubscriptions } from '../../src/lib/workflows/workflow-plan.ts';
import { sandboxSeed } from '../../src/sandbox/seed.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const { model, result, errors } = contract;
const text = arazzoYaml(contract);
const description: unknown = parse(text);

interface Step {
  stepId: string;
  operationId: string;
  requestBody: { payload: Record<string, unknown> };
  successCriteria: { condition: string; context?: string; type?: string }[];
  outputs?: Record<string, string>;
  onFailure?: { type: string; retryAfter: number; retryLimit: number; criteria: { condition: string }[] }[];
}
interface Workflow {
  workflowId: string;
  inputs: { required: string[]; properties: Record<string, { default?: number }> };
  steps: Step[];
}

function workflows(): Workflow[] {
  assert.ok(isRecord(description) && Array.isArray(description.workflows));
  return description.workflows as Workflow[];
}

function workflow(id: string): Workflow {
  const found = workflows().find((candidate) => candidate.workflowId === id);
  assert.ok(found, `no workflow ${id}`);
  return found;
}

const conditions = (step: Step | undefined): string[] => (step?.successCriteria ?? []).map((criterion) => criterion.condition);
const member = (name: string): string => `$response.body#/${name}`;
const successStatus = model.responses.find((response) => response.status.startsWith('2'))?.status;

describe('the Arazzo description', () => {
  test('is Arazzo 1.0 against the OpenAPI document published beside it', () => {
    assert.ok(isRecord(description));
    assert.match(String(description.arazzo), /^1\.0\.\d+$/);
    assert.equal(path.posix.dirname(downloadPaths.arazzo), path.posix.dirname(downloadPaths.yaml));
    assert.equal(sourceDescriptionUrl, path.posix.basename(downloadPaths.yaml));
    assert.match(text, /^# The lifecycle as Arazzo workflows, generated from/);
  });

  test('has a workflow per action that applies it once, then again, and checks the documented result', () => {
    for (const action of model.actions) {
      const { steps } = workflow(action.identifier);
      const [apply, repeat] = steps;
      assert.equal(steps.length, 2, action.identifier);
      for (const step of steps) {
        assert.equal(step.operationId, model.endpoint.operation.operationId);
        assert.equal(step.requestBody.payload[model.envelope.selector], action.identifier);
        assert.equal(step.requestBody.payload[model.envelope.credential], `$inputs.${apiKeyInput(contract)}`);
        assert.ok(conditions(step).includes(`$statusCode == ${successStatus}`));
      }
      const from = conditions(apply).find((condition) => condition.startsWith(member(result.previousStatus)))?.match(/'(.*)'$/)?.[1];
      const to = conditions(apply).find((condition) => condition.startsWith(`${member(result.status)} `))?.match(/'(.*)'$/)?.[1];
      assert.ok(from !== undefined && to !== undefined && from !== to, `${action.identifier} changes a status`);
      assert.ok(acceptedStates(action.transition).includes(from), `${action.identifier} accepts ${from}`);
      assert.ok(conditions(apply).includes(`${member(result.changed)} == true`));
      assert.ok(conditions(repeat).includes(`${member(result.changed)} == false`));
      assert.ok(conditions(repeat).includes(`${member(result.previousStatus)} == '${to}'`));
    }
  });

  test('a ninth action in the model gets its workflow without a hand edit (one source)', () => {
    const [template] = model.actions;
    assert.ok(template);
    const ninth = { ...template, identifier: `${template.identifier}_again`, transition: { ...template.transition, action: `${template.identifier}_again` } };
    const grown = { ...contract, model: { ...model, actions: [...model.actions, ninth], lifecycle: { ...model.lifecycle, transitions: [...model.lifecycle.transitions, ninth.transition] } } };
    const ids = planWorkflows(grown).map((planned) => planned.workflowId);
    assert.ok(ids.includes(ninth.identifier));
    assert.ok(ids.length > planWorkflows(contract).length);
  });

  test('an action that leads to the status it is sent from (a renewal, say) gets a workflow expecting nothing changed, twice', () => {
    const template = model.actions.find((action) => action.transition.kind === 'fixed');
    assert.ok(template !== undefined && template.transition.kind === 'fixed');
    const holds = template.transition.to;
    const identifier = `${template.identifier}_in_place`;
    const ninth = { ...template, identifier, transition: { kind: 'fixed' as const, action: identifier, from: [holds], to: holds } };
    const grown = { ...contract, model: { ...model, actions: [...model.actions, ninth], lifecycle: { ...model.lifecycle, transitions: [...model.lifecycle.transitions, ninth.transition] } } };
    const planned = planWorkflows(grown).find((workflow) => workflow.workflowId === identifier);
    assert.ok(planned !== undefined, 'the action has its workflow');
    assert.equal(planned.startStatus, holds);
    assert.equal(planned.changesSubscription, false);
    assert.deepEqual(
      planned.steps.map((step) => step.expect),
      planned.steps.map(() => ({ kind: 'result', result: { previousStatus: holds, status: holds, changed: false } })),
    );
  });

  test('meets a refusal and follows it with an action the refusal lists, read from the answer', () => {
    const refusal = workflows().find((candidate) => candidate.steps.some((step) => conditions(step).includes(`$statusCode == ${errors.transitionNotAllowed.status}`)));
    assert.ok(refusal, 'a workflow that meets the 409');
    const [meet, follow] = refusal.steps;
    assert.ok(meet && follow);
    const status = conditions(meet).find((condition) => condition.includes(errors.currentStatusMember))?.match(/'(.*)'$/)?.[1];
    assert.ok(status !== undefined);
    const refusedAction = String(meet.requestBody.payload[model.envelope.selector]);
    const refused = model.actions.find((action) => action.identifier === refusedAction);
    assert.ok(refused && refusedStates(model.lifecycle, refused.transition).includes(status), `${status} refuses ${refusedAction}`);
    const listed = actionsThatChange(model.lifecycle, status);
    const read = meet.outputs?.next_action?.match(new RegExp(`/${errors.allowedActionsMember}/(\\d+)$`))?.[1];
    assert.ok(read !== undefined, 'the action to follow with is read from the list in the answer');
    const followed = listed[Number(read)];
    assert.ok(followed !== undefined);
    assert.ok(meet.successCriteria.some((criterion) => criterion.type === 'jsonpath' && criterion.condition.includes(`'${followed}'`)), 'the list is checked to name it');
    assert.equal(follow.requestBody.payload[model.envelope.selector], `$steps.${meet.stepId}.outputs.next_action`);
    assert.ok(conditions(follow).includes(`${member(result.previousStatus)} == $steps.${meet.stepId}.outputs.${errors.currentStatusMember}`));
    assert.ok(conditions(follow).includes(`${member(result.changed)} == true`));
  });

  test('walks there and back where two actions undo each other, each step from the status the last one left', () => {
    const roundTrips = planWorkflows(contract).filter((planned) => planned.kind === 'round-trip');
    assert.ok(roundTrips.length >= 2);
    for (const planned of roundTrips) {
      const [out, home] = planned.steps.map((step) => (step.expect.kind === 'result' ? step.expect.result : undefined));
      assert.ok(out && home);
      assert.equal(out.previousStatus, planned.startStatus);
      assert.equal(home.previousStatus, out.status);
      assert.equal(home.status, planned.startStatus);
    }
  });

  test('waits out a throttled answer a bounded number of times, and changes nothing', () => {
    const throttled = workflows().flatMap((candidate) => candidate.steps).filter((step) => step.onFailure !== undefined);
    assert.equal(throttled.length, 1);
    const [retry] = throttled[0]?.onFailure ?? [];
    assert.equal(retry?.type, 'retry');
    assert.ok((retry?.retryLimit ?? 0) >= 1 && (retry?.retryAfter ?? 0) > 0);
    assert.deepEqual(retry?.criteria, [{ condition: `$statusCode == ${contract.throttled.status}` }]);
    assert.ok(conditions(throttled[0]).includes(`${member(result.changed)} == false`));
  });

  test('gives every workflow its own subscription, which a new sandbox holds in the status it starts from', () => {
    const seed = sandboxSeed(contract);
    const subscriptions = workflowSubscriptions(contract);
    assert.equal(new Set(subscriptions.map((subscription) => subscription.id)).size, subscriptions.length);
    for (const planned of planWorkflows(contract)) {
      const given = subscriptions.find((subscription) => subscription.workflowId === planned.workflowId);
      assert.ok(given);
      assert.deepEqual(seed.find((subscription) => subscription.id === given.id), { id: given.id, status: planned.startStatus }, planned.workflowId);
      assert.equal(workflow(planned.workflowId).inputs.properties[subscriptionInputName(planned.workflowId)]?.default, given.id);
      assert.deepEqual(workflow(planned.workflowId).inputs.required, [apiKeyInput(contract)]);
    }
  });
});

describe('the gate holds the description to the contract', () => {
  const file = '.generated/lint/v1.arazzo.yaml';

  test('passes the generated description', () => {
    assert.deepEqual(checkWorkflowNames(text, file, contract), []);
  });

  /** The line of the first occurrence of `search` in the text, 1-based. */
  const lineOf = (search: string): number => text.slice(0, text.indexOf(search)).split('\n').length;

  const breaks = [
    {
      what: 'an operation the contract does not have',
      search: `operationId: ${model.endpoint.operation.operationId ?? ''}`,
      replacement: `operationId: ${model.endpoint.operation.operationId ?? ''}Elsewhere`,
      message: /names the operation `\w+Elsewhere`, which the contract does not have/,
    },
    {
      what: 'a field the action does not have',
      search: `      payload:\n            ${model.envelope.credential}:`,
      replacement: `      payload:\n            ${model.envelope.credential}_renamed:`,
      message: new RegExp(`sends the field \`${model.envelope.credential}_renamed\`, which \\w+ has`),
      lineOffset: 1,
    },
    {
      what: 'a member the answer does not have',
      search: `${member(result.changed)} == true`,
      replacement: `${member(`${result.changed}_renamed`)} == true`,
      message: new RegExp(`reads \`${result.changed}_renamed\` from the ${successStatus} answer`),
    },
    {
      what: 'a status the contract does not have',
      search: `${member(result.status)} == '`,
      replacement: `${member(result.status)} == 'renamed-`,
      message: /compares `status` with 'renamed-[^']+', which is not one of the values the contract lists/,
    },
    {
      what: 'a response status the contract does not document',
      search: `$statusCode == ${successStatus}`,
      replacement: '$statusCode == 299',
      message: /expects the status 299, which the contract does not document/,
    },
  ];
  for (const { what, search, replacement, message, lineOffset } of breaks) {
    test(`refuses ${what}, at its line`, () => {
      assert.ok(text.includes(search), search);
      const broken = text.replace(search, replacement);
      const problems = checkWorkflowNames(broken, file, contract);
      const problem = problems.find((candidate) => message.test(candidate.message));
      assert.ok(problem, JSON.stringify(problems, null, 2));
      assert.equal(problem.file, file);
      assert.equal(problem.rule, workflowsRule);
      assert.equal(problem.line, lineOf(search) + (lineOffset ?? 0));
    });
  }
});
