/**
 * The lifecycle's Arazzo workflows run by the real `redocly respect` against the reference plugin
 * in a real WordPress, as a maintainer would after `npm run wordpress -- reset`: every workflow
 * green. The WordPress's default seed numbers its subscriptions otherwise than the sandbox's, so the
 * run passes each workflow a subscription of that seed in the status the workflow starts from
 * (`--input`), placing extra ones where the seed has too few. Skipped, with the reason, where
 * WordPress cannot run.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { planWorkflows } from '../../src/lib/workflows/workflow-plan.ts';
import { loadGatedContract } from '../../src/sandbox/contract-gate.ts';
import { pathsOf } from '../../src/wordpress/host-system.ts';
import { defaultWordPressSeed, removeWordPressFiles, seedWordPress, startWordPress, stopWordPress, wordpressAvailable, wordpressStatus, type WordPressSite } from '../../src/wordpress/site.ts';
import { projectDirectory } from '../support/contract-copy.ts';
import { assignSubscriptions, runRespect, writeWorkflowFiles, type WorkflowFiles } from '../support/respect-run.ts';

const availability = wordpressAvailable();

// Counted and shown as skipped, with the reason, where the machine cannot run WordPress.
if (!availability.available) test('the Arazzo workflows against the reference plugin in a real WordPress', { skip: availability.reason }, () => {});

describe('the Arazzo workflows against the reference plugin in a real WordPress', { skip: !availability.available }, () => {
  let contract: ExecutableContract;
  let site: WordPressSite;
  let files: WorkflowFiles;
  let startedHere = false;
  let installedHere = false;

  before(async () => {
    contract = await loadGatedContract(projectDirectory);
    startedHere = !(await wordpressStatus({ projectDirectory })).running;
    // A database this test creates is removed after it; one that was there before stays.
    installedHere = startedHere && !existsSync(pathsOf(projectDirectory).dataDirectory);
    site = await startWordPress({ projectDirectory, ...(startedHere ? { port: 0 } : {}) });
    files = writeWorkflowFiles(contract);
  });

  after(async () => {
    files.remove();
    if (startedHere) await stopWordPress({ projectDirectory });
    if (installedHere) removeWordPressFiles({ projectDirectory });
  });

  test('every workflow passes, given the subscriptions of the default seed', async () => {
    const workflows = planWorkflows(contract);
    const { inputs, placed } = assignSubscriptions(workflows, defaultWordPressSeed(contract));
    await seedWordPress({ projectDirectory, seed: placed });
    const run = await runRespect(contract, files, { siteUrl: site.baseUrl, apiKey: site.apiKey, inputs });
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual([...run.outcomes].filter(([, status]) => status !== 'success'), [], run.output);
    assert.equal(run.outcomes.size, workflows.length);
  });
});
