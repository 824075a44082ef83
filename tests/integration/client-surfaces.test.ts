/**
 * Version 1's promise, held for the client libraries (PHP, TypeScript, Python) by the gate's step
 * for them (src/gate/client-surfaces-step.ts) against the latest release's record of their surfaces:
 *
 * - an optional field inserted before the note of an action in a copy of the contract: the gate
 *   passes it when the release's PHP methods take one array of fields, and refuses it at the new
 *   field's line when they take the fields by position (the note would silently become the new
 *   field); the TypeScript and Python libraries take one object or dictionary of fields, so nothing
 *   of theirs is refused; the release's own callers, the action page's library samples generated
 *   from its snapshot, run unchanged against a sandbox of the changed contract with each library
 *   generated from it installed (the Python one from its wheel, in a fresh virtual environment),
 *   and send every field under the name the caller meant;
 * - the note made required, which breaks a caller of each library: refused at the note's line,
 *   naming the Python library's fields among the others;
 * - a new action whose method takes the name of a method the PHP client already has, which the
 *   contract's own checks accept: refused at the action's line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addActions } from '../../src/bench/scaled-contract.ts';
import { unpackZip, installPackage } from '../../src/clients/php/composer-project.ts';
import { packPhpClient } from '../../src/clients/php/package.ts';
import { installWithPip } from '../../src/clients/python/installed-package.ts';
import { pythonClientClassName, pythonMethodName } from '../../src/clients/python/generate.ts';
import { packPythonClient } from '../../src/clients/python/package.ts';
import type { PhpClass } from '../../src/clients/php/surface.ts';
import { generatorContract, readClientSurfaceRecord } from '../../src/clients/surface/surfaces.ts';
import { installTypescriptClient } from '../../src/clients/typescript/installed-package.ts';
import { formatGateProblem, type GateProblem } from '../../src/gate/gate.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { createSourceLocator } from '../../src/gate/source-files.ts';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument } from '../../src/lib/contract/document.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import { latestRelease, loadSnapshot, readReleases } from '../../src/lib/releases/releases.ts';
import { camelCaseName, clientMethodName, composerPackageName, phpClientNamespace } from '../../src/lib/samples/client-libraries.ts';
import type { SampleLanguage } from '../../src/lib/samples/code-samples.ts';
import { placeholdersIn } from '../../src/lib/samples/sample-parts.ts';
import { actionReferencePages, type ActionPage } from '../../src/lib/site/reference-pages.ts';
import { bundledDocument, copyContract, projectDirectory, type ContractCopy } from '../support/contract-copy.ts';
import { startRecordingServer } from '../support/reference-fixture.ts';
import { fillIn, missingRunner, runSample } from '../support/run-sample.ts';
import { describeRun, runAgainstSandbox, statusesFor } from '../support/sample-against-sandbox.ts';

const surfaceRule = /^client libraries\b/;
const noteField = 'note';
const insertedField = 'test_reference_before_note';

const release = latestRelease(readReleases(projectDirectory));
const record = release === undefined ? undefined : readClientSurfaceRecord(projectDirectory, release.version);
const phpClientClass = (): PhpClass | undefined => record?.php.classes.find((entry) => entry.name === `${phpClientNamespace}\\Client`);

/** The action the test grows: of those with a note, the one with the most fields before it. */
function actionWithNote(actions: readonly Action[]): Action {
  const candidates = actions.filter((action) => action.fields.some((field) => field.name === noteField));
  const chosen = candidates.sort((a, b) => b.fields.length - a.fields.length)[0];
  assert.ok(chosen !== undefined, `an action of the contract has a ${noteField}`);
  return chosen;
}

/** The file the action's request schema is written in, as the gate would name it. */
function schemaFile(copy: ContractCopy, action: Action): string {
  return createSourceLocator(copy.directory, contractRoot)(action.pointer).file;
}

function grownContract(copy: ContractCopy): ExecutableContract {
  const bundle = bundleContract(copy.directory, contractRoot, '.generated/openapi');
  return readExecutableContract(asOpenApiDocument(bundle.document, bundle.jsonPath));
}

/** The gate run on a copy: every problem, and those of its client libraries' step. */
async function gateOn(copy: ContractCopy): Promise<{ problems: GateProblem[]; refusals: GateProblem[] }> {
  const { problems } = await runGate({ projectDirectory: copy.directory });
  return { problems, refusals: problems.filter((problem) => surfaceRule.test(problem.rule ?? '')) };
}

function describeProblems(problems: readonly GateProblem[]): string {
  return problems.map(formatGateProblem).join('\n');
}

