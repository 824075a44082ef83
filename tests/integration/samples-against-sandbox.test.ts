/**
 * Every code sample the reference pages show runs, as printed, against the sandbox, in every
 * language of `sampleLanguages` (the WordPress one with a shim of the WordPress HTTP functions it
 * calls; the libraries' in library-samples-against-sandbox.test.ts, with the package installed),
 * for every action. Each must carry out its action on a subscription whose status accepts it,
 * report the 409 on one whose status refuses it, and report a host's 429 without changing
 * anything. The sandbox's own records say whether the action happened, not only the output.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ReferenceModel } from '../../src/lib/contract/model.ts';
import { plainPermalinkLead } from '../../src/lib/samples/sample-parts.ts';
import { wordpressRestPrefix, wordpressRouteParameter } from '../../src/lib/contract/endpoint.ts';
import { sampleLanguages } from '../../src/lib/samples/code-samples.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { actionReferencePages, type ActionPage } from '../../src/lib/site/reference-pages.ts';
import { responseWithStatus, throttledResponse } from '../../src/lib/contract/response-lookups.ts';
import { conflictStatus } from '../../src/lib/contract/response-names.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { missingRunner } from '../support/run-sample.ts';
import { describeRun, runAgainstSandbox, statusesFor } from '../support/sample-against-sandbox.ts';

let contract: ExecutableContract;
let model: ReferenceModel;
let pages: ActionPage[];


before(async () => {
  // The bundle the gate checked (`npm run lint`), read once: the gate itself is tested elsewhere.
  contract = readExecutableContract(bundledDocument());
  model = contract.model;
  pages = actionReferencePages(model);
});

describe('every code sample runs against the sandbox', { concurrency: 4 }, () => {
  // The pages are read in `before`, so the tests are declared per action identifier known up front.
  // The libraries' samples need their package installed: tests/integration/library-samples-against-sandbox.test.ts.
  for (const { language } of sampleLanguages.filter((entry) => !entry.library)) {
    test(`${language}: each action succeeds, reports a 409 and a 429`, { skip: missingRunner(language) }, async () => {
      const refused = responseWithStatus(model.responses, conflictStatus, 'to an action the status refuses');
      const [refusedCode] = refused.errorCodes;
      assert.ok(refusedCode, 'the 409 names its error code');
      const throttledStatus = throttledResponse(model.responses).status;
      for (const page of pages) {
        const sample = page.samples.find((candidate) => candidate.language === language);
        assert.ok(sample, `${page.action.identifier} shows a ${language} sample`);
        const { accepting, refusing, target } = statusesFor(contract, page.action);

        const success = await runAgainstSandbox(contract, page, sample, accepting);
        assert.equal(success.run.exitCode, 0, `${language} ${page.action.identifier} from ${accepting}: ${describeRun(success.run)}`);
        assert.equal(success.after, target, `${language} ${page.action.identifier} moved the subscription from ${accepting} to ${target}`);
        assert.match(success.run.output, new RegExp(target.replace('-', '\\-')), `${language} ${page.action.identifier} prints the new status`);

        const conflict = await runAgainstSandbox(contract, page, sample, refusing);
        assert.notEqual(conflict.run.exitCode, 0, `${language} ${page.action.identifier} from ${refusing} must fail: ${describeRun(conflict.run)}`);
        assert.ok(conflict.run.output.includes(refusedCode.code), `${language} ${page.action.identifier} names ${refusedCode.code}: ${describeRun(conflict.run)}`);
        assert.equal(conflict.after, refusing, 'a refused action changes nothing');

        const throttled = await runAgainstSandbox(contract, page, sample, accepting, { prepare: (sandbox) => sandbox.throttleNext(1, '7') });
        assert.notEqual(throttled.run.exitCode, 0, `${language} ${page.action.identifier} must not report success on a 429`);
        assert.match(throttled.run.output, new RegExp(`\\b${throttledStatus}\\b|retry after 7`, 'i'), `${language} ${page.action.identifier} reports the 429 and when to retry: ${describeRun(throttled.run)}`);
        assert.equal(throttled.after, accepting, 'a throttled request changes nothing');
      }
    });
  }
});

describe('the samples reach a site without pretty permalinks through the URL their comment gives', () => {
  const commentedUrl = (language: string) => {
    const [page] = pages;
    assert.ok(page, 'the contract has an action page');
    const sample = page.samples.find((candidate) => candidate.language === language);
    assert.ok(sample, `${page.action.identifier} shows a ${language} sample`);
    return { page, sample, comment: new RegExp(`${plainPermalinkLead} (\\S+) instead\\.`).exec(sample.code) };
  };

  // The copy button of a terminal block leaves comments out, so the curl command has none; the
  // quickstart gives the same URL beside it.
  test('curl: no comment, so the copied command is the one on the page', () => {
    assert.equal(commentedUrl('curl').comment, null);
  });

  for (const { language } of sampleLanguages.filter((entry) => entry.language !== 'curl' && !entry.library)) {
    test(`${language}: the ?${wordpressRouteParameter}= URL of its comment, put in its place, carries out the action`, { skip: missingRunner(language) }, async () => {
      const { page, sample, comment } = commentedUrl(language);
      assert.ok(comment?.[1], `the ${language} sample says where a site without pretty permalinks answers`);
      const plainUrl = comment[1];
      const prettyUrl = plainUrl.replace(`/?${wordpressRouteParameter}=`, wordpressRestPrefix);
      assert.ok(sample.code.includes(prettyUrl), `the ${language} sample sends to ${prettyUrl}`);
      const swapped = { ...sample, code: sample.code.replaceAll(prettyUrl, plainUrl) };
      assert.doesNotMatch(swapped.code, new RegExp(`${wordpressRestPrefix}/`), 'nothing is sent to the pretty path any more');
      const { accepting, target } = statusesFor(contract, page.action);
      const success = await runAgainstSandbox(contract, page, swapped, accepting);
      assert.equal(success.run.exitCode, 0, describeRun(success.run));
      assert.equal(success.after, target, 'the action happened');
    });
  }
});
