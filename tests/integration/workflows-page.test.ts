/**
 * The commands of the workflows guide (/workflows/), taken from the built page and run as written
 * in an empty folder: the download of the two files, `npx @redocly/cli respect` against a new
 * sandbox, and one workflow against "your own site". The page names the public docs URL, the
 * sandbox's default port and the document's example site; the test serves the built site as the
 * host does and starts sandboxes on free ports, and maps those three to them: the only change made
 * to what the page shows. What the page shows of a passing and a failing run is checked against
 * the runs themselves.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { serveLikeAStaticHost, type StaticHost } from '../../src/host/static-host.ts';
import { loadExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { downloadPaths } from '../../src/lib/site/navigation.ts';
import { apiKeyPlaceholder, arazzoYaml } from '../../src/lib/workflows/arazzo-document.ts';
import { planWorkflows, workflowSubscriptions } from '../../src/lib/workflows/workflow-plan.ts';
import { otherSandboxKey } from '../../src/respect/respect-runs.ts';
import { defaultPort, startSandbox } from '../../src/sandbox/server.ts';
import { siteConfig } from '../../src/site-config.ts';
import { renderedCodeText } from '../../src/lib/site/rendered-code.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const distDirectory = path.join(projectDirectory, 'dist');
const workDirectory = mkdtempSync(path.join(tmpdir(), 'workflows-page-'));
const folder = path.join(workDirectory, 'workflows');
let site: StaticHost;
let page: string;

before(async () => {
  ensureBuiltSite(projectDirectory);
  site = await serveLikeAStaticHost(distDirectory);
  page = readFileSync(path.join(distDirectory, 'workflows', 'index.html'), 'utf8');
  mkdirSync(folder);
});

after(async () => {
  await site.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** The code blocks of the built page in a language, line continuations joined. */
function codeBlocks(language: string): string[] {
  return selectAll(`pre[data-language="${language}"] > code`, fromHtml(page))
    .map((code) => renderedCodeText(code))
    .map((text) => text.replace(/\\\n\s*/g, ''));
}