describe('the client libraries keep version 1\'s promise', { skip: record === undefined ? 'no release has a record of its libraries yet' : false, timeout: 900_000 }, () => {
  const current = readExecutableContract(bundledDocument());
  const action = actionWithNote(current.model.actions);
  const methodName = clientMethodName(action.identifier);
  /** Whether the release's PHP method takes the note as a parameter of its own, by position. */
  const positional = phpClientClass()?.methods.find((method) => method.name === methodName)?.parameters.some((parameter) => parameter.name === camelCaseName(noteField)) ?? false;

  let copy: ContractCopy;
  let grown: ExecutableContract;
  let problems: GateProblem[];
  let work: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'client-surfaces-'));
    copy = copyContract();
    copy.editYaml(schemaFile(copy, action), (schema) => {
      const properties = schema.properties as Record<string, unknown>;
      const entries = Object.entries(properties);
      const at = entries.findIndex(([name]) => name === noteField);
      assert.ok(at > 0, `the schema lists ${noteField}`);
      entries.splice(at, 0, [insertedField, { type: 'string', maxLength: 80, description: 'A reference this test inserts before the note; no real release has it.' }]);
      schema.properties = Object.fromEntries(entries);
    });
    grown = grownContract(copy);
    problems = (await runGate({ projectDirectory: copy.directory })).problems;
  });

  after(() => {
    copy?.remove();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test('an optional field inserted before the note: passed, or refused at its line when the release\'s PHP methods take fields by position', () => {
    const fields = grown.action(action.identifier)?.fields.map((field) => field.name) ?? [];
    assert.equal(fields.indexOf(insertedField) + 1, fields.indexOf(noteField), 'the copy has the new field just before the note');
    const others = problems.filter((problem) => !surfaceRule.test(problem.rule ?? ''));
    assert.deepEqual(others, [], `the contract's own checks take the field as an addition:\n${describeProblems(others)}`);
    const refusals = problems.filter((problem) => surfaceRule.test(problem.rule ?? ''));
    assert.deepEqual(refusals.filter((problem) => problem.message.includes('Python library')), [], 'the Python library takes one dictionary of fields: nothing of it breaks');
    if (!positional) {
      assert.deepEqual(refusals, [], describeProblems(refusals));
      return;
    }
    const file = schemaFile(copy, action);
    const line = copy.read(file).split('\n').findIndex((text) => text.trim() === `${insertedField}:`) + 1;
    assert.deepEqual(refusals.filter((problem) => !problem.message.includes('PHP library')), [], 'the TypeScript client takes one object of fields: nothing of it breaks');
    const atField = refusals.filter((problem) => problem.file === file && problem.line === line);
    assert.ok(atField.some((problem) => problem.message.includes(`${methodName}()`) && problem.message.includes('PHP')), `refused at ${file}: line ${line}, naming ${methodName}():\n${describeProblems(refusals)}`);
  });

  describe('the release\'s callers, unchanged, against a sandbox of the changed contract', { concurrency: 1 }, () => {
    let releasePage: ActionPage;

    before(() => {
      assert.ok(release !== undefined);
      const released = generatorContract(loadSnapshot(projectDirectory, release));
      const page = actionReferencePages(released.model).find((candidate) => candidate.action.identifier === action.identifier);
      assert.ok(page !== undefined, `release ${release.version} has ${action.identifier}`);
      releasePage = page;
    });

    async function installed(language: SampleLanguage): Promise<string> {
      if (language === 'php-library') {
        const zip = await packPhpClient(grown, path.join(work, 'php'));
        return installPackage({ type: 'path', url: unpackZip(zip, path.join(work, 'php-package')) }, composerPackageName, grown.model.documentVersion);
      }
      if (language === 'python-library') {
        // The runner finds the library's Python in the folder's `venv/`, as a reader who followed the page has it.
        const folder = path.join(work, 'python');
        const { wheel } = packPythonClient(grown, path.join(folder, 'packed'));
        installWithPip(wheel, path.join(folder, 'venv'));
        return folder;
      }
      return installTypescriptClient(grown).folder;
    }

    for (const language of ['typescript-library', 'php-library', 'python-library'] as const) {
      const skip = missingRunner(language) || (language === 'php-library' && positional ? 'the release\'s PHP methods take the fields by position: the gate refuses the insertion, as the test above shows' : false);
      test(`${language}: the release's sample carries out the action and sends each field by the name it meant`, { skip }, async () => {
        const sample = releasePage.samples.find((candidate) => candidate.language === language);
        assert.ok(sample !== undefined, `release ${release?.version ?? ''} has a ${language} sample`);
        const folder = await installed(language);
        const grownAction = grown.action(action.identifier);
        assert.ok(grownAction !== undefined);
        const { accepting, target } = statusesFor(grown, grownAction);
        const run = await runAgainstSandbox(grown, releasePage, sample, accepting, { folder });
        assert.equal(run.run.exitCode, 0, describeRun(run.run));
        assert.equal(run.after, target, `the sandbox of the changed contract carried out ${action.identifier}`);

        const [keyPlaceholder] = placeholdersIn(releasePage.action.requestExample.value[grown.model.envelope.credential]);
        assert.ok(keyPlaceholder !== undefined);
        const server = await startRecordingServer([{ status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify(grownAction.successExample.value) }]);
        try {
          const recorded = await runSample(sample, fillIn(sample.code, grown.model.endpoint, { host: server.host, apiKey: 'example-key-not-a-secret' }, keyPlaceholder), 30_000, folder);
          assert.equal(recorded.exitCode, 0, describeRun(recorded));
          const sent = JSON.parse(server.requests[0]?.body ?? '{}') as Record<string, unknown>;
          const meant = releasePage.action.requestExample.value;
          for (const field of releasePage.action.fields.filter((entry) => entry.name !== grown.model.envelope.credential)) {
            assert.deepEqual(sent[field.name], meant[field.name], `${field.name} arrives as the caller meant it`);
          }
          assert.equal(sent[insertedField], undefined, 'the new field is not sent for a caller that never named it');
        } finally {
          await server.close();
        }
      });
    }
  });

  test('the note made required is refused at its line, for the Python library\'s fields as for the others', async () => {
    const required = copyContract();
    try {
      const file = schemaFile(required, action);
      required.editYaml(file, (schema) => {
        const listed = schema.required as string[];
        assert.ok(Array.isArray(listed) && !listed.includes(noteField), `${file} lists its required fields without ${noteField}`);
        schema.required = [...listed, noteField];
      });
      const result = await runGate({ projectDirectory: required.directory });
      const python = result.problems.filter((problem) => surfaceRule.test(problem.rule ?? '') && problem.message.includes('Python library'));
      // The note's own line, as the gate names a field's: where the field's schema is written.
      const note = grownContract(required).action(action.identifier)?.fields.find((field) => field.name === noteField);
      assert.ok(note !== undefined);
      const place = createSourceLocator(required.directory, contractRoot)(note.pointer);
      // The dictionary the release's method takes the action's fields as, by the record.
      const client = record?.python?.names[pythonClientClassName];
      const fieldsName = client?.kind === 'class' ? client.methods[pythonMethodName(action.identifier)]?.parameters[0]?.type : undefined;
      assert.ok(fieldsName !== undefined, `the release's Python client has ${pythonMethodName(action.identifier)}()`);
      assert.ok(
        python.some((problem) => problem.file === place.file && problem.line === place.line && problem.message.includes(`${fieldsName} now requires the key ${noteField}`)),
        `refused at ${place.file}: line ${place.line ?? '?'}, naming ${fieldsName}:\n${describeProblems(result.problems)}`,
      );
    } finally {
      required.remove();
    }
  });

  test('a method the release recorded that today\'s generator no longer writes from the same contract is laid at the generator, not the contract', async () => {
    assert.ok(release !== undefined && record !== undefined);
    const changed = copyContract();
    try {
      const recordFile = `openapi/releases/${release.version}.clients.json`;
      const edited = structuredClone(record);
      const phpClient = edited.php.classes.find((entry) => entry.name === `${phpClientNamespace}\\Client`);
      assert.ok(phpClient !== undefined);
      phpClient.methods.push({ name: 'methodOnlyTheRecordHas', static: false, parameters: [], returns: '' });
      changed.write(recordFile, JSON.stringify(edited));
      const { problems, refusals } = await gateOn(changed);
      assert.equal(refusals.length, 1, describeProblems(problems));
      assert.equal(refusals[0]?.file, 'src/clients/php/');
      assert.match(refusals[0]?.message ?? '', /methodOnlyTheRecordHas\(\) is gone.*the generator changed/);
    } finally {
      changed.remove();
    }
  });

  test('a record written before the Python library is refused, naming the command that writes it again', async () => {
    assert.ok(release !== undefined && record !== undefined);
    const older = copyContract();
    try {
      const recordFile = `openapi/releases/${release.version}.clients.json`;
      const { python: _python, ...withoutPython } = record;
      older.write(recordFile, JSON.stringify(withoutPython));
      const { refusals } = await gateOn(older);
      assert.equal(refusals.length, 1, describeProblems(refusals));
      assert.equal(refusals[0]?.file, recordFile);
      assert.match(refusals[0]?.message ?? '', new RegExp(`no Python library.*node scripts/record-client-surfaces\\.ts --version ${release.version.replaceAll('.', '\\.')}`));
    } finally {
      older.remove();
    }
  });

  test('without python3 on the machine, a contract whose libraries are not cached yet is refused, saying so, rather than passed', async () => {
    const changed = copyContract();
    const searchPath = process.env.PATH;
    try {
      // A change of description only: a document the cache has never seen, whose libraries are generated again.
      changed.editYaml(schemaFile(changed, action), (schema) => {
        schema.description = `${String(schema.description ?? '')} (Changed by a test that hides python3.)`;
      });
      // Only the folder of the Node running this test: python3 cannot be found.
      process.env.PATH = path.dirname(process.execPath);
      const { refusals } = await gateOn(changed);
      assert.equal(refusals.length, 1, describeProblems(refusals));
      assert.equal(refusals[0]?.file, 'src/clients/python/');
      assert.match(refusals[0]?.message ?? '', /python3 is not installed here.*apt-get install -y python3/);
    } finally {
      process.env.PATH = searchPath;
      changed.remove();
    }
  });

  test('a new action whose PHP method takes the name of a method the client has is refused at the action\'s line', async () => {
    const actionMethods = new Set(current.model.actions.map((entry) => clientMethodName(entry.identifier)));
    const taken = phpClientClass()?.methods.find((method) => /^[a-z][A-Za-z]*$/.test(method.name) && !actionMethods.has(method.name));
    assert.ok(taken !== undefined, 'the release\'s PHP client has a method of its own besides the actions\'');
    const identifier = taken.name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    assert.equal(clientMethodName(identifier), taken.name);
    const template = current.model.actions.find((entry) => entry.transition.kind === 'fixed');
    assert.ok(template !== undefined);
    const colliding = copyContract();
    try {
      addActions(colliding.directory, [{ identifier, template: template.identifier }]);
      const result = await runGate({ projectDirectory: colliding.directory });
      const others = result.problems.filter((problem) => !surfaceRule.test(problem.rule ?? ''));
      assert.deepEqual(others, [], `the contract's own checks take the action as an addition:\n${describeProblems(others)}`);
      const added = grownContract(colliding).action(identifier);
      assert.ok(added !== undefined);
      const place = createSourceLocator(colliding.directory, contractRoot)(added.pointer);
      const refusals = result.problems.filter((problem) => problem.file === place.file && problem.line !== undefined);
      assert.ok(refusals.some((problem) => problem.message.includes(`${taken.name}(`) && problem.message.includes('PHP')), `refused at ${place.file}, naming ${taken.name}():\n${describeProblems(result.problems)}`);
    } finally {
      colliding.remove();
    }
  });
});

