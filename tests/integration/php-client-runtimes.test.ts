/**
 * The PHP library on every PHP its page claims, 7.4 to 8.5, each a real PHP (php-wasm, in this
 * process; tests/support/php-wasm.ts) with opcache on, arguments kept in traces and every error,
 * warning, notice or deprecation a failure: the zip the site publishes, installed by Composer as
 * php-client.test.ts installs it, driven by tests/php-client/behaviour.php against a sandbox of its
 * own per version (ClientTest.php's checks: every action, a repeat, a refusal, a field no release
 * has, a wrong key, an unknown subscription, the fields' bounds, a throttled request in each
 * Retry-After form, a host's page, a timeout, the retries of a timeout and of a refused connection
 * with the logger's reports, the pace, and more); then tests/php-client/key-exposure.php makes it
 * throw every exception it can and looks for the key everywhere it could show, also with the
 * library made from a contract whose key has a longest length. Debian's PHP with PHPUnit
 * stays the native run (php-client.test.ts). The versions run side by side, one PHP each.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packPhpClient } from '../../src/clients/php/package.ts';
import { composerPackageName } from '../../src/clients/php/php-source.ts';
import { resolvePointer, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { httpDateIn } from '../support/client-cases.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';
import { installPackage, phpClientPlan, unpackZip } from '../support/php-client-plan.ts';
import { PhpWasm, phpWasmVersions, type PhpWasmRun, type PhpWasmVersion } from '../support/php-wasm.ts';
import { startRecordingServer } from '../support/reference-fixture.ts';
import { freePort } from '../../src/lib/local-servers.ts';

const missing = ['php', 'composer'].filter((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0);
const skip = missing.length === 0 ? false : `${missing.join(', ')} not installed here, to unpack and install the library (apt-get install -y php-cli composer)`;


/**
 * A host's HTML page of three-byte characters, longer than any excerpt, so that a cut by byte
 * almost always splits one; the hanging path never answers.
 */
const hostPage = `<html><body><p>${'€'.repeat(400)}</p></body></html>`;

/**
 * The document with a longest length on the credential's schema, wherever a request's properties
 * name it (through a $ref into the components, or inline): a contract the library must check the
 * key against when a client is made.
 */
function withLongestKey(document: OpenApiDocument, credential: string, longest: number): OpenApiDocument {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const bound = (schema: Record<string, unknown>) => {
    const target = typeof schema.$ref === 'string' ? (resolvePointer(document, schema.$ref) as Record<string, unknown>) : schema;
    target.maxLength = longest;
  };
  for (const schema of Object.values(schemas)) {
    const property = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[credential];
    if (property !== undefined) bound(property);
  }
  return document;
}

interface KeyReport {
  exposures: Record<string, string[]>;
  thrown: Record<string, string | null>;
  hostMessageAsJson: string | null;
}

let contract: ExecutableContract;
let work: string;
let project: string;
let boundedKeyProject: string;
/** One PHP per version, all started before any test, so that no test's requests wait on another PHP loading. */
const runtimes = new Map<PhpWasmVersion, PhpWasm>();

