/**
 * The generated PHP library, packed as the site publishes it (a zip), unpacked and installed by
 * Composer offline into a project of its own, and tested
 * by PHPUnit (Debian's) against the real sandbox, served under a subdirectory as a WordPress
 * installed in one: every action, a repeat, a refusal, each documented error, a throttled request
 * in either form of Retry-After, a host's page, a timeout, the courtesy pace, and the route of a
 * site without pretty permalinks. Skipped, with the reason, where PHP, PHPUnit or Composer is not
 * installed. The real WordPress's part is tests/integration/php-client-wordpress.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { globSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packPhpClient } from '../../src/clients/php/package.ts';
import { composerPackageName } from '../../src/clients/php/php-source.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { freePort } from '../../src/lib/local-servers.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { httpDateIn } from '../support/client-cases.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { installPackage, unpackZip, phpClientPlan, phpcsMissing, phpToolsMissing, psr12Errors, runPhpUnit } from '../support/php-client-plan.ts';
import { startRecordingServer } from '../support/reference-fixture.ts';

const missing = phpToolsMissing();


describe('the generated PHP library against the sandbox', { skip: missing ?? false, timeout: 300_000 }, () => {
  let contract: ExecutableContract;
  let sandbox: Sandbox;
  let hanging: Awaited<ReturnType<typeof startRecordingServer>>;
  let work: string;
  let project: string;
  let planFile: string;

  const phpunit = async (testName: string, env: Record<string, string> = {}) => {
    const run = await runPhpUnit(project, planFile, testName, env);
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /OK \(1 test/, `${testName} ran: ${run.output}`);
  };

  before(async () => {
    contract = readExecutableContract(bundledDocument());
    work = mkdtempSync(path.join(tmpdir(), 'php-client-'));
    // The zip the site publishes, unpacked by PHP alone (Composer's artifact repository needs ext-zip) and installed offline.
    const zip = await packPhpClient(contract, path.join(work, 'artifacts'));
    project = installPackage({ type: 'path', url: unpackZip(zip, path.join(work, 'package')) }, composerPackageName, contract.model.documentVersion);
    const basePath = '/shop';
    const { plan, seed } = phpClientPlan(contract, { siteUrl: '', apiKey: '' });
    sandbox = await startSandbox({ port: 0, basePath, seed, contract });
    plan.siteUrl = sandbox.url;
    plan.apiKey = sandbox.apiKey;
    hanging = await startRecordingServer([{ status: 200, fault: 'hang' }]);
    planFile = path.join(work, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
  });

  after(async () => {
    await sandbox?.close();
    await hanging?.close();
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test('every action moves its subscription as the lifecycle table says, and the result keeps every member', () => phpunit('testEveryActionChangesItsSubscription'));
  test('a repeat answers that nothing changed', () => phpunit('testARepeatAnswersNothingChanged'));
  test('a refusal is the conflict exception naming the current status and the allowed actions', () => phpunit('testAConflictNamesTheAllowedActions'));
  test('a field no release has is the bad-request exception with its params', () => phpunit('testAFieldTheActionDoesNotTakeIsABadRequestWithItsParams'));
  test('a wrong key is the unauthorized exception, and the key shows in no message, trace, dump or log line', () => phpunit('testAWrongKeyIsUnauthorizedAndNeverShown'));
  test('a key given with a bad site URL shows in no message, trace or dump of the refusal', () => phpunit('testAKeyGivenWithABadSiteUrlIsNotShown'));
  test('an unknown subscription is the not-found exception, and the right key shows nowhere either', () => phpunit('testAnUnknownSubscriptionIsNotFound'));
  test('a field outside its bound is refused before anything is sent, naming the field and the bound', () => phpunit('testARequiredFieldOutsideItsBoundIsRefusedBeforeSending'));

  test('a throttled request with Retry-After in seconds is sent again after the wait, and succeeds', async () => {
    sandbox.throttleNext(1, '1');
    await phpunit('testAThrottledRequestIsSentAgainAfterItsRetryAfter', { EXPECTED_WAIT: '1' });
  });

  test('a throttled request with Retry-After as an HTTP date is sent again at that moment, and succeeds', async () => {
    const date = httpDateIn(3);
    sandbox.throttleNext(1, date);
    // PHPUnit takes a moment to start, longer on a busy machine; of the three seconds, most are left to wait.
    await phpunit('testAThrottledRequestIsSentAgainAfterItsRetryAfter', { EXPECTED_WAIT: '0.9' });
  });

  test('a wait longer than the bound is not waited: the throttled exception carries the wait asked for', async () => {
    sandbox.throttleNext(1, '120');
    await phpunit('testAWaitLongerThanTheBoundIsNotWaited', { EXPECTED_WAIT: '120' });
  });

  test("a host's HTML refusal is the host exception, not sent again", async () => {
    sandbox.hostErrorNext(1, 403);
    await phpunit('testAHostPageIsAHostException', { EXPECTED_STATUS: '403' });
  });

  test("a host's transient HTML answer is sent again after the policy's backoff, and succeeds", async () => {
    sandbox.hostErrorNext(1, 503);
    // The first backoff is a second, at least half of it always waited.
    await phpunit('testAThrottledRequestIsSentAgainAfterItsRetryAfter', { EXPECTED_WAIT: '0.5' });
  });

  test('a site that never answers ends in a timeout, which shows no key', () => phpunit('testASiteThatNeverAnswersTimesOut', { HANGING_SITE: `http://${hanging.host}` }));
  test('a timeout is sent again as the retry policy says, each attempt reported, then thrown as the timeout exception', () =>
    phpunit('testTimeoutsAreSentAgainAsThePolicySaysThenNamed', { HANGING_SITE: `http://${hanging.host}` }));
  test("a refused connection is sent again as often as the policy's attempts, then thrown as the connection exception", async () =>
    phpunit('testARefusedConnectionIsSentAgainAsThePolicySaysThenNamed', { REFUSING_SITE: `http://127.0.0.1:${await freePort()}` }));
  test('a missing field of listed values names the values', () => phpunit('testAMissingFieldOfListedValuesNamesTheValues'));
  test('an over-long text is not echoed, and every message is cut by character, valid for json_encode', () => phpunit('testAnOverLongTextIsNotEchoedAndMessagesAreCutByCharacter'));
  test('an object with a log() method is a logger, given the level, a line and the shared attempt members', () => phpunit('testAnObjectWithALogMethodIsALoggerToo'));
  test('Client implements ClientInterface, every action and send(), for a fake in a shop\'s tests', () => phpunit('testClientImplementsTheInterfaceAShopsTestsCanFake'));
  test('a bad site URL or option is a clear error that shows no key, never a TypeError', () => phpunit('testBadOptionsAreClearErrorsThatShowNoKey'));
  test('the courtesy pace spaces two requests to one site, and switches off', () => phpunit('testTheCourtesyPaceSpacesRequestsToOneSite'));
  test('a site without pretty permalinks is reached by its ?rest_route= query', () => phpunit('testASiteWithoutPrettyPermalinksIsReachedByItsQuery'));
  test('Retry-After is read as src/lib/http/retry-after.ts reads it, unreadable values included', () => phpunit('testRetryAfterIsReadAsEveryClientReadsIt'));

  test('every PHP file of the packed library passes php -l and PHP_CodeSniffer\'s PSR-12 with no error', { skip: phpcsMissing() ?? false }, () => {
    const source = path.join(work, 'package');
    const files = globSync('**/*.php', { cwd: source });
    assert.ok(files.length > 10, files.join(', '));
    for (const file of files) {
      const lint = spawnSync('php', ['-l', path.join(source, file)], { encoding: 'utf8' });
      assert.equal(lint.status, 0, `${lint.stdout}${lint.stderr}`);
    }
    assert.deepEqual(psr12Errors(source), []);
  });

  test('the PSR-12 check can fail: a file with a switch written on one line is refused', { skip: phpcsMissing() ?? false }, () => {
    const folder = path.join(work, 'not-psr12');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'Bad.php'), "<?php\n\nfunction bad($a) { switch ($a) { case 1: return 2; default: return 3; } }\n");
    assert.notDeepEqual(psr12Errors(folder), []);
  });

  test('the tests can fail: a plan expecting other waits makes PHPUnit fail', async () => {
    const wrong = path.join(work, 'wrong-plan.json');
    const { plan } = phpClientPlan(contract, { siteUrl: sandbox.url, apiKey: sandbox.apiKey });
    writeFileSync(wrong, JSON.stringify({ ...plan, retryAfterCases: plan.retryAfterCases.map((entry) => ({ ...entry, seconds: 7 })) }));
    const run = await runPhpUnit(project, wrong, 'testRetryAfterIsReadAsEveryClientReadsIt');
    assert.notEqual(run.status, 0, run.output);
  });
});
