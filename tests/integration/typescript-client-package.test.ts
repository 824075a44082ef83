/**
 * The TypeScript client package as published: its manifest, tarball, licence and generated
 * headers, clean to publint and @arethetypeswrong/cli, its types under `tsc --strict` with
 * type-level tests written from the model (a field of another action is a type error), the page's
 * examples saved as `.ts` under `tsc --strict`, the oldest release of every Node line `engines`
 * claims importing it from an ES module and requiring it from CommonJS, a Worker (workerd through
 * Miniflare), and a ninth action added to a copy of the contract alone reaching the package.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build, stop as stopEsbuild } from 'esbuild';
import { Miniflare } from 'miniflare';
import { addActions, spreadCopies } from '../../src/bench/scaled-contract.ts';
import { contractLicense } from '../../src/clients/shared/license.ts';
import { buildTypescriptClient, commonJsDirectory, typescriptClientNodeLines, typescriptClientNodeRange } from '../../src/clients/typescript/build.ts';
import { errorClassName, methodName, typescriptClientClassName, typescriptClientPackageName } from '../../src/clients/typescript/generate.ts';
import { conflictExample, errorHandlingExample, exampleScript, typescriptClientTarballName } from '../../src/clients/typescript/usage.ts';
import { nodeBinary } from '../support/node-lines.ts';
import { loadGatedContract } from '../../src/gate/gated-contract.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { bundledDocument, copyContract, projectDirectory } from '../support/contract-copy.ts';
import { installTypescriptClient, type InstalledClient } from '../../src/clients/typescript/installed-package.ts';

const contract = readExecutableContract(bundledDocument());
const { model } = contract;
const { selector, credential, subject } = model.envelope;
let installed: InstalledClient;

before(() => {
  installed = installTypescriptClient(contract);
});
after(() => installed?.remove());

/** An action's request example as a caller passes it: without the selector and the key. */
function callerExample(action: Action): Record<string, unknown> {
  const { [selector]: _selector, [credential]: _key, ...fields } = action.requestExample.value;
  return fields;
}

/** A status the action changes, for a subscription the sandbox holds. */
function acceptingStatus(action: Action, lifecycle = model.lifecycle): string {
  const example = action.requestExample.value;
  const requested = action.transition.kind === 'chosen' ? String(example[action.transition.field]) : undefined;
  const status = lifecycle.states.find((state) => outcomeOf(action.transition, state, requested).kind === 'changed');
  assert.ok(status !== undefined, `some status accepts ${action.identifier}`);
  return status;
}

