/**
 * The generated PHP library against the reference plugin in the real WordPress, run from
 * tests/integration/wordpress-reference.test.ts (the one test that starts and stops the site):
 * PHPUnit's cases that need no throttling host, by curl; then the WordPress transport, from a PHP
 * script that loads the site's own wp-load.php and calls the shop through wp_remote_post.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { packPhpClient } from '../../src/clients/php/package.ts';
import { composerPackageName } from '../../src/clients/php/php-source.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { pathsOf } from '../../src/wordpress/host-system.ts';
import { seedWordPress, type WordPressSite } from '../../src/wordpress/site.ts';
import { projectDirectory } from './contract-copy.ts';
import { installPackage, phpClientPlan, runPhpUnit, unpackZip } from './php-client-plan.ts';

/** The PHPUnit tests a real site answers as the sandbox does, without the sandbox's host imitations. */
const siteTests = [
  'testEveryActionChangesItsSubscription',
  'testARepeatAnswersNothingChanged',
  'testAConflictNamesTheAllowedActions',
  'testAFieldTheActionDoesNotTakeIsABadRequestWithItsParams',
  'testAWrongKeyIsUnauthorizedAndNeverShown',
  'testAnUnknownSubscriptionIsNotFound',
  'testASiteWithoutPrettyPermalinksIsReachedByItsQuery',
];

function runPhp(args: string[]): Promise<{ status: number | null; output: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn('php', args, { timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, output: `${stdout}${stderr}`, stdout }));
  });
}

export async function checkPhpClientInWordPress(context: TestContext, site: WordPressSite, contract: ExecutableContract): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'php-client-wordpress-'));
  try {
    const zip = await packPhpClient(contract, path.join(work, 'artifacts'));
    const project = installPackage({ type: 'path', url: unpackZip(zip, path.join(work, 'package')) }, composerPackageName, contract.model.documentVersion);
    const { plan, seed } = phpClientPlan(contract, { siteUrl: site.baseUrl, apiKey: site.apiKey }, 7000);
    await seedWordPress({ projectDirectory, seed });
    const planFile = path.join(work, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));

    for (const name of siteTests) {
      await context.test(`PHPUnit ${name}, by curl`, async () => {
        const run = await runPhpUnit(project, planFile, name);
        assert.equal(run.status, 0, run.output);
        assert.match(run.output, /OK \(1 test/, run.output);
      });
    }

    await context.test('the WordPress transport, from inside WordPress through wp_remote_post', async () => {
      const script = path.join(projectDirectory, 'tests/php-client/wordpress-transport.php');
      // Arguments kept in traces, as the PHPUnit runs keep them (Debian's php.ini leaves them out): the filter's case looks there.
      const run = await runPhp(['-d', 'zend.exception_ignore_args=0', script, pathsOf(projectDirectory).configName, `127.0.0.1:${site.port}`, path.join(project, 'vendor/autoload.php'), planFile]);
      assert.equal(run.status, 0, run.output);
      const answer = JSON.parse(run.stdout) as {
        answer: Record<string, unknown>;
        refusal: { status: number; code: string; data: Record<string, unknown> } | null;
        sentThroughWordPress: string[];
        filterFailure: { class: string; message: string; keyShown: boolean } | null;
      };
      const { result, errors } = contract;
      assert.equal(answer.answer[result.status], plan.viaWordPress.to);
      assert.equal(answer.answer[result.changed], true);
      assert.equal(answer.refusal?.code, errors.transitionNotAllowed.code);
      assert.deepEqual(answer.refusal?.data[errors.allowedActionsMember], plan.conflict.allowedActions);
      assert.equal(answer.sentThroughWordPress.length, 2, 'both requests went through the WordPress HTTP API');
      // A filter that throws inside wp_remote_request(), whose frames hold the body: what reaches the caller names it, without the key.
      assert.equal(answer.filterFailure?.class, 'RuntimeException');
      assert.match(answer.filterFailure.message, /a plugin failed/);
      assert.equal(answer.filterFailure.keyShown, false, answer.filterFailure.message);
    });
    rmSync(project, { recursive: true, force: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