describe('node scripts/record-client-surfaces.ts, as openapi/releases/README.md gives it', { skip: release === undefined ? 'no release yet' : false }, () => {
  const script = path.join(projectDirectory, 'scripts/record-client-surfaces.ts');

  test('writes a release\'s record from its snapshot, and refuses a version never released (1) or no version (2)', () => {
    assert.ok(release !== undefined);
    const copy = copyContract();
    try {
      const recordFile = `openapi/releases/${release.version}.clients.json`;
      copy.write(recordFile, '{}');
      const written = spawnSync(process.execPath, [script, '--version', release.version, '--project', copy.directory], { cwd: projectDirectory, encoding: 'utf8' });
      assert.equal(written.status, 0, `${written.stdout}${written.stderr}`);
      assert.match(written.stdout, new RegExp(`Wrote ${recordFile.replaceAll('.', '\\.')}`));
      const rewritten = JSON.parse(copy.read(recordFile)) as { version: string; generatedFrom: string; php: { classes: unknown[] }; python?: { names: Record<string, unknown> } };
      assert.equal(rewritten.version, release.version);
      assert.equal(rewritten.generatedFrom, `openapi/releases/${release.version}.json`);
      assert.ok(rewritten.php.classes.length > 0);
      assert.ok(rewritten.python?.names[pythonClientClassName] !== undefined, 'the record holds the Python client');
      const unknown = spawnSync(process.execPath, [script, '--version', '0.0.1', '--project', copy.directory], { cwd: projectDirectory, encoding: 'utf8' });
      assert.equal(unknown.status, 1, unknown.stderr);
      assert.match(unknown.stderr, /0\.0\.1 is not a release/);
      const missing = spawnSync(process.execPath, [script], { cwd: projectDirectory, encoding: 'utf8' });
      assert.equal(missing.status, 2, missing.stderr);
      assert.match(missing.stderr, /--version is required/);
    } finally {
      copy.remove();
    }
  });
});