describe('the PHP library on PHP 7.4 to 8.5 (php-wasm, opcache on, every error raised)', { skip, timeout: 600_000, concurrency: true }, () => {
  before(async () => {
    contract = readExecutableContract(bundledDocument());
    work = mkdtempSync(path.join(tmpdir(), 'php-client-runtimes-'));
    const zip = await packPhpClient(contract, path.join(work, 'artifacts'));
    project = installPackage({ type: 'path', url: unpackZip(zip, path.join(work, 'package')) }, composerPackageName, contract.model.documentVersion);
    // The same library made from a contract whose key has a longest length, shorter than the plan's wrong key.
    const { wrongKey } = phpClientPlan(contract, { siteUrl: '', apiKey: '' }).plan;
    const boundedKey = readExecutableContract(withLongestKey(bundledDocument(), contract.model.envelope.credential, wrongKey.length - 1));
    const boundedZip = await packPhpClient(boundedKey, path.join(work, 'bounded-key-artifacts'));
    boundedKeyProject = installPackage({ type: 'path', url: unpackZip(boundedZip, path.join(work, 'bounded-key-package')) }, composerPackageName, boundedKey.model.documentVersion);
    const mounts = { '/project': project, '/bounded-key-project': boundedKeyProject, '/tests': path.join(projectDirectory, 'tests/php-client'), '/work': work };
    for (const php of await Promise.all(phpWasmVersions.map((version) => PhpWasm.start(version, mounts)))) runtimes.set(php.version, php);
  });

  after(() => {
    for (const php of runtimes.values()) php.close();
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
    if (boundedKeyProject !== undefined) rmSync(boundedKeyProject, { recursive: true, force: true });
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  for (const version of phpWasmVersions) {
    describe(`PHP ${version}`, { concurrency: 1 }, () => {
      let php: PhpWasm;
      let sandbox: Sandbox;
      let host: Awaited<ReturnType<typeof startRecordingServer>>;
      let planFile: string;
      let keyReport: KeyReport;

      const env = (extra: Record<string, string> = {}) => ({ AUTOLOAD: '/project/vendor/autoload.php', PLAN_FILE: `/work/plan-${version}.json`, ...extra });
      const passes = (run: PhpWasmRun, what: string) => {
        assert.deepEqual(run.raised, [], `PHP ${version} raised, in ${what}:\n${run.stdout}${run.stderr}`);
        assert.equal(run.exitCode, 0, `PHP ${version}, ${what}:\n${run.stdout}${run.stderr}`);
      };
      const check = async (name: string, extra: Record<string, string> = {}) => {
        const run = await php.run('/tests/behaviour.php', env({ CHECK: name, ...extra }));
        passes(run, name);
        assert.match(run.stdout, new RegExp(`^passed ${name}$`, 'm'));
      };

      before(async () => {
        const { plan, seed } = phpClientPlan(contract, { siteUrl: '', apiKey: '' });
        sandbox = await startSandbox({ port: 0, basePath: '/shop', seed, contract });
        host = await startRecordingServer((request) =>
          request.url.startsWith('/hang') ? { status: 200, fault: 'hang' } : { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' }, body: hostPage },
        );
        plan.siteUrl = sandbox.url;
        plan.apiKey = sandbox.apiKey;
        planFile = path.join(work, `plan-${version}.json`);
        writeFileSync(planFile, JSON.stringify(plan));
        const started = runtimes.get(version);
        assert.ok(started, `PHP ${version} started`);
        php = started;
      });

      after(async () => {
        await sandbox?.close();
        await host?.close();
      });

      test('it is the PHP asked for, with opcache compiling and optimizing what it runs, curl, and every error raised', async () => {
        const probe = `<?php
final class Holder { private $kept; public function __construct(string $secret) { $this->kept = strlen($secret); $secret = ''; throw new RuntimeException('probe'); } }
try { new Holder('dead-store-probe'); } catch (RuntimeException $thrown) { $argument = $thrown->getTrace()[0]['args'][0]; }
echo json_encode(['version' => PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION, 'opcache' => opcache_get_status(false), 'argument' => $argument, 'curl' => function_exists('curl_init'), 'ignoreArgs' => ini_get('zend.exception_ignore_args'), 'reporting' => error_reporting() === E_ALL]);
`;
        const run = await php.runCode(probe);
        passes(run, 'the probe');
        const seen = JSON.parse(run.stdout) as { version: string; opcache: { file_cache_only?: boolean } | false; argument: string; curl: boolean; ignoreArgs: string; reporting: boolean };
        assert.equal(seen.version, version);
        assert.equal(seen.curl, true);
        assert.equal(seen.ignoreArgs, '0');
        assert.equal(seen.reporting, true, 'error_reporting is E_ALL');
        assert.notEqual(seen.opcache, false, 'opcache started');
        // The optimizer removed the constructor's dead store, as it does natively: proof that opcache compiled this file.
        assert.equal(seen.argument, 'dead-store-probe');
        const raisingCases: [string, string][] = [
          ['a warning the code catches', '<?php try { $none = []; echo $none["missing"]; } catch (ErrorException $raised) { } echo "after";'],
          ['a deprecation', '<?php trigger_error("probe", E_USER_DEPRECATED);'],
          ['a notice', '<?php trigger_error("probe", E_USER_NOTICE);'],
          ['an uncaught exception', '<?php throw new RuntimeException("probe");'],
        ];
        for (const [what, code] of raisingCases) {
          const raising = await php.runCode(code);
          assert.ok(raising.raised.length > 0, `${what} counts as raised: ${raising.stdout}${raising.stderr}`);
        }
      });

      test('every action moves its subscription, and the answer keeps every member', () => check('every action'));
      test('a repeat answers that nothing changed', () => check('repeat'));
      test('a refusal names the current status and the allowed actions', () => check('conflict'));
      test('a field no release has is the bad-request exception with its params', () => check('bad request'));
      test('a wrong key is the unauthorized exception', () => check('unauthorized'));
      test('an unknown subscription is the not-found exception', () => check('not found'));
      test('a field outside its bound, or a required one missing, is refused before anything is sent', () => check('out of bound'));
      test('a missing field of listed values names the values, and nothing is sent', () => check('missing listed'));
      test('an over-long text is not echoed, and messages are cut by character', () => check('cut by character'));
      test('a throttled request with Retry-After in seconds is sent again after the wait, and succeeds', async () => {
        sandbox.throttleNext(1, '1');
        await check('throttled', { EXPECTED_WAIT: '1' });
      });
      test('a throttled request with Retry-After as an HTTP date is sent again at that moment, and succeeds', async () => {
        sandbox.throttleNext(1, httpDateIn(2));
        await check('throttled', { EXPECTED_WAIT: '0.9' });
      });
      test('a throttled request asking for a wait over the bound is not waited', async () => {
        sandbox.throttleNext(1, '120');
        await check('wait over the bound', { EXPECTED_WAIT: '120' });
      });
      test("a host's HTML page is the host exception", async () => {
        sandbox.hostErrorNext(1, 403);
        await check('host page', { EXPECTED_STATUS: '403' });
      });
      test('a site that never answers ends in a timeout', () => check('timeout', { HANGING_SITE: `http://${host.host}/hang` }));
      test('a timeout is sent again as the policy says, each attempt reported to the logger, then thrown', () => check('timeout retried', { HANGING_SITE: `http://${host.host}/hang` }));
      test("a refused connection is sent again as often as the policy's attempts, each reported, then thrown", async () => check('connection refused', { REFUSING_SITE: `http://127.0.0.1:${await freePort()}` }));
      test('an object with a log() method is given each attempt with its level and members', () => check('logger object'));
      test('the client implements ClientInterface, whose methods are the actions and send()', () => check('interface'));
      test('bad options are clear errors that quote no key', () => check('bad options'));
      test('the courtesy pace spaces requests to one site, shared through a Pace object', () => check('pace'));
      test('a site without pretty permalinks is reached by its query', () => check('plain permalinks'));
      test('Retry-After is read as every client reads it', () => check('retry-after'));

      test('the checks can fail: a plan expecting other waits fails on this PHP too', async () => {
        const wrong = JSON.parse(JSON.stringify(phpClientPlan(contract, { siteUrl: sandbox.url, apiKey: sandbox.apiKey }).plan)) as ReturnType<typeof phpClientPlan>['plan'];
        wrong.retryAfterCases = wrong.retryAfterCases.map((entry) => ({ ...entry, seconds: 7 }));
        writeFileSync(path.join(work, `wrong-plan-${version}.json`), JSON.stringify(wrong));
        const run = await php.run('/tests/behaviour.php', env({ CHECK: 'retry-after', PLAN_FILE: `/work/wrong-plan-${version}.json` }));
        assert.notEqual(run.exitCode, 0, run.stdout);
      });

      describe('the key never shows', { concurrency: 1 }, () => {
        before(async () => {
          sandbox.throttleNext(1, '120');
          const run = await php.run('/tests/key-exposure.php', env({ PAGE_SITE: `http://${host.host}/page`, HANGING_SITE: `http://${host.host}/hang`, REFUSING_SITE: `http://127.0.0.1:${await freePort()}` }));
          passes(run, 'the key-exposure program');
          keyReport = JSON.parse(run.stdout) as KeyReport;
        });

        test('every provocation threw', () => {
          assert.deepEqual(
            Object.entries(keyReport.thrown).filter(([, thrown]) => thrown === null),
            [],
          );
        });

        const provocations = ['a wait over the bound', 'a TypeError on the options', 'an unknown option', 'a site URL without a scheme', 'a field outside its bound', 'a refusal, after the request was sent', 'a field no release has', 'a wrong key', 'an unknown subscription', "a host's page", 'a timeout', 'a refused connection', 'a site URL with a NUL byte', 'a URL with a NUL byte, given to the curl transport', 'a field whose jsonSerialize() throws', 'a missing field', 'what a call returns', 'the client itself'];
        for (const provocation of provocations) {
          test(`in nothing shown of ${provocation}`, () => {
            assert.deepEqual(keyReport.exposures[provocation], []);
          });
        }

        test('in nothing shown of a key longer than the contract allows, refused when the client is made', async () => {
          const provocation = 'a key longer than the contract allows';
          const run = await php.run('/tests/key-exposure.php', env({ AUTOLOAD: '/bounded-key-project/vendor/autoload.php', ONLY: provocation }));
          passes(run, provocation);
          const report = JSON.parse(run.stdout) as KeyReport;
          assert.match(report.thrown[provocation] ?? 'nothing was thrown', /InvalidFieldException$/);
          assert.deepEqual(report.exposures[provocation], []);
        });

        test("a host's page is cut by character: its exception's message encodes as JSON", () => {
          assert.equal(keyReport.hostMessageAsJson, 'encoded');
        });
      });
    });
  }
});
