import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { conformanceSeed } from '../../src/conformance/own-sandbox.ts';
import { toolsCommand, toolsDownloadDirectory, toolsTarballName } from '../../src/contract-tools/tools-package.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { serveLikeAStaticHost, type StaticHost } from '../../src/host/static-host.ts';
import { loadExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { portIsFree } from '../../src/lib/local-servers.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { siteConfig } from '../../src/site-config.ts';
import { renderedCodeText } from '../../src/lib/site/rendered-code.ts';
import { projectDirectory } from '../support/contract-copy.ts';
import { nodeBinary, toolsNodeVersions } from '../support/node-lines.ts';

/**
 * The command the /sandbox/ and /conformance/ guides give for the contract tools, run as written
 * from an empty folder with nothing but Node (and the npm and npx that come with it): a fresh
 * home, a fresh npm cache, no project. The guides name the public docs URL, where this site is not
 * yet served, so the test serves the built site locally as the host does (public/_headers) and
 * maps the docs origin in the command to the local server's origin: the only change made to what
 * the page shows. The conformance guide's example site, https://shop.test, is mapped the same way
 * to a sandbox holding the subscriptions the example names.
 */

const distDirectory = path.join(projectDirectory, 'dist');
const workDirectory = mkdtempSync(path.join(tmpdir(), 'tools-download-'));
let site: StaticHost;

before(async () => {
  ensureBuiltSite(projectDirectory);
  site = await serveLikeAStaticHost(distDirectory);
});

after(async () => {
  await site.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** The shell commands of a built guide's code blocks that run the tools, line continuations joined. */
function toolsCommands(page: string, prefix = `npx --package ${siteConfig.docsUrl}/`): string[] {
  const tree = fromHtml(readFileSync(path.join(distDirectory, page, 'index.html'), 'utf8'));
  return selectAll('pre[data-language="sh"] > code', tree)
    .map((code) => renderedCodeText(code))
    .map((text) => text.replace(/\\\n\s*/g, ''))
    .filter((text) => text.startsWith(prefix));
}

/** A folder with nothing in it, and an environment with only Node's own tools: no home, no cache, no config. */
function emptyFolder(name: string, nodeDirectory = path.dirname(process.execPath)): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = path.join(workDirectory, name);
  const home = path.join(workDirectory, `${name}-home`);
  mkdirSync(cwd);
  mkdirSync(home);
  const npx = execFileSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim();
  const env = {
    PATH: [nodeDirectory, path.dirname(npx), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: home,
    npm_config_cache: path.join(home, '.npm'),
    npm_config_update_notifier: 'false',
  };
  return { cwd, env };
}

/** Runs a command line as a reader pastes it, in its own process group (npx passes no signal on). */
function shell(commandLine: string, folder: { cwd: string; env: NodeJS.ProcessEnv }, extra: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  return spawn('sh', ['-c', commandLine], { cwd: folder.cwd, env: { ...folder.env, ...extra }, detached: true });
}

function collect(child: ChildProcessWithoutNullStreams): { output: () => string; exit: Promise<number | null> } {
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { output: () => output, exit: new Promise((resolve) => child.on('exit', resolve)) };
}

const local = (command: string) => command.replaceAll(siteConfig.docsUrl, site.origin);

/** Runs the /sandbox/ guide's one download command from an empty folder with the Node in `nodeDirectory`; resolves with what it printed. */
async function runSandboxGuide(context: { diagnostic(message: string): void }, folderName: string, nodeDirectory?: string): Promise<string> {
  const [command, ...others] = toolsCommands('sandbox');
  assert.ok(command !== undefined && others.length === 0, 'one command that runs the download');
  assert.equal(command, `npx --package ${siteConfig.docsUrl}/${toolsDownloadDirectory}/${toolsTarballName(loadExecutableContract().model.documentVersion)} ${toolsCommand} sandbox`);
  // As written it listens on the port the guide names; another program on this machine may hold it.
  const asWritten = await portIsFree(8787);
  if (!asWritten) context.diagnostic('port 8787 is taken on this machine: the command runs with --port 0 added');
  const child = shell(`${local(command)}${asWritten ? '' : ' --port 0'}`, emptyFolder(folderName, nodeDirectory));
  const run = collect(child);
  try {
    const ready = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const endpoint = /^Sandbox of \S+ (\S+)$/m.exec(run.output())?.[1];
        if (endpoint !== undefined && run.output().includes('Ctrl+C')) resolve(endpoint);
      });
      void run.exit.then((code) => reject(new Error(`the command ended with ${code}:\n${run.output()}`)));
    });
    if (asWritten) assert.match(ready, /^http:\/\/127\.0\.0\.1:8787\//);
    const answer = await fetch(ready, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(answer.headers.get('content-type')?.startsWith('application/json'), true);
    return run.output();
  } finally {
    process.kill(-(child.pid ?? 0), 'SIGTERM');
    await run.exit;
  }
}

/** Runs the /conformance/ guide's download command from an empty folder, against a sandbox holding the subscriptions it names; expects exit 0. */
async function runConformanceGuide(folderName: string, nodeDirectory?: string): Promise<void> {
  const [command, ...others] = toolsCommands('conformance');
  assert.ok(command !== undefined && others.length === 0, 'one command that runs the download');
  const range = /--subscription (\d+)-(\d+)/.exec(command);
  assert.ok(range !== null, command);
  const contract = loadExecutableContract();
  // The subscriptions one run needs, in the statuses the guide's table gives, under the IDs the command names.
  const first = Number(range[1]);
  const seed = conformanceSeed(contract).map((subscription) => ({ ...subscription, id: subscription.id - 1 + first }));
  assert.equal(seed.at(-1)?.id, Number(range[2]), 'the range covers what one run needs, no more');
  const shop: Sandbox = await startSandbox({ port: 0, seed, contract });
  try {
    const folder = emptyFolder(folderName, nodeDirectory);
    const run = collect(shell(local(command).replaceAll('https://shop.test', shop.url), folder, { SHOP_API_KEY: shop.apiKey }));
    const code = await run.exit;
    assert.equal(code, 0, run.output());
    assert.match(run.output(), /✔ The deployment answers as the document says: \d+ passed, 0 failed, 0 not reached/);
  } finally {
    await shop.close();
  }
}

describe('the contract tools, published with the site', () => {
  test('the download is in the built site, served as a gzip file, under the name the guides give', async () => {
    const name = toolsTarballName(loadExecutableContract().model.documentVersion);
    assert.ok(readdirSync(path.join(distDirectory, toolsDownloadDirectory)).includes(name), 'the tarball is among the downloads');
    const response = await fetch(`${site.origin}/${toolsDownloadDirectory}/${name}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/gzip');
    assert.equal(response.headers.get('content-encoding'), null, 'sent as it is, not compressed again');
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 2)], [0x1f, 0x8b]);
  });

  test('the guides\' tarball commands name the file `npm run pack:tools` writes, with nothing to replace', () => {
    const name = toolsTarballName(loadExecutableContract().model.documentVersion);
    for (const page of ['sandbox', 'conformance']) {
      const commands = toolsCommands(page, 'npx --package ./');
      assert.ok(commands.length > 0, `${page}: a command that runs the tarball`);
      for (const command of commands) assert.ok(command.startsWith(`npx --package ./${name} ${toolsCommand} `), `${page}: ${command}`);
    }
  });

  test('the sandbox guide\'s command starts the sandbox from an empty folder', { timeout: 120_000 }, async (context) => {
    await runSandboxGuide(context, 'sandbox');
  });

  test('the conformance guide\'s command, against a site holding the subscriptions it names, exits 0', { timeout: 180_000 }, async () => {
    await runConformanceGuide('conformance');
  });

  for (const version of toolsNodeVersions()) {
    const binary = nodeBinary(version);
    test(`on Node ${version}, the sandbox guide's and the conformance guide's commands work as written`, { timeout: 300_000, skip: 'unavailable' in binary ? binary.unavailable : false }, async (context) => {
      if (!('path' in binary)) return;
      const nodeDirectory = path.dirname(binary.path);
      assert.equal(execFileSync(path.join(nodeDirectory, 'node'), ['--version'], { encoding: 'utf8' }).trim(), `v${version}`);
      const sandboxOutput = await runSandboxGuide(context, `sandbox-node-${version}`, nodeDirectory);
      assert.doesNotMatch(sandboxOutput, /ExperimentalWarning|Warning:/, 'nothing but the sandbox\'s own lines');
      await runConformanceGuide(`conformance-node-${version}`, nodeDirectory);
    });
  }

});