/** Runs a command line as a reader pastes it, in the folder the downloads went to; Node's and the system's tools only. */
function shell(commandLine: string): Promise<{ code: number | null; output: string }> {
  // The machine's own certificate settings pass through: npx reaches the registry the way npm does here.
  const trust = Object.fromEntries(['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
  const env = { ...trust, PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter), HOME: process.env.HOME ?? workDirectory, npm_config_update_notifier: 'false', NO_COLOR: '1' };
  const child = spawn('sh', ['-c', commandLine], { cwd: folder, env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

const contract = loadExecutableContract();
const workflows = planWorkflows(contract);
const byPrefix = (prefix: string): string => {
  const found = codeBlocks('sh').filter((command) => command.startsWith(prefix));
  assert.equal(found.length, 1, `one command starting ${prefix}`);
  return found[0] ?? '';
};

/** The page's `npx @redocly/cli respect` command that runs every workflow, the one that names one, or the one with `--verbose`. */
function respectCommand(which: 'every workflow' | 'one workflow' | 'verbose'): string {
  const found = codeBlocks('sh').filter(
    (command) =>
      command.startsWith('npx --yes @redocly/cli@') &&
      command.includes(' --workflow ') === (which !== 'every workflow') &&
      command.endsWith(' --verbose') === (which === 'verbose'),
  );
  assert.equal(found.length, 1, `one respect command for ${which}`);
  return found[0] ?? '';
}

describe('the workflows guide', () => {
  test('its download command fetches the description and the OpenAPI document it runs against', async () => {
    const command = byPrefix('curl ');
    const run = await shell(command.replaceAll(siteConfig.docsUrl, site.origin));
    assert.equal(run.code, 0, run.output);
    assert.equal(readFileSync(path.join(folder, path.posix.basename(downloadPaths.arazzo)), 'utf8'), arazzoYaml(contract));
    assert.equal(readFileSync(path.join(folder, path.posix.basename(downloadPaths.yaml)), 'utf8'), readFileSync(path.join(distDirectory, downloadPaths.yaml), 'utf8'));
  });

  test('its command against a new sandbox passes every workflow, as the page shows it', { timeout: 300_000 }, async () => {
    const command = respectCommand('every workflow');
    const sandbox = await startSandbox({ port: 0, contract });
    try {
      const run = await shell(command.replaceAll(`http://127.0.0.1:${defaultPort}`, sandbox.url));
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, new RegExp(`Workflows: ${workflows.length} passed, ${workflows.length} total`));
      const shown = codeBlocks('text');
      assert.ok(shown.some((block) => block.includes(`Workflows: ${workflows.length} passed, ${workflows.length} total`)), 'the page shows a passing run');
      assert.ok(shown.some((block) => /Workflows: \d+ passed, \d+ failed, \d+ total/.test(block) && block.includes('Failed tests info:')), 'the page shows a failing run');
      // The page's excerpt of the passing run is the first workflow's block of a real run, check for check.
      const checks = (text: string) => text.split('\n').filter((line) => /^\s*[✓✗] /.test(line)).map((line) => line.trim());
      const firstBlock = run.output.split(/^\s*─+\s*$/m).find((block) => block.includes('Running workflow'));
      assert.ok(firstBlock);
      assert.ok(shown.some((block) => checks(block).join('\n') === checks(firstBlock).join('\n')), 'the passing excerpt is what Respect prints');
    } finally {
      await sandbox.close();
    }
  });

  test('its failing example with --verbose is a real run of its command, and names the status and body the site answered', { timeout: 120_000 }, async () => {
    const command = respectCommand('verbose');
    const refused = contract.errors.invalidKey;
    assert.ok(toText(fromHtml(page)).includes(`--api-key ${otherSandboxKey}`), 'the page names the key its sandbox was started with');
    const sandbox = await startSandbox({ port: 0, contract, apiKey: otherSandboxKey });
    try {
      const run = await shell(command.replaceAll(`http://127.0.0.1:${defaultPort}`, sandbox.url));
      assert.equal(run.code, 1, run.output);
      assert.ok(run.output.includes(`Response status code: ${refused.status}`), run.output);
      assert.ok(run.output.includes(refused.code), run.output);
      const shown = codeBlocks('text').find((block) => block.includes('Response status code:'));
      assert.ok(shown, 'the page shows a verbose run');
      assert.ok(shown.includes(`Response status code: ${refused.status}`) && shown.includes(`"${refused.code}"`), shown);
      const checks = (text: string) => text.split('\n').filter((line) => /^\s*[✓✗] /.test(line)).map((line) => line.trim());
      const printed = run.output.slice(0, run.output.indexOf('Failed tests info:'));
      assert.deepEqual(checks(shown), checks(printed), 'the excerpt shows the checks Respect printed');
    } finally {
      await sandbox.close();
    }
  });

  test('its command against your own site runs the one workflow it names, on the subscription given', { timeout: 120_000 }, async () => {
    const siteCommand = respectCommand('one workflow');
    const workflow = /--workflow (\S+)/.exec(siteCommand)?.[1];
    const planned = workflows.find((candidate) => candidate.workflowId === workflow);
    assert.ok(planned, siteCommand);
    const { endpoint } = contract.model;
    const exampleSite = endpoint.exampleUrl.slice(0, endpoint.exampleUrl.length - endpoint.urlPath.length);
    const sandbox = await startSandbox({ port: 0, contract });
    try {
      const subscription = workflowSubscriptions(contract, workflows).find((candidate) => candidate.workflowId === workflow);
      const filled = siteCommand.replaceAll(exampleSite, sandbox.url).replaceAll(apiKeyPlaceholder(contract), sandbox.apiKey).replaceAll('<SUBSCRIPTION_ID>', String(subscription?.id));
      const run = await shell(filled);
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /Workflows: 1 passed, 1 total/);
    } finally {
      await sandbox.close();
    }
  });
});
