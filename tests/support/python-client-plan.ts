/**
 * What the Python library's unittest module (src/clients/python/tests/test_against_sandbox.py)
 * calls and expects, derived from the model, with the subscriptions a site must hold for it: the
 * Python file names no fact of the API, so it reads every one from this plan. The site is the
 * sandbox (tests/integration/python-client.test.ts) or the reference plugin in the real WordPress
 * (tests/integration/wordpress-plugin-zip.test.ts); the plan carries its address and key.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { attemptReportMembers } from '../../src/clients/shared/attempt-report.ts';
import { fieldRule } from '../../src/clients/shared/field-rules.ts';
import { pythonErrorClassName, pythonFixedErrorClassNames, pythonFloor, pythonMethodName } from '../../src/clients/python/generate.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions } from '../../src/lib/contract/lifecycle.ts';
import { callerExample, refusalCase, startingPoint, subscriptionSeed, type Fields } from './client-cases.ts';
import { projectDirectory } from './contract-copy.ts';

/** The folder of the unittest module, run with the virtual environment's Python from there. */
export const pythonTestsFolder = path.join(projectDirectory, 'src/clients/python/tests');

/** Where the unittest module sends its requests. */
export interface PythonPlanSite {
  baseUrl: string;
  endpointUrl: string;
  apiKey: string;
}

/**
 * The subscriptions the unittest module needs, from `firstId` on (`seed`, to place on the site
 * before it runs; `place` adds one more), and the plan for a site holding them.
 */
export function pythonClientPlan(contract: ExecutableContract, firstId: number) {
  const { model, errors } = contract;
  const { subject } = model.envelope;
  const { seeded: seed, place } = subscriptionSeed(firstId);
  const [firstAction] = model.actions;
  assert.ok(firstAction !== undefined);
  const { action: refusing, status: refusedStatus } = refusalCase(model);
  const cases = model.actions.map((action) => {
    const { from, to } = startingPoint(model, action);
    const id = place(from);
    return { action: action.identifier, method: pythonMethodName(action.identifier), fields: { ...callerExample(model, action), [subject]: id }, from, to };
  });
  const refusedId = place(refusedStatus);
  const spare = Array.from({ length: 12 }, () => place(startingPoint(model, firstAction).from));
  const withFirst = (fields: Fields) => ({ action: firstAction.identifier, method: pythonMethodName(firstAction.identifier), fields: { ...callerExample(model, firstAction), ...fields } });
  const subjectBound = firstAction.fields.find((field) => field.name === subject)?.constraints.find((constraint) => constraint.limit !== undefined);
  assert.ok(subjectBound !== undefined && typeof subjectBound.limit === 'number');
  const belowBound = { field: subject, label: subjectBound.label, value: subjectBound.limit - 1 };
  // An optional field the first action takes whose type has no null: given as None, it is not sent.
  const optionalField = firstAction.fields.find((field) => !field.required && !fieldRule(contract, field).types.includes('null'));
  assert.ok(optionalField !== undefined, `${firstAction.identifier} takes an optional field whose type has no null`);
  const fallback = model.actions.find((action) => allowedActions(model.lifecycle, refusedStatus).includes(action.identifier) && action.transition.kind === 'fixed');
  assert.ok(fallback !== undefined, 'the refused status allows an action of a fixed target');

  const plan = (site: PythonPlanSite) => ({
    base_url: site.baseUrl,
    endpoint_url: site.endpointUrl,
    api_key: site.apiKey,
    subject,
    result: contract.result,
    python_floor: pythonFloor,
    attempt_report_members: attemptReportMembers,
    error_classes: [...pythonFixedErrorClassNames, ...model.responses.filter((response) => response.isError && response.body !== undefined).map((response) => pythonErrorClassName(response.status))],
    cases,
    spare,
    conflict: {
      action: refusing.identifier,
      method: pythonMethodName(refusing.identifier),
      fields: { ...callerExample(model, refusing), [subject]: refusedId },
      class: pythonErrorClassName(errors.transitionNotAllowed.status),
      status: Number(errors.transitionNotAllowed.status),
      code: errors.transitionNotAllowed.code,
      current_status_property: pythonMethodName(errors.currentStatusMember),
      current_status: refusedStatus,
      allowed_actions_property: pythonMethodName(errors.allowedActionsMember),
      allowed_actions: allowedActions(model.lifecycle, refusedStatus),
      fallback: { action: fallback.identifier, fields: { ...callerExample(model, fallback), [subject]: refusedId } },
    },
    bad_request: { ...withFirst({ a_field_no_release_has: 1 }), class: pythonErrorClassName(errors.invalidParameter.status), code: errors.invalidParameter.code },
    unauthorized: { ...withFirst({}), class: pythonErrorClassName(errors.invalidKey.status), code: errors.invalidKey.code },
    not_found: { ...withFirst({ [subject]: 2_147_483_000 }), class: pythonErrorClassName(errors.subscriptionNotFound.status), code: errors.subscriptionNotFound.code },
    optional_none: { ...withFirst({}), field: optionalField.name },
    out_of_bound: { ...withFirst({ [subject]: belowBound.value }), field: belowBound.field, label: belowBound.label },
    throttled: { status: Number(contract.throttled.status), header: contract.retryAfterHeader },
  });
  return { seed, place, plan };
}

/**
 * Runs the unittest module with the virtual environment's `python` and the plan in `planFile`.
 * Without blocking: the site (the sandbox) may answer from this process.
 */
export function runPythonUnittest(python: string, planFile: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(python, ['-m', 'unittest', '-v', 'test_against_sandbox'], { cwd: pythonTestsFolder, env: { ...process.env, PYTHON_CLIENT_PLAN: planFile, PYTHONDONTWRITEBYTECODE: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}
