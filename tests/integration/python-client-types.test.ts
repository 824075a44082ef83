/**
 * The Python library under pyright in strict mode, at the oldest Python it claims: clean on the
 * package as generated and on the build backend its sdist carries, clean on a correct caller, and
 * an error on each line of a caller that makes the mistakes the types are there to catch (a field
 * of the wrong type, a field no action takes, a required field left out, a value outside an enum,
 * a method that does not exist). The callers are written from the model, so they follow the
 * contract.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pythonClientClassName, pythonFloor, pythonImportName, pythonMethodName, writePythonPackage } from '../../src/clients/python/generate.ts';
import { pythonErrorsExample, pythonExampleScript } from '../../src/clients/python/usage.ts';
import { pythonBuildBackendFile } from '../../src/clients/python/package.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const { model, result } = contract;
const { selector, credential, subject } = model.envelope;
const pyright = path.join(projectDirectory, 'node_modules/pyright/index.js');
const work = mkdtempSync(path.join(tmpdir(), 'python-client-types-'));

interface Diagnostic {
  file: string;
  severity: string;
  message: string;
  range: { start: { line: number } };
}

function runPyright(files: string[]): Diagnostic[] {
  writeFileSync(path.join(work, 'pyrightconfig.json'), JSON.stringify({ typeCheckingMode: 'strict', pythonVersion: pythonFloor.join('.') }));
  const run = spawnSync(process.execPath, [pyright, '--outputjson', '-p', path.join(work, 'pyrightconfig.json'), ...files], { cwd: work, encoding: 'utf8' });
  assert.ok(run.stdout.trim().startsWith('{'), `${run.stdout}${run.stderr}`);
  return (JSON.parse(run.stdout) as { generalDiagnostics: Diagnostic[] }).generalDiagnostics.filter((diagnostic) => diagnostic.severity === 'error');
}

const [action] = model.actions;
assert.ok(action !== undefined);
const fieldsOf = (example: Record<string, unknown>) => Object.fromEntries(Object.entries(example).filter(([name]) => name !== selector && name !== credential));
const withEnum = model.actions.flatMap((candidate) => candidate.fields.filter((field) => field.name !== selector && field.constraints.some((constraint) => constraint.keyword === 'enum')).map((field) => ({ action: candidate, field })))[0];
assert.ok(withEnum !== undefined, 'some field lists its values');
const pythonValue = (value: unknown) => JSON.stringify(value).replaceAll('true', 'True').replaceAll('false', 'False').replaceAll('null', 'None');
const dictOf = (fields: Record<string, unknown>) => `{${Object.entries(fields).map(([name, value]) => `${JSON.stringify(name)}: ${pythonValue(value)}`).join(', ')}}`;
const header = `from ${pythonImportName} import ${pythonClientClassName}\n\nclient = ${pythonClientClassName}("https://shop.example", "example-key-not-real")\n`;

describe('the Python library under pyright strict', () => {
  after(() => rmSync(work, { recursive: true, force: true }));
  writePythonPackage(contract, work);

  test('the package is clean', () => {
    const errors = runPyright([path.join(work, pythonImportName)]);
    assert.deepEqual(errors.map((error) => `${path.basename(error.file)}:${error.range.start.line + 1}: ${error.message}`), []);
  });

  test('the sdist\'s build backend, which pip runs to build the wheel from the sdist, is clean', () => {
    copyFileSync(pythonBuildBackendFile, path.join(work, 'build_backend.py'));
    const errors = runPyright([path.join(work, 'build_backend.py')]);
    assert.deepEqual(errors.map((error) => `${path.basename(error.file)}:${error.range.start.line + 1}: ${error.message}`), []);
  });

  test('the page\'s example and its errors example are clean', () => {
    writeFileSync(path.join(work, 'page_example.py'), pythonExampleScript(contract));
    writeFileSync(path.join(work, 'page_errors.py'), pythonErrorsExample(contract));
    const errors = runPyright([path.join(work, 'page_example.py'), path.join(work, 'page_errors.py')]);
    assert.deepEqual(errors.map((error) => `${path.basename(error.file)}:${error.range.start.line + 1}: ${error.message}`), []);
  });

  test('a correct caller is clean, and each mistake of a wrong caller is an error on its line', () => {
    const example = fieldsOf(action.requestExample.value);
    const correct = `${header}answer = client.${pythonMethodName(action.identifier)}(${dictOf(example)})\nchanged: bool = answer[${JSON.stringify(result.changed)}]\nprint(changed)\n`;
    writeFileSync(path.join(work, 'correct.py'), correct);
    assert.deepEqual(runPyright([path.join(work, 'correct.py')]).map((error) => error.message), []);

    const required = action.fields.find((field) => field.required && field.name !== selector && field.name !== credential);
    assert.ok(required !== undefined);
    const { [required.name]: _left, ...withoutRequired } = example;
    const mistakes = [
      `client.${pythonMethodName(action.identifier)}(${dictOf({ ...example, [subject]: 'not a number' })})`,
      `client.${pythonMethodName(action.identifier)}(${dictOf({ ...example, a_field_no_action_takes: 1 })})`,
      `client.${pythonMethodName(action.identifier)}(${dictOf(withoutRequired)})`,
      `client.${pythonMethodName(withEnum.action.identifier)}(${dictOf({ ...fieldsOf(withEnum.action.requestExample.value), [withEnum.field.name]: 'a-value-no-release-lists' })})`,
      `client.${pythonMethodName(action.identifier)}_with_a_typo(${dictOf(example)})`,
    ];
    writeFileSync(path.join(work, 'mistakes.py'), `${header}${mistakes.join('\n')}\n`);
    const firstMistakeLine = header.split('\n').length - 1;
    const lines = new Set(runPyright([path.join(work, 'mistakes.py')]).map((error) => error.range.start.line));
    for (const [index, mistake] of mistakes.entries()) assert.ok(lines.has(firstMistakeLine + index), `pyright catches: ${mistake}`);
  });
});
