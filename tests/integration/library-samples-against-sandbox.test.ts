/**
 * The action pages' samples of the client libraries run, as printed, against the sandbox, each
 * in a folder where its library is installed as a reader installs it: the PHP zip the site
 * publishes, unpacked and required by Composer offline; the npm tarball, installed by npm; the Python wheel, installed by pip into a virtual environment. Each
 * library is installed once for the run. For every action the sample carries out the action on a
 * subscription whose status accepts it, fails naming the 409's code on one that refuses it, and
 * waits out a host's 429 (the libraries retry after its Retry-After) before carrying it out. The
 * sandbox's own records say whether the action happened, not only the output, and a recording
 * server that the body sent is the action's request example.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packPhpClient } from '../../src/clients/php/package.ts';
import { installTypescriptClient } from '../../src/clients/typescript/installed-package.ts';
import { installPythonClient } from '../../src/clients/python/installed-package.ts';
import type { ReferenceModel } from '../../src/lib/contract/model.ts';
import { composerPackageName } from '../../src/lib/samples/client-libraries.ts';
import { placeholdersIn } from '../../src/lib/samples/sample-parts.ts';
import { sampleLanguages, type CodeSample, type SampleLanguage } from '../../src/lib/samples/code-samples.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { actionReferencePages, type ActionPage } from '../../src/lib/site/reference-pages.ts';
import { conflictStatus } from '../../src/lib/contract/response-names.ts';
import { responseWithStatus } from '../../src/lib/contract/response-lookups.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { installPackage, unpackZip } from '../support/php-client-plan.ts';
import { fillIn, missingRunner, runSample } from '../support/run-sample.ts';
import { describeRun, runAgainstSandbox, statusesFor } from '../support/sample-against-sandbox.ts';
import { startRecordingServer } from '../support/reference-fixture.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';

const libraryLanguages = sampleLanguages.filter((entry) => entry.library).map((entry) => entry.language);

let contract: ExecutableContract;
let model: ReferenceModel;
let pages: ActionPage[];
let work: string;
/** The folder each library is installed in, the first time a test asks for it. */
const installed = new Map<SampleLanguage, Promise<string>>();

async function install(language: SampleLanguage): Promise<string> {
  if (language === 'php-library') {
    const zip = await packPhpClient(contract, path.join(work, 'php-artifacts'));
    return installPackage({ type: 'path', url: unpackZip(zip, path.join(work, 'php-package')) }, composerPackageName, contract.model.documentVersion);
  }
  if (language === 'typescript-library') return installTypescriptClient(contract).folder;
  // The folder of the virtual environment (`venv/`) the wheel is installed into, where the runner finds its Python.
  if (language === 'python-library') return path.dirname(path.dirname(path.dirname(installPythonClient(contract).python)));
  throw new Error(`${language} is no library`);
}

function installedFolder(language: SampleLanguage): Promise<string> {
  let folder = installed.get(language);
  if (folder === undefined) {
    folder = install(language);
    installed.set(language, folder);
  }
  return folder;
}

before(() => {
  contract = readExecutableContract(bundledDocument());
  model = contract.model;
  pages = actionReferencePages(model);
  work = mkdtempSync(path.join(tmpdir(), 'library-samples-'));
});