test('the tarball is named for the contract version and carries ES modules and CommonJS, each with its types, no dependency, the contract\'s licence', () => {
  assert.equal(path.basename(installed.tarball), typescriptClientTarballName(model.documentVersion));
  const manifest = JSON.parse(readFileSync(path.join(installed.packageDirectory, 'package.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(manifest.name, typescriptClientPackageName);
  assert.equal(manifest.version, model.documentVersion);
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.sideEffects, false);
  assert.deepEqual(manifest.engines, { node: typescriptClientNodeRange });
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.license, contractLicense(contract).identifier);
  assert.deepEqual((manifest.exports as Record<string, unknown>)['.'], {
    import: { types: './dist/index.d.ts', default: './dist/index.js' },
    require: { types: `./dist/${commonJsDirectory}/index.d.ts`, default: `./dist/${commonJsDirectory}/index.js` },
  });
  for (const file of ['dist/index.js', 'dist/index.d.ts', `dist/${commonJsDirectory}/index.js`, `dist/${commonJsDirectory}/index.d.ts`, 'README.md', 'LICENSE']) assert.ok(existsSync(path.join(installed.packageDirectory, file)), file);
  assert.match(readFileSync(path.join(installed.packageDirectory, 'LICENSE'), 'utf8'), new RegExp(`SPDX-License-Identifier: ${contractLicense(contract).identifier.replace(/[.+]/g, '\\$&')}\n`));
  assert.deepEqual(JSON.parse(readFileSync(path.join(installed.packageDirectory, 'dist', commonJsDirectory, 'package.json'), 'utf8')), { type: 'commonjs' });
  const declarations = readFileSync(path.join(installed.packageDirectory, 'dist/index.d.ts'), 'utf8');
  for (const action of model.actions) assert.match(declarations, new RegExp(`\\b${methodName(action.identifier)}\\(fields: `), `a method for ${action.identifier}`);
});

test('every compiled file, the declarations included, says what it was generated from and that it is not to be edited', () => {
  const files = [...readdirSync(path.join(installed.packageDirectory, 'dist'), { recursive: true, encoding: 'utf8' })].filter((file) => /\.(js|d\.ts)$/.test(file));
  assert.ok(files.length >= 8, files.join(', '));
  for (const file of files) {
    const [firstLine] = readFileSync(path.join(installed.packageDirectory, 'dist', file), 'utf8').split('\n');
    assert.match(firstLine ?? '', new RegExp(`^// Generated from version ${model.documentVersion.replaceAll('.', '\\.')} of the contract by src/clients/typescript/build\\.ts, compiled from \\S.*\\. Do not edit`), file);
  }
});

test('the packed tarball is clean to publint and to @arethetypeswrong/cli, ES modules and CommonJS alike', () => {
  const publint = spawnSync(process.execPath, [path.join(projectDirectory, 'node_modules/publint/src/cli.js'), 'run', installed.tarball, '--strict'], { encoding: 'utf8' });
  assert.equal(publint.status, 0, `${publint.stdout}${publint.stderr}`);
  assert.match(publint.stdout, /All good/, publint.stdout);
  const attw = spawnSync(process.execPath, [path.join(projectDirectory, 'node_modules/@arethetypeswrong/cli/dist/index.js'), installed.tarball, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(attw.status, 0, `${attw.stdout}${attw.stderr}`);
  const report = JSON.parse(attw.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, { resolution?: { moduleKind?: { detectedKind?: number } } }> }> } };
  assert.deepEqual(report.analysis.problems, []);
  const resolutions = report.analysis.entrypoints['.']?.resolutions ?? {};
  assert.deepEqual(Object.keys(resolutions).sort(), ['bundler', 'node10', 'node16-cjs', 'node16-esm'], 'every resolution was judged');
});
/**
 * Type-level tests, written from the model: every action's example compiles and its result is
 * typed; a field another action takes, a wrong type, a missing subscription are type errors
 * (`@ts-expect-error` fails the check when no error is there); an action a later release adds
 * takes any fields and keeps its name.
 */
function typeTests(): string {
  const conflictClass = errorClassName(contract.errors.transitionNotAllowed.status);
  const camel = (name: string) => name.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());
  const lines = [
    `import { ${typescriptClientClassName}, ${conflictClass}, InvalidFieldError, ThrottledError, type SubscriptionStatus, type ActionName } from '${typescriptClientPackageName}';`,
    `const client = new ${typescriptClientClassName}('https://shop.example', 'key-not-a-secret', { pace: 0, timeout: 1000, maxAttempts: 2, signal: AbortSignal.timeout(5000) });`,
    'export async function check(): Promise<void> {',
  ];
  model.actions.forEach((action, index) => {
    const example = JSON.stringify(callerExample(action));
    lines.push(
      `  const result${index} = await client.${methodName(action.identifier)}(${example});`,
      `  const name${index}: ${JSON.stringify(action.identifier)} = result${index}.${contract.result.action};`,
      `  const status${index}: SubscriptionStatus = result${index}.${contract.result.status};`,
      `  const changed${index}: boolean = result${index}.${contract.result.changed};`,
      `  const later${index}: unknown = result${index}['a_member_a_later_release_adds'];`,
      `  void [name${index}, status${index}, changed${index}, later${index}];`,
      `  await client.action(${JSON.stringify(action.identifier)}, ${example});`,
      '  // @ts-expect-error the subscription is required',
      `  await client.${methodName(action.identifier)}({});`,
      '  // @ts-expect-error the subscription is a number',
      `  await client.action(${JSON.stringify(action.identifier)}, { ...${example}, ${subject}: 'one' });`,
    );
    for (const other of model.actions) {
      const foreign = other.fields.find((field) => !action.fields.some((own) => own.name === field.name));
      if (foreign === undefined) continue;
      const value = JSON.stringify(other.requestExample.value[foreign.name] ?? 1);
      lines.push(
        `  // @ts-expect-error ${foreign.name} is a field of ${other.identifier}, not of ${action.identifier}`,
        `  await client.action(${JSON.stringify(action.identifier)}, { ...${example}, ${foreign.name}: ${value} });`,
        `  // @ts-expect-error ${foreign.name} through the method`,
        `  await client.${methodName(action.identifier)}({ ...${example}, ${foreign.name}: ${value} });`,
      );
      break;
    }
  });
  lines.push(
    `  const later = await client.action('an_action_a_later_release_adds', { ${subject}: 1, anything: true });`,
    `  const laterName: 'an_action_a_later_release_adds' = later.${contract.result.action};`,
    `  const someName: ActionName = 'another_action_a_later_release_adds';`,
    `  const laterStatus: string = later.${contract.result.status};`,
    '  void [laterName, someName, laterStatus];',
    '  try {',
    `    await client.action(someName, { ${subject}: 1 });`,
    '  } catch (error) {',
    `    if (error instanceof ${conflictClass}) {`,
    `      const current: SubscriptionStatus | undefined = error.${camel(contract.errors.currentStatusMember)};`,
    `      const allowed: readonly ActionName[] | undefined = error.${camel(contract.errors.allowedActionsMember)};`,
    '      void [current, allowed, error.code, error.status, error.data];',
    '    }',
    '    if (error instanceof InvalidFieldError) void [error.field, error.bound];',
    '    if (error instanceof ThrottledError) void error.retryAfterMs;',
    '  }',
    '}',
  );
  return `${lines.join('\n')}\n`;
}

