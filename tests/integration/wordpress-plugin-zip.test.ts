/**
 * The reference plugin's zip, as the site publishes it, installed into the real WordPress by the
 * page's own steps: unzipped into the site's plugins folder and activated (WordPress's own
 * `activate_plugin()`, what the Plugins screen's Activate link runs), on a site of its own that
 * has no must-use plugin. Against it, with the sandbox's key and no other change than the site's
 * address: the conformance suite, the workflows, the PHP library's, the TypeScript client's and
 * the Python library's examples (the Python one waiting out the throttle setting's 429s), the
 * Python library's unittest suite (every action and its repeat, a 409's allowed actions, 400, 401,
 * 404, a 429 then success), and the throttle setting. Then, on the same site with `WP_ENVIRONMENT_TYPE`
 * `production`, the plugin serves no route. Skipped, with the reason, where WordPress cannot run.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packPhpClient } from '../../src/clients/php/package.ts';
import { composerPackageName } from '../../src/clients/php/php-source.ts';
import { exampleAction, exampleScript as phpExampleScript, phpExampleFile } from '../../src/clients/php/page-code.ts';
import { installPythonClient, type InstalledPythonClient } from '../../src/clients/python/installed-package.ts';
import { pythonExampleScript, pythonExampleScriptFile } from '../../src/clients/python/usage.ts';
import { exampleEnvironment } from '../../src/clients/shared/page-code.ts';
import { installTypescriptClient } from '../../src/clients/typescript/installed-package.ts';
import { exampleScript as typescriptExampleScript, exampleScriptFile } from '../../src/clients/typescript/usage.ts';
import { neededSubscriptions } from '../../src/conformance/own-sandbox.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { loadGatedContract } from '../../src/sandbox/contract-gate.ts';
import { defaultApiKey, defaultSeed } from '../../src/sandbox/seed.ts';
import { installedPluginSeed } from '../../src/wordpress/generate.ts';
import { conformanceSubscriptionsFrom } from '../../src/conformance/own-sandbox.ts';
import { pathsOf } from '../../src/wordpress/host-system.ts';
import { packPluginZip, pluginMainFile } from '../../src/wordpress/plugin-zip.ts';
import {
  activatePlugin,
  removeWordPressFiles,
  restorePluginDefaults,
  seedWordPress,
  startWordPress,
  stopWordPress,
  throttlePlugin,
  wordpressAvailable,
  type WordPressSite,
} from '../../src/wordpress/site.ts';
import { projectDirectory } from '../support/contract-copy.ts';
import { installPackage, phpToolsMissing, unpackZip } from '../support/php-client-plan.ts';
import { pythonClientPlan, runPythonUnittest } from '../support/python-client-plan.ts';
import { runRespect, writeWorkflowFiles } from '../support/respect-run.ts';

const availability = wordpressAvailable();
const unzipMissing = execFileSync('sh', ['-c', 'command -v unzip || true'], { encoding: 'utf8' }).trim() === '' ? 'unzip is not installed (apt-get install -y unzip)' : undefined;
const skip = availability.available ? (unzipMissing ?? false) : availability.reason;
const pythonMissing = execFileSync('sh', ['-c', "python3 -c 'import venv, ensurepip' 2>/dev/null && echo yes || true"], { encoding: 'utf8' }).trim() === 'yes' ? false : 'python3 with venv is not installed (apt-get install -y python3-venv)';
/** A site of its own, so the must-use site of `npm run wordpress` and its tests are untouched. */
const site = 'plugin-zip';
/** The administrator's password on this throwaway site, visibly not a secret. */
const adminPassword = 'plugin-zip-admin-not-a-secret';

/** A browser's cookies, enough for WordPress's sign-in: one jar, no paths. */
class Browser {
  private readonly cookies = new Map<string, string>([['wordpress_test_cookie', 'WP%20Cookie%20check']]);

  async go(url: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
    if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method: form === undefined ? 'GET' : 'POST', redirect: 'manual', headers, ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const equals = pair.indexOf('=');
      this.cookies.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    return response;
  }
}

/** Each form of a page: its hidden `action` and its nonce. */
function formsOf(html: string): { action: string; nonce: string }[] {
  return html.split('<form').slice(1).map((form) => ({
    action: /name="action" value="([^"]+)"/.exec(form)?.[1] ?? '',
    nonce: /name="_wpnonce" value="([^"]+)"/.exec(form)?.[1] ?? '',
  }));
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = projectDirectory): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, timeout: 300_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function endpointBody(contract: ExecutableContract, id: number): Record<string, unknown> {
  const action = exampleAction(contract);
  const { credential, subject } = contract.model.envelope;
  return { ...action.requestExample.value, [credential]: defaultApiKey, [subject]: id };
}

