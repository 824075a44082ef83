/**
 * The Python package as generated, read without running Python: the runtime copied as it is and
 * naming no fact of the contract, every generated module saying it is generated, and the runtime's
 * error classes the shared table's, each refining its parent kind's class.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fixedErrorClassName, fixedErrorKinds, type FixedErrorKindId } from '../../src/clients/shared/error-kinds.ts';
import { generatePythonSources, pythonImportName, pythonRuntimeDirectory, writePythonPackage } from '../../src/clients/python/generate.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const work = mkdtempSync(path.join(tmpdir(), 'python-client-unit-'));
const runtimeFiles = readdirSync(pythonRuntimeDirectory).filter((file) => file.endsWith('.py'));
const runtime = runtimeFiles.map((file) => readFileSync(path.join(pythonRuntimeDirectory, file), 'utf8')).join('\n');

describe('the Python package', () => {
  after(() => rmSync(work, { recursive: true, force: true }));

  test('the runtime is copied as it is, with py.typed, beside the generated modules', () => {
    const written = writePythonPackage(contract, work);
    for (const file of [...runtimeFiles, 'py.typed', ...generatePythonSources(contract).keys()]) assert.ok(written.includes(`${pythonImportName}/${file}`), file);
    for (const file of runtimeFiles) assert.equal(readFileSync(path.join(work, pythonImportName, file), 'utf8'), readFileSync(path.join(pythonRuntimeDirectory, file), 'utf8'));
  });

  test('every generated module says it is generated, from which version, and not to edit it', () => {
    for (const [file, source] of generatePythonSources(contract)) {
      assert.match(source.split('\n')[0] as string, new RegExp(`^# Generated from version ${contract.model.documentVersion.replaceAll('.', '\\.')} of the contract by src/clients/python/generate\\.ts\\. Do not edit\\.$`), file);
    }
  });

  test('the runtime names no action, field, status or code of the contract: the generated description hands them over', () => {
    const { model } = contract;
    const facts = [
      ...model.actions.map((action) => action.identifier),
      ...model.actions.flatMap((action) => action.fields.map((field) => field.name)),
      ...model.responses.flatMap((response) => response.errorCodes.map((error) => error.code)),
      contract.retryAfterHeader,
    ];
    for (const fact of new Set(facts)) assert.doesNotMatch(runtime, new RegExp(`["']${fact}["']`), fact);
    // A status compared with, or listed: a length such as the quoted page's is no status.
    for (const response of model.responses) assert.doesNotMatch(runtime, new RegExp(`(==|!=|\\(|\\[|,)\\s*${response.status}\\b`), `HTTP ${response.status}`);
  });

  test('each kind of the shared table is a class of the runtime, refining the class of its parent kind', () => {
    for (const kind of Object.keys(fixedErrorKinds) as FixedErrorKindId[]) {
      const name = fixedErrorClassName(kind, 'python');
      const parent = fixedErrorKinds[kind].parent;
      const declared = new RegExp(`^class ${name}\\(([^)]*)\\):`, 'm').exec(runtime);
      assert.ok(declared !== null, `${name} is a class of the runtime`);
      const bases = (declared[1] as string).split(',').map((base) => base.trim());
      assert.equal(bases[0], parent === undefined ? 'Exception' : fixedErrorClassName(parent as FixedErrorKindId, 'python'), `${name}'s first base`);
    }
  });
});