test('the package type-checks under tsc --strict, with type-level tests of its narrowing written from the model', () => {
  const file = path.join(installed.folder, 'types.test.ts');
  writeFileSync(file, typeTests());
  const tsc = path.join(projectDirectory, 'node_modules/typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '--strict', '--noEmit', '--exactOptionalPropertyTypes', '--noUncheckedIndexedAccess', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', '--types', 'node', '--typeRoots', path.join(projectDirectory, 'node_modules/@types'), file], { cwd: installed.folder, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  // The check can fail: a field of another action written without its @ts-expect-error is reported.
  writeFileSync(file, typeTests().replace(/^ *\/\/ @ts-expect-error .* of .*, not of .*\n/m, ''));
  const broken = spawnSync(process.execPath, [tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', '--types', 'node', '--typeRoots', path.join(projectDirectory, 'node_modules/@types'), file], { cwd: installed.folder, encoding: 'utf8' });
  assert.notEqual(broken.status, 0, 'the narrowing is checked');
  assert.match(broken.stdout, /does not exist in type|Object literal may only specify known properties/);
});

test('the page\'s examples, saved as .ts, pass tsc --strict with the package\'s types', () => {
  const tsc = path.join(projectDirectory, 'node_modules/typescript/bin/tsc');
  const examples = { 'page-example.ts': exampleScript(contract), 'page-conflict.ts': conflictExample(contract, errorClassName(contract.errors.transitionNotAllowed.status)), 'page-errors.ts': errorHandlingExample(contract) };
  for (const [file, text] of Object.entries(examples)) writeFileSync(path.join(installed.folder, file), text);
  const options = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--typeRoots', path.join(projectDirectory, 'node_modules/@types')];
  const run = spawnSync(process.execPath, [tsc, ...options, ...Object.keys(examples)], { cwd: installed.folder, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  // The check can fail: the environment read without its test for an unset variable is reported.
  writeFileSync(path.join(installed.folder, 'careless.ts'), exampleScript(contract).replace(/^if \(.*\n(?: {2}.*\n)*\}\n/m, ''));
  const careless = spawnSync(process.execPath, [tsc, ...options, 'careless.ts'], { cwd: installed.folder, encoding: 'utf8' });
  assert.notEqual(careless.status, 0, 'an unchecked process.env is a strict error');
  assert.match(careless.stdout, /string \| undefined/);
});

/** A program pausing (the first action) a subscription of a sandbox with the installed package, by its name, as an ES module or in CommonJS. */
function callScript(baseUrl: string, action: Action, id: number, format: 'esm' | 'cjs', specifier = typescriptClientPackageName): string {
  const client = `const client = new ${typescriptClientClassName}(${JSON.stringify(baseUrl)}, "sandbox-key-not-a-secret", { pace: 0 });`;
  const send = `client.${methodName(action.identifier)}(${JSON.stringify({ ...callerExample(action), [subject]: id })})`;
  if (format === 'esm') return `import { ${typescriptClientClassName} } from ${JSON.stringify(specifier)};\n${client}\nconsole.log(JSON.stringify(await ${send}));\n`;
  return `const { ${typescriptClientClassName} } = require(${JSON.stringify(specifier)});\n${client}\n${send}.then((answer) => console.log(JSON.stringify(answer)), (error) => { console.error(error); process.exitCode = 1; });\n`;
}

const runFile = promisify(execFile);

describe('the oldest release of every Node line engines claims, from an ES module and from CommonJS', () => {
  for (const line of typescriptClientNodeLines) {
    const version = `${line}.0.0`;
    test(`Node ${version}`, async (context) => {
      const binary = nodeBinary(version);
      if ('unavailable' in binary) {
        context.skip(binary.unavailable);
        return;
      }
      const [action] = model.actions;
      assert.ok(action !== undefined);
      const ids = { esm: 9000 + line * 2, cjs: 9001 + line * 2 };
      const sandbox = await startSandbox({ port: 0, contract, seed: [{ id: ids.esm, status: acceptingStatus(action) }, { id: ids.cjs, status: acceptingStatus(action) }] });
      try {
        assert.equal(spawnSync(binary.path, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim(), `v${version}`);
        for (const format of ['esm', 'cjs'] as const) {
          const script = path.join(installed.folder, `node-${line}.${format === 'esm' ? 'mjs' : 'cjs'}`);
          writeFileSync(script, callScript(sandbox.url, action, ids[format], format));
          // Not spawnSync: the sandbox answers from this process's event loop.
          const run = await runFile(binary.path, [script], { cwd: installed.folder, encoding: 'utf8', timeout: 30_000 });
          const answer = JSON.parse(run.stdout) as Record<string, unknown>;
          assert.equal(answer[contract.result.action], action.identifier, `${format} on ${version}`);
          assert.equal(answer[contract.result.changed], true, `${format} on ${version}`);
        }
      } finally {
        await sandbox.close();
      }
    });
  }
});

test('runs in a Worker (workerd through Miniflare): a success and a refusal with its class', async () => {
  const action = model.actions.find((candidate) => candidate.refusedStates.length > 0);
  assert.ok(action !== undefined, 'some action refuses some status');
  const refused = action.refusedStates[0] as string;
  const sandbox = await startSandbox({ port: 0, contract, seed: [{ id: 9101, status: acceptingStatus(action) }, { id: 9102, status: refused }] });
  // Inside the project: workerd refuses a script path that leaves its starting directory.
  const workDirectory = mkdtempSync(path.join(projectDirectory, '.generated', 'typescript-client-worker-'));
  let worker: Miniflare | undefined;
  try {
    const entry = path.join(workDirectory, 'worker.mjs');
    writeFileSync(entry, `import { ${typescriptClientClassName} } from ${JSON.stringify(installed.entryUrl.replace('file://', ''))};
export default {
  async fetch(request) {
    const { baseUrl, fields } = await request.json();
    const client = new ${typescriptClientClassName}(baseUrl, "sandbox-key-not-a-secret", { pace: 0, maxAttempts: 1 });
    try {
      return Response.json({ answer: await client.${methodName(action.identifier)}(fields) });
    } catch (error) {
      return Response.json({ error: error.name, status: error.status, code: error.code });
    }
  },
};
`);
    const scriptPath = path.join(workDirectory, 'bundle.mjs');
    await build({ entryPoints: [entry], outfile: scriptPath, bundle: true, format: 'esm', platform: 'neutral', logLevel: 'warning' });
    // esbuild's service process would otherwise keep the test alive.
    await stopEsbuild();
    worker = new Miniflare({ modules: true, scriptPath, compatibilityDate: '2025-01-01' });
    const url = await worker.ready;
    const ask = async (id: number) => (await (await fetch(url, { method: 'POST', body: JSON.stringify({ baseUrl: sandbox.url, fields: { ...callerExample(action), [subject]: id } }) })).json()) as Record<string, Record<string, unknown> | string | number>;
    const success = await ask(9101);
    assert.equal((success.answer as Record<string, unknown>)[contract.result.changed], true, JSON.stringify(success));
    const refusal = await ask(9102);
    assert.deepEqual(refusal, { error: errorClassName(contract.errors.transitionNotAllowed.status), status: contract.errors.transitionNotAllowed.status, code: contract.errors.transitionNotAllowed.code });
  } finally {
    await worker?.dispose();
    await sandbox.close();
    rmSync(workDirectory, { recursive: true, force: true });
  }
});

describe('a ninth action added to a copy of the contract alone', () => {
  const copy = copyContract();
  const packageDirectory = mkdtempSync(path.join(tmpdir(), 'typescript-client-ninth-'));
  let grown: ExecutableContract;
  let added: string;

  before(async () => {
    cpSync(path.join(projectDirectory, 'product'), path.join(copy.directory, 'product'), { recursive: true });
    const [action] = spreadCopies(copy.directory, 1);
    assert.ok(action !== undefined);
    addActions(copy.directory, [action]);
    added = action.identifier;
    const { document } = await loadGatedContract(copy.directory, { bundleDirectory: path.join(copy.directory, 'bundle') });
    grown = readExecutableContract(document);
    buildTypescriptClient(grown, packageDirectory);
  });
  after(() => {
    copy.remove();
    rmSync(packageDirectory, { recursive: true, force: true });
  });

  test('is a method of the generated client, typed, and sends the action to a sandbox of that contract', async () => {
    assert.equal(grown.model.actions.length, model.actions.length + 1);
    const declarations = readFileSync(path.join(packageDirectory, 'dist/index.d.ts'), 'utf8');
    assert.match(declarations, new RegExp(`${methodName(added)}\\(fields: \\w+, options\\?: CallOptions\\): Promise<ActionResult<"${added}">>`));
    assert.match(readFileSync(path.join(packageDirectory, 'dist/contract.d.ts'), 'utf8'), new RegExp(`"${added}"`));
    const action = grown.action(added);
    assert.ok(action !== undefined);
    const sandbox = await startSandbox({ port: 0, contract: grown, seed: [{ id: 9201, status: acceptingStatus(action, grown.model.lifecycle) }] });
    try {
      const script = path.join(packageDirectory, 'ninth.mjs');
      writeFileSync(script, callScript(sandbox.url, action, 9201, 'esm', new URL(`file://${path.join(packageDirectory, 'dist/index.js')}`).href));
      const { stdout } = await runFile(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 });
      const answer = JSON.parse(stdout) as Record<string, unknown>;
      assert.equal(answer[grown.result.action], added);
      assert.equal(answer[grown.result.changed], true);
    } finally {
      await sandbox.close();
    }
  });
});