/** The quickstart's action, which the libraries' page examples send, and a subscription a fresh plugin holds where it applies. */
function quickstartCase(contract: ExecutableContract) {
  const action = exampleAction(contract);
  assert.ok(action.transition.kind === 'fixed');
  const from = action.transition.from[0];
  const subscription = defaultSeed(contract.model.lifecycle).find((candidate) => candidate.status === from);
  assert.ok(subscription !== undefined, `a fresh sandbox holds a subscription that is ${from}`);
  return { action, from, to: action.transition.to, subscription };
}

describe('the reference plugin zip installed into a real WordPress by the page\'s steps', { skip, timeout: 1_200_000 }, () => {
  let contract: ExecutableContract;
  let wordpress: WordPressSite;
  let work: string;
  /** The Python library, packed into its wheel and installed into a fresh virtual environment the first time a test needs it. */
  let python: InstalledPythonClient | undefined;
  const installedPython = (): InstalledPythonClient => (python ??= installPythonClient(contract));

  before(async () => {
    contract = await loadGatedContract(projectDirectory);
    work = mkdtempSync(path.join(tmpdir(), 'plugin-zip-'));
    const zip = packPluginZip(contract, projectDirectory, work);
    // A database left by an interrupted run would already hold the plugin's options.
    await stopWordPress({ projectDirectory, site });
    removeWordPressFiles({ projectDirectory, site });
    wordpress = await startWordPress({ projectDirectory, site, port: 0, pluginLoading: 'installed', adminPassword });
    const plugins = pathsOf(projectDirectory, site).pluginsDirectory;
    assert.deepEqual(readdirSync(plugins), [], 'the site starts with no plugin');
    // The page's step: unzip into wp-content/plugins/ (here the site's own plugins folder).
    const unzipped = await run('unzip', ['-q', zip, '-d', plugins]);
    assert.equal(unzipped.code, 0, unzipped.output);
    // Apache reads the files as www-data, whatever umask this run has.
    execFileSync('chmod', ['-R', 'a+rX', plugins]);
  });

  after(async () => {
    await stopWordPress({ projectDirectory, site });
    removeWordPressFiles({ projectDirectory, site });
    python?.remove();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test('activated, it holds a fresh sandbox\'s subscriptions and the conformance run\'s, and accepts the sandbox\'s key', async () => {
    const held = await activatePlugin(pluginMainFile, { projectDirectory, site });
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    assert.deepEqual([...held].sort(byId), [...installedPluginSeed(contract)].sort(byId));
    assert.equal(wordpress.apiKey, defaultApiKey);
    const [first] = defaultSeed(contract.model.lifecycle);
    assert.ok(first !== undefined);
    const wrongKey = await fetch(wordpress.endpointUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...endpointBody(contract, first.id), [contract.model.envelope.credential]: 'another-key' }) });
    assert.equal(wrongKey.status, contract.errors.invalidKey.status);
  });

  test('the conformance suite passes, as the conformance page writes its command, with only the address and key of this site', async () => {
    const needed = [...neededSubscriptions(contract).values()].reduce((sum, count) => sum + count, 0);
    const report = path.join(work, 'conformance-report.xml');
    const suite = await run(process.execPath, [
      path.join(projectDirectory, 'scripts/conformance.ts'),
      '--base-url',
      wordpress.baseUrl,
      '--api-key',
      defaultApiKey,
      '--subscription',
      `${conformanceSubscriptionsFrom(contract)}-${conformanceSubscriptionsFrom(contract) + needed - 1}`,
      '--junit',
      report,
    ]);
    assert.equal(suite.code, 0, suite.output);
  });

  test('every workflow runs green with redocly respect, given only the site\'s address and key, as against a new sandbox', async () => {
    await restorePluginDefaults({ projectDirectory, site });
    const files = writeWorkflowFiles(contract);
    try {
      const respect = await runRespect(contract, files, { siteUrl: wordpress.baseUrl, apiKey: defaultApiKey });
      assert.equal(respect.exitCode, 0, respect.output);
      assert.ok(respect.outcomes.size > 0 && [...respect.outcomes.values()].every((outcome) => outcome === 'success'), respect.output);
    } finally {
      files.remove();
    }
  });

  test('the PHP library\'s example, as its page writes it, waits out the throttle setting\'s two 429s and carries out the action', { skip: phpToolsMissing() ?? false }, async () => {
    await restorePluginDefaults({ projectDirectory, site });
    const { action, from, to, subscription } = quickstartCase(contract);
    const zip = await packPhpClient(contract, path.join(work, 'php-artifacts'));
    const folder = installPackage({ type: 'path', url: unpackZip(zip, path.join(work, 'php-package')) }, composerPackageName, contract.model.documentVersion);
    writeFileSync(path.join(folder, phpExampleFile), phpExampleScript(contract));
    await throttlePlugin(2, 1, { projectDirectory, site });
    const { siteUrl, apiKey: key, subscriptionId } = exampleEnvironment;
    const paused = await run('php', [phpExampleFile], { ...process.env, [siteUrl]: wordpress.baseUrl, [key]: defaultApiKey, [subscriptionId]: String(subscription.id) }, folder);
    assert.equal(paused.code, 0, paused.output);
    assert.match(paused.output, new RegExp(`${action.identifier}: ${from} -> ${to} \\(changed: yes\\)`));
  });

  test('the TypeScript client\'s example, as its page writes it, carries out the action', async () => {
    await restorePluginDefaults({ projectDirectory, site });
    const { to, subscription } = quickstartCase(contract);
    const installed = installTypescriptClient(contract);
    try {
      writeFileSync(path.join(installed.folder, exampleScriptFile), typescriptExampleScript(contract));
      const ran = await run(process.execPath, [exampleScriptFile], { ...process.env, [exampleEnvironment.siteUrl]: wordpress.baseUrl, [exampleEnvironment.apiKey]: defaultApiKey, [exampleEnvironment.subscriptionId]: String(subscription.id) }, installed.folder);
      assert.equal(ran.code, 0, ran.output);
      assert.match(ran.output, new RegExp(`${contract.result.status}: '${to}'`));
    } finally {
      installed.remove();
    }
  });

  test('the Python library\'s example, as its page writes it, from its wheel in a fresh virtual environment, waits out the throttle setting\'s two 429s and carries out the action', { skip: pythonMissing }, async () => {
    await restorePluginDefaults({ projectDirectory, site });
    const { action, to, subscription } = quickstartCase(contract);
    const installed = installedPython();
    const folder = path.dirname(installed.wheel);
    writeFileSync(path.join(folder, pythonExampleScriptFile), pythonExampleScript(contract));
    await throttlePlugin(2, 1, { projectDirectory, site });
    const { siteUrl, apiKey, subscriptionId } = exampleEnvironment;
    const ran = await run(installed.python, [pythonExampleScriptFile], { ...process.env, [siteUrl]: wordpress.baseUrl, [apiKey]: defaultApiKey, [subscriptionId]: String(subscription.id) }, folder);
    assert.equal(ran.code, 0, ran.output);
    assert.match(ran.output, new RegExp(`'${contract.result.status}': '${to}'`));
    const again = await fetch(wordpress.endpointUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...action.requestExample.value, [contract.model.envelope.credential]: defaultApiKey, [contract.model.envelope.subject]: subscription.id }) });
    assert.notEqual(again.status, Number(contract.throttled.status), 'the example took both 429s itself');
  });

  test('the Python library\'s unittest suite passes against the plugin: every action and its repeat, a 409\'s allowed actions, 400, 401, 404, a 429 then success', { skip: pythonMissing }, async () => {
    await restorePluginDefaults({ projectDirectory, site });
    const { seed, plan } = pythonClientPlan(contract, 40_000);
    const held = await seedWordPress({ projectDirectory, site, seed });
    assert.deepEqual(held.map((subscription) => subscription.id).sort(), seed.map((subscription) => subscription.id).sort(), 'the site holds every subscription the plan names');
    const installed = installedPython();
    const planFile = path.join(path.dirname(installed.wheel), 'wordpress-plan.json');
    writeFileSync(planFile, JSON.stringify(plan({ baseUrl: wordpress.baseUrl, endpointUrl: wordpress.endpointUrl, apiKey: wordpress.apiKey }), null, 2));
    const suite = await runPythonUnittest(installed.python, planFile);
    assert.equal(suite.status, 0, `${suite.stdout}${suite.stderr}`);
    assert.match(suite.stderr, /\nOK\b/);
    assert.doesNotMatch(suite.stderr, /skipped/);
  });

  test('the throttle setting answers the next requests with the contract\'s 429 and Retry-After, then lets them through', async () => {
    await restorePluginDefaults({ projectDirectory, site });
    const [first] = defaultSeed(contract.model.lifecycle);
    assert.ok(first !== undefined);
    const send = () => fetch(wordpress.endpointUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(endpointBody(contract, first.id)) });
    const unthrottled = await send();
    assert.notEqual(unthrottled.status, Number(contract.throttled.status), 'off by default');
    await throttlePlugin(2, 7, { projectDirectory, site });
    for (let request = 1; request <= 2; request += 1) {
      const throttled = await send();
      assert.equal(throttled.status, Number(contract.throttled.status), `request ${request}`);
      assert.equal(throttled.headers.get(contract.retryAfterHeader), '7');
    }
    assert.notEqual((await send()).status, Number(contract.throttled.status), 'the third request goes through');
  });

  test('the settings page, for a signed-in administrator with the form\'s nonce, changes the key and the throttle, and resets; without the nonce it changes nothing', async () => {
    await restorePluginDefaults({ projectDirectory, site });
    const browser = new Browser();
    const signedIn = await browser.go(`${wordpress.baseUrl}/wp-login.php`, { log: 'admin', pwd: adminPassword, testcookie: '1' });
    assert.equal(signedIn.status, 302, 'WordPress signs the administrator in');
    const settingsUrl = `${wordpress.baseUrl}/wp-admin/options-general.php?page=service-reference`;
    const page = await browser.go(settingsUrl);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(html, /is a test double/, 'the page says the plugin is a test double');
    const save = formsOf(html).find((form) => form.action === 'service_reference_save');
    const reset = formsOf(html).find((form) => form.action === 'service_reference_reset');
    assert.ok(save !== undefined && save.nonce !== '' && reset !== undefined && reset.nonce !== '', 'a save form and a reset form, each with a nonce');

    const otherKey = 'settings-page-key-not-a-secret';
    const fields = { action: 'service_reference_save', api_key: otherKey, subscriptions: JSON.stringify(installedPluginSeed(contract)), throttle_next: '1', retry_after: '3' };
    const forged = await browser.go(`${wordpress.baseUrl}/wp-admin/admin-post.php`, fields);
    assert.equal(forged.status, 403, 'without the nonce WordPress refuses');
    // A subscription the example moves: the first answer carries it out, every later one answers that nothing changed, both 200.
    const { subscription } = quickstartCase(contract);
    const send = (key: string) => fetch(wordpress.endpointUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...endpointBody(contract, subscription.id), [contract.model.envelope.credential]: key }) });
    assert.equal((await send(defaultApiKey)).status, Number(contract.response(200)?.status ?? 200), 'the forged form changed nothing');

    const saved = await browser.go(`${wordpress.baseUrl}/wp-admin/admin-post.php`, { ...fields, _wpnonce: save.nonce });
    assert.equal(saved.status, 302, await saved.text());
    const throttled = await send(otherKey);
    assert.equal(throttled.status, Number(contract.throttled.status));
    assert.equal(throttled.headers.get(contract.retryAfterHeader), '3');
    assert.equal((await send(defaultApiKey)).status, contract.errors.invalidKey.status, 'the old key no longer opens');
    assert.equal((await send(otherKey)).status, Number(contract.response(200)?.status ?? 200), 'the new key does');

    const wasReset = await browser.go(`${wordpress.baseUrl}/wp-admin/admin-post.php`, { action: 'service_reference_reset', _wpnonce: reset.nonce });
    assert.equal(wasReset.status, 302);
    assert.equal((await send(defaultApiKey)).status, Number(contract.response(200)?.status ?? 200), 'the reset brings the sandbox\'s key back');
  });

  test('with WP_ENVIRONMENT_TYPE production, the plugin serves no route', async () => {
    await stopWordPress({ projectDirectory, site });
    wordpress = await startWordPress({ projectDirectory, site, port: 0, pluginLoading: 'installed', environmentType: 'production' });
    assert.ok(existsSync(path.join(pathsOf(projectDirectory, site).pluginsDirectory, pluginMainFile)), 'the plugin is still installed');
    const [first] = defaultSeed(contract.model.lifecycle);
    assert.ok(first !== undefined);
    const answer = await fetch(wordpress.endpointUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(endpointBody(contract, first.id)) });
    assert.equal(answer.status, 404);
    assert.equal(((await answer.json()) as { code?: string }).code, 'rest_no_route');
  });

  test('the site logged no PHP notice, warning, deprecation or error while the plugin ran', () => {
    const log = path.join(pathsOf(projectDirectory, site).logs, 'apache-error.log');
    // The admin pages start WordPress's update checks, which warn that WordPress.org cannot be reached from here (WP_HTTP_BLOCK_EXTERNAL).
    const phpLines = existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => /PHP (Notice|Warning|Deprecated|Fatal error|Parse error)/.test(line) && !/could not establish a secure connection to WordPress\.org.* in \/usr\/share\/wordpress\/wp-includes\/update\.php/.test(line))
      : [];
    assert.deepEqual(phpLines, []);
  });
});
