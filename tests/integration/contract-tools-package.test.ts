import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packContractTools, type PackedTools } from '../../src/contract-tools/pack.ts';
import { conformanceOptionHelp } from '../../src/contract-tools/conformance-command.ts';
import { tooOldNodeExitCode, toolsPackageManifest } from '../../src/contract-tools/package-files.ts';
import { sandboxHeaderHelp, sandboxOptionHelp } from '../../src/contract-tools/sandbox-command.ts';
import { exitCodeList } from '../../src/conformance/exit-codes.ts';
import { toolsBinFile, toolsCommand, toolsContractFile, toolsNodeEngineRange, toolsPackageName } from '../../src/contract-tools/tools-package.ts';
import { loadBundledDocument } from '../../src/lib/contract/document.ts';
import { oldestSupportedNode } from '../../src/lib/node-engine.ts';
import { readWalkthrough } from '../../src/sandbox/walkthrough.ts';
import { projectDirectory } from '../support/contract-copy.ts';

/**
 * The published package, as a user gets it: packed by `npm run pack:tools`, installed from the
 * tarball into an empty folder with no repository around it, and run through `npx`.
 */

const workDirectory = mkdtempSync(path.join(tmpdir(), 'contract-tools-test-'));
const installDirectory = path.join(workDirectory, 'user');
// The command's `#!/usr/bin/env node` finds the project's Node, as the supported Node would be found on a user's PATH.
const environment = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
let packed: PackedTools;

/** Runs the installed command through `npx`, in a process group of its own: npx does not pass a signal on to the command. */
function npx(args: string[]): ChildProcessWithoutNullStreams {
  return spawn('npx', ['--no', toolsCommand, ...args], { cwd: installDirectory, env: environment, detached: true });
}

async function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

/** Starts the installed sandbox and resolves with its endpoint once it prints its ready line. */
function startInstalledSandbox(): Promise<{ child: ChildProcessWithoutNullStreams; endpointUrl: string; output: () => string }> {
  const child = npx(['sandbox', '--port', '0']);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^Sandbox of \S+ (\S+)$/m.exec(output);
      if (ready?.[1] !== undefined && output.includes('Ctrl+C')) resolve({ child, endpointUrl: ready[1], output: () => output });
    });
    child.on('exit', (code) => reject(new Error(`the sandbox stopped with ${code}:\n${output}`)));
  });
}

