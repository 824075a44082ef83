/**
 * The Python library, packed into its wheel by the project's own packing and installed with pip
 * from the wheel alone into a fresh virtual environment, run by Python's own `unittest` against
 * the real sandbox over HTTP: every action and its repeat, a 409's allowed actions, 400, 401, 404,
 * a 429 in each `Retry-After` form then success, a host's HTML page, a timeout, a refused
 * connection, and the key in no repr, traceback or log record. The cases come from the contract's
 * model, written into a plan the Python module reads (src/clients/python/tests/).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { attemptReportMembers } from '../../src/clients/shared/attempt-report.ts';
import { pythonErrorClassName, pythonFixedErrorClassNames, pythonFloor, pythonImportName, pythonMethodName } from '../../src/clients/python/generate.ts';
import { installPythonClient, type InstalledPythonClient } from '../../src/clients/python/installed-package.ts';
import { pythonWheelName } from '../../src/clients/python/package.ts';
import { pythonErrorsExample, pythonExampleScript, pythonExampleScriptFile, pythonInstallCommand } from '../../src/clients/python/usage.ts';
import { exampleEnvironment } from '../../src/clients/shared/page-code.ts';
import { readFacts } from '../../src/lib/contract/facts.ts';
import { siteConfig } from '../../src/site-config.ts';
import { toolsDownloadDirectory } from '../../src/contract-tools/tools-package.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { serveLikeAStaticHost, type StaticHost } from '../../src/host/static-host.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions } from '../../src/lib/contract/lifecycle.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { callerExample, refusalCase, startingPoint, subscriptionSeed, type Fields } from '../support/client-cases.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const { model, result, errors } = contract;
const { subject } = model.envelope;
const apiKey = 'a-key-that-must-never-be-printed';
const pythonTests = path.join(projectDirectory, 'src/clients/python/tests');
const python3 = spawnSync('python3', ['-c', 'import venv, ensurepip'], { encoding: 'utf8' });
const skip = python3.status === 0 ? false : 'python3 with venv is not installed here (apt-get install -y python3-venv)';

const { seeded, place } = subscriptionSeed(30_000);

const [firstAction] = model.actions;
assert.ok(firstAction !== undefined);
const { action: refusing, status: refusedStatus } = refusalCase(model);
const snake = (name: string) => pythonMethodName(name);

let installed: InstalledPythonClient | undefined;
let sandbox: Sandbox | undefined;
let planFile = '';

describe('the Python library against the sandbox', { skip }, () => {
  before(async () => {
    installed = installPythonClient(contract);
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
    sandbox = await startSandbox({ port: 0, contract, apiKey, seed: seeded });
    const plan = {
      base_url: sandbox.url,
      endpoint_url: sandbox.endpointUrl,
      api_key: apiKey,
      subject,
      result,
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
        current_status_property: snake(errors.currentStatusMember),
        current_status: refusedStatus,
        allowed_actions_property: snake(errors.allowedActionsMember),
        allowed_actions: allowedActions(model.lifecycle, refusedStatus),
        fallback: (() => {
          const fallback = model.actions.find((action) => allowedActions(model.lifecycle, refusedStatus).includes(action.identifier) && action.transition.kind === 'fixed');
          assert.ok(fallback !== undefined, 'the refused status allows an action of a fixed target');
          return { action: fallback.identifier, fields: { ...callerExample(model, fallback), [subject]: refusedId } };
        })(),
      },
      bad_request: { ...withFirst({ a_field_no_release_has: 1 }), class: pythonErrorClassName(errors.invalidParameter.status), code: errors.invalidParameter.code },
      unauthorized: { ...withFirst({}), class: pythonErrorClassName(errors.invalidKey.status), code: errors.invalidKey.code },
      not_found: { ...withFirst({ [subject]: 2_147_483_000 }), class: pythonErrorClassName(errors.subscriptionNotFound.status), code: errors.subscriptionNotFound.code },
      out_of_bound: { ...withFirst({ [subject]: subjectBound.limit - 1 }), field: subject, label: subjectBound.label },
      throttled: { status: Number(contract.throttled.status), header: contract.retryAfterHeader },
    };
    planFile = path.join(path.dirname(installed.wheel), 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan, null, 2));
  });
  after(async () => {
    await sandbox?.close();
    installed?.remove();
  });

  test('Python\'s unittest passes every case, run from the installed wheel', async () => {
    assert.ok(installed !== undefined);
    // Run without blocking: the sandbox answers from this process.
    const child = spawn(installed.python, ['-m', 'unittest', '-v', 'test_against_sandbox'], { cwd: pythonTests, env: { ...process.env, PYTHON_CLIENT_PLAN: planFile, PYTHONDONTWRITEBYTECODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const run = { status, stdout, stderr };
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /\nOK\b/);
    assert.doesNotMatch(run.stderr, /skipped/);
  });

  test('the wheel\'s RECORD hashes every file it holds, and the sdist has its PKG-INFO, pyproject.toml and LICENSE, as Python reads them', () => {
    assert.ok(installed !== undefined);
    const checked = spawnSync('python3', [path.join(pythonTests, 'check_archives.py'), installed.wheel, installed.sdist, model.documentVersion], { encoding: 'utf8' });
    assert.equal(checked.status, 0, `${checked.stdout}${checked.stderr}`);
  });

  test('the page\'s example pauses a subscription against a throttling sandbox, waiting out its 429', async () => {
    assert.ok(installed !== undefined && sandbox !== undefined);
    const facts = readFacts(contract.document);
    const action = contract.action(facts.quickstartAction);
    assert.ok(action !== undefined);
    const { from, to } = startingPoint(model, action);
    const id = place(from);
    await sandbox.close();
    sandbox = await startSandbox({ port: 0, contract, apiKey, seed: seeded });
    const script = path.join(path.dirname(installed.wheel), pythonExampleScriptFile);
    writeFileSync(script, pythonExampleScript(contract));
    sandbox.throttleNext(1, '1');
    const { siteUrl, apiKey: keyVariable, subscriptionId } = exampleEnvironment;
    const ran = await run(installed.python, [script], { [siteUrl]: sandbox.url, [keyVariable]: apiKey, [subscriptionId]: String(id) });
    assert.equal(ran.status, 0, ran.output);
    assert.match(ran.output, new RegExp(to));
    assert.equal(sandbox.subscriptions().find((subscription) => subscription.id === id)?.status, to);
    const unset = await run(installed.python, [script], { [siteUrl]: '' });
    assert.notEqual(unset.status, 0);
    assert.match(unset.output, new RegExp(`Set ${siteUrl}`));

    // The errors example, on a subscription whose status refuses the action: it says which actions that status allows, and logs each attempt.
    const refusedStatus = action.refusedStates.find((status) => allowedActions(model.lifecycle, status).length > 0);
    assert.ok(refusedStatus !== undefined, `some status refuses ${action.identifier} and allows others`);
    const refusedId = place(refusedStatus);
    await sandbox.close();
    sandbox = await startSandbox({ port: 0, contract, apiKey, seed: seeded });
    const errorsScript = path.join(path.dirname(installed.wheel), 'errors.py');
    writeFileSync(errorsScript, pythonErrorsExample(contract));
    const refused = await run(installed.python, [errorsScript], { [siteUrl]: sandbox.url, [keyVariable]: apiKey, [subscriptionId]: String(refusedId) });
    assert.equal(refused.status, 0, refused.output);
    assert.ok(refused.output.includes(`The subscription is ${refusedStatus}`), refused.output);
    for (const allowed of allowedActions(model.lifecycle, refusedStatus)) assert.ok(refused.output.includes(allowed), `${allowed} in ${refused.output}`);
    assert.match(refused.output, /"attempt": 1/);
    assert.ok(!refused.output.includes(apiKey), 'the key is in no attempt report');
  });
});

describe('pip install from the built site', { skip }, () => {
  let site: StaticHost | undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'python-client-site-'));
  before(async () => {
    ensureBuiltSite(projectDirectory);
    site = await serveLikeAStaticHost(path.join(projectDirectory, 'dist'));
  });
  after(async () => {
    await site?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('the page\'s install command, the docs URL mapped to the local site, installs the wheel the site publishes into a fresh virtual environment, with no index', async () => {
    assert.ok(site !== undefined);
    const command = pythonInstallCommand(siteConfig.docsUrl, model.documentVersion).replaceAll(siteConfig.docsUrl.replace(/\/+$/, ''), site.origin);
    assert.ok(command.includes(`${site.origin}/${toolsDownloadDirectory}/${pythonWheelName(model.documentVersion)}`), command);
    // Run without blocking: the site is served from this process. No index: the wheel alone is installed.
    const installed = await run('bash', ['-c', command], { cwd: work, PIP_NO_INDEX: '1' });
    assert.equal(installed.status, 0, installed.output);
    const imported = await run(path.join(work, '.venv', 'bin', 'python'), ['-c', `import ${pythonImportName} as library; print(library.__version__)`]);
    assert.equal(imported.output.trim(), model.documentVersion);
  });
});

function run(command: string, args: string[], options: { cwd?: string; [variable: string]: string | undefined } = {}): Promise<{ status: number | null; output: string }> {
  const { cwd, ...variables } = options;
  const child = spawn(command, args, { cwd, env: { ...process.env, PIP_NO_CACHE_DIR: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', ...variables } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })));
}