after(async () => {
  for (const folder of installed.values()) rmSync(await folder.catch(() => ''), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function sampleOf(page: ActionPage, language: SampleLanguage): CodeSample {
  const sample = page.samples.find((candidate) => candidate.language === language);
  assert.ok(sample, `${page.action.identifier} shows a ${language} sample`);
  return sample;
}

/** What each library's sample says to change for a site without pretty permalinks, done as it says. */
const plainPermalinkEdits: Partial<Record<SampleLanguage, (code: string) => string>> = {
  'php-library': (code) => {
    const option = /pass (array\( 'plain_permalinks' => true \)) after the key/.exec(code)?.[1];
    assert.ok(option, 'the PHP library sample names the option');
    return code.replace(/(new Client\( "[^"]+", '[^']*')( \);)/, `$1, ${option}$2`);
  },
  'typescript-library': (code) => {
    const site = /pass `([^`]+)` as the site/.exec(code)?.[1];
    assert.ok(site, 'the TypeScript client sample names the site URL');
    return code.replace(/(new \w+\()`[^`]+`/, `$1\`${site}\``);
  },
  'python-library': (code) => {
    const site = /pass `([^`]+)` as the site/.exec(code)?.[1];
    assert.ok(site, 'the Python library sample names the site URL');
    return code.replace(/(\w+Client\()f"[^"]+"/, `$1${site}`);
  },
};

describe('every action page sample of a client library runs against the sandbox', { concurrency: 2, timeout: 600_000 }, () => {
  for (const language of libraryLanguages) {
    test(`${language}: each action succeeds, reports a 409, and waits out a 429`, { skip: missingRunner(language) }, async () => {
      const refused = responseWithStatus(model.responses, conflictStatus, 'to an action the status refuses');
      const [refusedCode] = refused.errorCodes;
      assert.ok(refusedCode, 'the 409 names its error code');
      for (const page of pages) {
        const sample = sampleOf(page, language);
        const { accepting, refusing, target } = statusesFor(contract, page.action);
        const name = `${language} ${page.action.identifier}`;

        const success = await runAgainstSandbox(contract, page, sample, accepting, { folder: await installedFolder(sample.language) });
        assert.equal(success.run.exitCode, 0, `${name} from ${accepting}: ${describeRun(success.run)}`);
        assert.equal(success.after, target, `${name} moved the subscription from ${accepting} to ${target}`);
        assert.match(success.run.output, new RegExp(target.replace('-', '\\-')), `${name} prints the new status`);

        const conflict = await runAgainstSandbox(contract, page, sample, refusing, { folder: await installedFolder(sample.language) });
        assert.notEqual(conflict.run.exitCode, 0, `${name} from ${refusing} must fail: ${describeRun(conflict.run)}`);
        assert.ok(conflict.run.output.includes(refusedCode.code), `${name} names ${refusedCode.code}: ${describeRun(conflict.run)}`);
        assert.equal(conflict.after, refusing, 'a refused action changes nothing');

        const throttled = await runAgainstSandbox(contract, page, sample, accepting, { prepare: (sandbox) => sandbox.throttleNext(1, '1'), folder: await installedFolder(sample.language) });
        assert.equal(throttled.run.exitCode, 0, `${name} waits out a 429 of one second: ${describeRun(throttled.run)}`);
        assert.equal(throttled.after, target, `${name} carried out the action after the 429`);
        assert.ok(throttled.run.seconds >= 1, `${name} waited the Retry-After (${throttled.run.seconds} s)`);
      }
    });

    test(`${language}: each action's sample sends its request example, every field by the contract's name`, { skip: missingRunner(language) }, async () => {
      for (const page of pages) {
        const { action } = page;
        const sample = sampleOf(page, language);
        const [keyPlaceholder] = placeholdersIn(action.requestExample.value[model.envelope.credential]);
        assert.ok(keyPlaceholder, `the ${action.identifier} example writes the key as a placeholder`);
        const server = await startRecordingServer([{ status: Number(sampleStatuses(model.responses).success), headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify(action.successExample.value) }]);
        try {
          const apiKey = 'example-key-not-a-secret';
          const run = await runSample(sample, fillIn(sample.code, model.endpoint, { host: server.host, apiKey }, keyPlaceholder), 30_000, await installedFolder(language));
          assert.equal(run.exitCode, 0, `${language} ${action.identifier}: ${describeRun(run)}`);
          const [request] = server.requests;
          assert.ok(request, `${language} ${action.identifier} sent a request`);
          assert.equal(request.url, new URL(model.endpoint.exampleUrl).pathname);
          const expected = { ...action.requestExample.value, [model.envelope.credential]: String(action.requestExample.value[model.envelope.credential]).replace(keyPlaceholder, apiKey) };
          assert.deepEqual(JSON.parse(request.body), expected, `${language} ${action.identifier} sent the example`);
        } finally {
          await server.close();
        }
      }
    });

    test(`${language}: what its comment says for a site without pretty permalinks carries out the action there`, { skip: missingRunner(language) }, async () => {
      const [page] = pages;
      assert.ok(page, 'the contract has an action page');
      const sample = sampleOf(page, language);
      const edit = plainPermalinkEdits[language];
      assert.ok(edit, `${language} says what to change without pretty permalinks`);
      const edited = { ...sample, code: edit(sample.code) };
      assert.notEqual(edited.code, sample.code, 'the edit changed the sample');
      const { accepting, target } = statusesFor(contract, page.action);
      const success = await runAgainstSandbox(contract, page, edited, accepting, { folder: await installedFolder(edited.language) });
      assert.equal(success.run.exitCode, 0, describeRun(success.run));
      assert.equal(success.after, target, 'the action happened');
    });
  }
});
