/**
 * The Python library, packed into its wheel by the project's own packing and installed with pip
 * from the wheel alone into a fresh virtual environment, run by Python's own `unittest` against
 * the real sandbox over HTTP: every action and its repeat, a 409's allowed actions, 400, 401, 404,
 * a 429 in each `Retry-After` form then success, a host's HTML page, a timeout, a refused
 * connection, and the key in no repr, traceback or log record. The cases come from the contract's
 * model, written into a plan the Python module reads (src/clients/python/tests/). The sdist, too,
 * installs with pip and no index into a fresh virtual environment, and the page's install command
 * installs the wheel the built site publishes.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pythonDistributionName, pythonErrorClassName, pythonImportName } from '../../src/clients/python/generate.ts';
import { installPythonClient, installWithPip, type InstalledPythonClient } from '../../src/clients/python/installed-package.ts';
import { packPythonClient, pythonWheelName } from '../../src/clients/python/package.ts';
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
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';
import { startingPoint } from '../support/client-cases.ts';
import { pythonClientPlan, pythonTestsFolder, runPythonUnittest } from '../support/python-client-plan.ts';

const contract = readExecutableContract(bundledDocument());
const { model } = contract;
const apiKey = 'a-key-that-must-never-be-printed';
const python3 = spawnSync('python3', ['-c', 'import venv, ensurepip'], { encoding: 'utf8' });
const skip = python3.status === 0 ? false : 'python3 with venv is not installed here (apt-get install -y python3-venv)';

const { seed: seeded, place, plan } = pythonClientPlan(contract, 30_000);

let installed: InstalledPythonClient | undefined;
let sandbox: Sandbox | undefined;
let planFile = '';

describe('the Python library against the sandbox', { skip }, () => {
  before(async () => {
    installed = installPythonClient(contract);
    sandbox = await startSandbox({ port: 0, contract, apiKey, seed: seeded });
    planFile = path.join(path.dirname(installed.wheel), 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan({ baseUrl: sandbox.url, endpointUrl: sandbox.endpointUrl, apiKey }), null, 2));
  });
  after(async () => {
    await sandbox?.close();
    installed?.remove();
  });

  test('Python\'s unittest passes every case, run from the installed wheel', async () => {
    assert.ok(installed !== undefined);
    const run = await runPythonUnittest(installed.python, planFile);
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /\nOK\b/);
    assert.doesNotMatch(run.stderr, /skipped/);
  });

  test('the wheel\'s RECORD hashes every file it holds, and the sdist has its PKG-INFO, pyproject.toml and LICENSE, as Python reads them', () => {
    assert.ok(installed !== undefined);
    const checked = spawnSync('python3', [path.join(pythonTestsFolder, 'check_archives.py'), installed.wheel, installed.sdist, model.documentVersion], { encoding: 'utf8' });
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
    // A refused key, and a base URL without its scheme, end it with the error's name and message, no traceback.
    const wrongKey = await run(installed.python, [script], { [siteUrl]: sandbox.url, [keyVariable]: `not-${apiKey}`, [subscriptionId]: String(id) });
    assert.equal(wrongKey.status, 1, wrongKey.output);
    assert.match(wrongKey.output, new RegExp(`^${pythonErrorClassName(contract.errors.invalidKey.status)}: .*${contract.errors.invalidKey.code}`, 'm'));
    const schemeless = await run(installed.python, [script], { [siteUrl]: new URL(sandbox.url).host, [keyVariable]: apiKey, [subscriptionId]: String(id) });
    assert.equal(schemeless.status, 1, schemeless.output);
    for (const ended of [wrongKey, schemeless]) assert.doesNotMatch(ended.output, /Traceback/, 'no traceback');

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

describe('pip install of the sdist, offline', { skip }, () => {
  test('pip installs the sdist with no index into a fresh virtual environment: its own build backend needs nothing the environment lacks, and builds the wheel the site publishes', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'python-client-sdist-'));
    try {
      const { wheel, sdist } = packPythonClient(contract, path.join(work, 'packed'));
      const python = installWithPip(sdist, path.join(work, 'venv'));
      // The package pip installed from the sdist, file by file, against the wheel the site publishes.
      const listing = await run(python, ['-c', `import json, pathlib, ${pythonImportName} as library; folder = pathlib.Path(library.__file__).parent; print(json.dumps({path.name: path.read_text(encoding="utf-8") for path in sorted(folder.iterdir()) if path.is_file()}))`], { cwd: work });
      assert.equal(listing.status, 0, listing.output);
      const installedFiles = JSON.parse(listing.output) as Record<string, string>;
      const fromWheel = await run('python3', ['-c', `import json, sys, zipfile; wheel = zipfile.ZipFile(sys.argv[1]); prefix = "${pythonImportName}/"; print(json.dumps({name[len(prefix):]: wheel.read(name).decode("utf-8") for name in sorted(wheel.namelist()) if name.startswith(prefix)}))`, wheel]);
      assert.equal(fromWheel.status, 0, fromWheel.output);
      assert.deepEqual(installedFiles, JSON.parse(fromWheel.output));
      const version = await run(python, ['-c', `import importlib.metadata; print(importlib.metadata.version("${pythonDistributionName}"))`], { cwd: work });
      assert.equal(version.output.trim(), model.documentVersion);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
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