before(async () => {
  packed = await packContractTools({
    projectDirectory,
    outputDirectory: path.join(workDirectory, 'tarball'),
    packageDirectory: path.join(workDirectory, 'package'),
  });
  mkdirSync(installDirectory);
  const npm = (args: string[]) => execFileSync('npm', args, { cwd: installDirectory, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  npm(['init', '-y']);
  npm(['install', '--offline', '--no-audit', '--no-fund', packed.tarball]);
});

after(() => rmSync(workDirectory, { recursive: true, force: true }));

describe('the published contract tools', () => {
  test('install from the tarball alone: no dependencies, the project Node range, the gated contract inside', () => {
    const installed = path.join(installDirectory, 'node_modules', toolsPackageName);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.dependencies, undefined);
    assert.deepEqual(manifest.engines, { node: toolsNodeEngineRange });
    const carried = loadBundledDocument(path.join(installed, toolsContractFile));
    assert.equal(manifest.version, carried.info.version);
    assert.deepEqual(carried, loadBundledDocument(path.join(packed.packageDirectory, toolsContractFile)));
    assert.ok(readFileSync(path.join(installed, 'README.md'), 'utf8').includes(`Node ${oldestSupportedNode(toolsNodeEngineRange)} or newer`));
    assert.ok(statSync(packed.tarball).size < 1024 * 1024, `the tarball is ${statSync(packed.tarball).size} bytes`);
  });

  test('the README, --help and --version say every exit code, option and header the commands have', async () => {
    const readme = readFileSync(path.join(installDirectory, 'node_modules', toolsPackageName, 'README.md'), 'utf8');
    for (const { code, meaning } of exitCodeList()) assert.ok(readme.includes(`- ${code}: ${meaning}.`), `exit code ${code} in the README`);
    for (const { option } of [...sandboxOptionHelp, ...conformanceOptionHelp]) assert.ok(readme.includes(`\`${option}\``), `${option} in the README`);
    for (const { header } of sandboxHeaderHelp) assert.ok(readme.includes(`\`${header}\``), `${header} in the README`);
    const sandboxHelp = await exitOf(npx(['sandbox', '--help']));
    assert.equal(sandboxHelp.code, 0, sandboxHelp.output);
    for (const { option } of sandboxOptionHelp) assert.match(sandboxHelp.output, new RegExp(`^ {2}${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'm'));
    // npx keeps --version for itself: the installed bin is run as npx would run it.
    const version = await exitOf(spawn(process.execPath, [path.join(installDirectory, 'node_modules', toolsPackageName, toolsBinFile), '--version'], { cwd: installDirectory, env: environment }));
    assert.equal(version.code, 0, version.output);
    assert.equal(version.output.trim(), `${toolsPackageName} ${loadBundledDocument(path.join(packed.packageDirectory, toolsContractFile)).info.version}`);
  });

  test('`sandbox` serves the endpoint, and `conformance --base-url` finds it conforming', async () => {
    const sandbox = await startInstalledSandbox();
    try {
      const { success } = readWalkthrough(loadBundledDocument(path.join(packed.packageDirectory, toolsContractFile)));
      const answer = await fetch(sandbox.endpointUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(success.request),
      });
      assert.equal(answer.status, success.status, await answer.text());
      assert.equal(answer.status, 200);

      const apiKey = /^ {2}\S+: (\S+) \(the default/m.exec(sandbox.output())?.[1];
      const ids = [...sandbox.output().matchAll(/^ {4}\S+ (\d+): /gm)].flatMap((match) => ['--subscription', match[1] ?? '']);
      assert.ok(apiKey !== undefined && ids.length > 0, sandbox.output());
      const baseUrl = sandbox.endpointUrl.slice(0, sandbox.endpointUrl.indexOf('/wp-json/'));
      // The sandbox's default seed has one subscription in every status, fewer than every case needs.
      const run = await exitOf(npx(['conformance', '--base-url', baseUrl, '--api-key', apiKey, ...ids, '--allow-unreached', '--junit', path.join(workDirectory, 'site.xml')]));
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /answer as the document says.* 0 failed/);
    } finally {
      const stopped = new Promise((resolve) => sandbox.child.once('exit', resolve));
      process.kill(-(sandbox.child.pid ?? 0), 'SIGTERM');
      await stopped;
    }
  });

  test('`conformance` with no --base-url checks a sandbox of its own and exits 0', async () => {
    const run = await exitOf(npx(['conformance', '--junit', path.join(workDirectory, 'own.xml')]));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /No --base-url: started a sandbox/);
    assert.match(readFileSync(path.join(workDirectory, 'own.xml'), 'utf8'), /<testsuites/);
  });

  // Debian's own Node (/usr/bin/node) is older than the package supports on these machines.
  const olderNode = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      return compareVersions(version, oldestSupportedNode(toolsNodeEngineRange)) < 0;
    } catch {
      return false;
    }
  });
  test('on an older Node, the command names the Node it needs instead of crashing', { skip: olderNode === undefined ? 'no Node older than the supported one on this machine' : false }, async () => {
    for (const command of [['sandbox'], ['conformance'], ['--help']]) {
      const bin = path.join(installDirectory, 'node_modules', toolsPackageName, toolsBinFile);
      const run = await exitOf(spawn(olderNode ?? '', [bin, ...command], { cwd: installDirectory, env: environment }));
      assert.equal(run.code, tooOldNodeExitCode, run.output);
      assert.match(run.output, new RegExp(`^${toolsCommand} needs Node ${oldestSupportedNode(toolsNodeEngineRange).replaceAll('.', '\\.')} or newer \\(engines\\.node ${toolsNodeEngineRange}\\); this is Node \\d+`, 'm'));
      assert.doesNotMatch(run.output, /ERR_UNKNOWN_BUILTIN_MODULE|node:sqlite|\n\s+at /, 'no crash, no stack');
    }
  });

  test('wrong options exit 2, as `npm run sandbox` and `npm run conformance` do', async () => {
    assert.equal((await exitOf(npx(['sandbox', '--port', 'x']))).code, 2);
    assert.equal((await exitOf(npx(['conformance', '--subscription', '1']))).code, 2);
    assert.equal((await exitOf(npx(['serve']))).code, 2);
  });
});

describe('the manifest a release publishes', () => {
  test('names the source repository only when told, as npm\'s provenance requires it to match', () => {
    assert.equal(toolsPackageManifest('1.0.0').repository, undefined);
    assert.deepEqual(toolsPackageManifest('1.0.0', 'git+https://github.com/owner/name.git').repository, { type: 'git', url: 'git+https://github.com/owner/name.git' });
  });
});

describe('the Node version the guides state', () => {
  test('is the lower bound of engines.node, as a reader writes it', () => {
    assert.equal(oldestSupportedNode('>=24.18.0'), '24.18');
    assert.equal(oldestSupportedNode('>= 22.12.1'), '22.12.1');
    assert.throws(() => oldestSupportedNode('^24.18.0'), /expected a lower bound/);
  });

  test('is never typed in a guide', () => {
    const docs = path.join(projectDirectory, 'src/content/docs');
    for (const file of readdirSync(docs, { recursive: true, encoding: 'utf8' }).filter((name) => /\.mdx?$/.test(name))) {
      const typed = /Node(?:\.js)? \d+(?:\.\d+)*/.exec(readFileSync(path.join(docs, file), 'utf8'));
      assert.equal(typed, null, `${file} types "${typed?.[0]}"; write <ToolsFact name="nodeVersion" /> (engines.node of package.json)`);
    }
  });
});

/** Compares two Node versions as numbers, part by part. */
function compareVersions(left: string, right: string): number {
  const [a, b] = [left, right].map((version) => version.split('.').map(Number));
  for (let index = 0; index < 3; index += 1) {
    const difference = (a?.[index] ?? 0) - (b?.[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
