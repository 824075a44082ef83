/**
 * The /clients/typescript/ page run as written, from the built page: its install command in an
 * empty folder with only Node and npm (a fresh home and npm cache), its example script saved under
 * the name the page gives, and its run command, against a local sandbox that throttles the first
 * two requests, then with a refused key and with a base URL lacking its scheme; its type-check
 * commands on the script saved as TypeScript; and its sandbox section's environment against a new
 * sandbox. The only change made to what the page shows is the
 * docs origin, mapped to a local server that serves the packed tarball at the path the page names
 * (the site build publishes it there once the download is wired into it).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import type { Element } from 'hast';
import { fixedErrorClassName, fixedErrorKinds, type FixedErrorKindId } from '../../src/clients/shared/error-kinds.ts';
import { packTypescriptClient } from '../../src/clients/typescript/package.ts';
import { exampleEnvironment } from '../../src/clients/shared/page-code.ts';
import { errorClassName } from '../../src/clients/typescript/generate.ts';
import { typescriptClientDownloadPath } from '../../src/clients/typescript/usage.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { loadExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { readFacts } from '../../src/lib/contract/facts.ts';
import { outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { siteConfig } from '../../src/site-config.ts';
import { renderedCodeText } from '../../src/lib/site/rendered-code.ts';
import { exportedVariables } from '../support/client-cases.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const pagePath = 'clients/typescript';
const workDirectory = mkdtempSync(path.join(tmpdir(), 'typescript-client-page-'));
let downloads: Server;
let origin: string;

before(async () => {
  ensureBuiltSite(projectDirectory);
  const contract = loadExecutableContract();
  const tarball = packTypescriptClient(contract, path.join(workDirectory, 'packed'), { packageDirectory: path.join(workDirectory, 'package') });
  const servedPath = typescriptClientDownloadPath(contract.model.documentVersion);
  downloads = createServer((request, response) => {
    if (request.url !== servedPath) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(tarball));
  });
  await new Promise<void>((resolve) => downloads.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(downloads.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((resolve) => downloads?.close(resolve));
  rmSync(workDirectory, { recursive: true, force: true });
});

interface Block {
  language: string;
  title: string | undefined;
  text: string;
}

/** The code blocks of the built page, in order, each with its language and its title when it has one. */
function pageBlocks(): Block[] {
  const tree = fromHtml(readFileSync(path.join(projectDirectory, 'dist', pagePath, 'index.html'), 'utf8'));
  return selectAll('figure.frame', tree).flatMap((figure): Block[] => {
    const pre = selectAll('pre', figure)[0] as Element | undefined;
    if (pre === undefined) return [];
    const code = selectAll('code', pre)[0];
    if (code === undefined) return [];
    const lines = renderedCodeText(code).split('\n');
    const title = selectAll('figcaption .title', figure)[0];
    return [{ language: String(pre.properties.dataLanguage ?? ''), title: title === undefined ? undefined : toText(title), text: lines.join('\n') }];
  });
}

function run(commandLine: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', commandLine], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

test('the page\'s install, example and run blocks, as written, pause the subscription after two throttled answers, end on a refusal with one line, and pass the page\'s strict type check saved as TypeScript', { timeout: 240_000 }, async () => {
  const blocks = pageBlocks();
  const install = blocks.find((block) => block.language === 'sh' && block.text.startsWith('npm install '));
  assert.ok(install !== undefined, 'an install command');
  assert.ok(install.text.startsWith(`npm install ${siteConfig.docsUrl}/`), 'it installs from the site\'s download');
  const script = blocks.find((block) => block.language === 'js' && block.title !== undefined);
  assert.ok(script?.title !== undefined, 'an example script with its file name');
  const runBlock = blocks.find((block) => block.language === 'sh' && block.text === `node ${script.title}`);
  assert.ok(runBlock !== undefined, 'a command that runs the script');
  for (const variable of Object.values(exampleEnvironment)) assert.match(script.text, new RegExp(`process\\.env\\.${variable}\\b`));
  const pageText = toText(fromHtml(readFileSync(path.join(projectDirectory, 'dist', pagePath, 'index.html'), 'utf8')));
  for (const kind of Object.keys(fixedErrorKinds) as FixedErrorKindId[]) assert.ok(pageText.includes(fixedErrorClassName(kind, 'typescript')), `the page names ${fixedErrorClassName(kind, 'typescript')}`);

  // An empty folder, and an environment with only Node's own tools: no home, no cache, no config.
  const folder = path.join(workDirectory, 'reader');
  const home = path.join(workDirectory, 'reader-home');
  mkdirSync(folder);
  mkdirSync(home);
  const npm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  const env = {
    PATH: [path.dirname(process.execPath), path.dirname(npm), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: home,
    npm_config_cache: path.join(home, '.npm'),
    npm_config_update_notifier: 'false',
  };
  const installed = await run(install.text.replaceAll(siteConfig.docsUrl, origin), folder, env);
  assert.equal(installed.code, 0, installed.output);
  writeFileSync(path.join(folder, script.title), `${script.text}\n`);

  const contract = loadExecutableContract();
  const facts = readFacts(contract.document);
  const action = contract.action(facts.quickstartAction);
  assert.ok(action !== undefined && action.transition.kind === 'fixed');
  const from = facts.quickstartFromStates[0];
  assert.ok(from !== undefined);
  const id = 4242;
  const arrivals: string[] = [];
  const sandbox = await startSandbox({ port: 0, contract, seed: [{ id, status: from }], log: (line) => arrivals.push(line) });
  try {
    sandbox.throttleNext(2, '1');
    const ran = await run(runBlock.text, folder, { ...env, [exampleEnvironment.siteUrl]: sandbox.url, [exampleEnvironment.apiKey]: sandbox.apiKey, [exampleEnvironment.subscriptionId]: String(id) });
    assert.equal(ran.code, 0, ran.output);
    assert.equal(arrivals.length, 3, arrivals.join('\n'));
    assert.match(arrivals[2] as string, / -> 200\b/);
    const outcome = outcomeOf(action.transition, from);
    assert.equal(outcome.kind, 'changed');
    assert.equal(sandbox.subscriptions().find((subscription) => subscription.id === id)?.status, outcome.kind === 'changed' ? outcome.to : undefined);
    assert.match(ran.output, new RegExp(`${contract.result.status}: '${outcome.kind === 'changed' ? outcome.to : ''}'`), 'it prints the answer');

    // A key the site refuses ends the script with the error's name and message, not a stack trace.
    const refused = await run(runBlock.text, folder, { ...env, [exampleEnvironment.siteUrl]: sandbox.url, [exampleEnvironment.apiKey]: 'not-the-sandbox-key', [exampleEnvironment.subscriptionId]: String(id) });
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, new RegExp(`^${errorClassName(contract.errors.invalidKey.status)}: .*${contract.errors.invalidKey.code}`, 'm'));
    assert.doesNotMatch(refused.output, /^\s+at /m, 'no stack trace');
    // So does a base URL without its scheme, as the quickstart writes a site's address.
    const schemeless = await run(runBlock.text, folder, { ...env, [exampleEnvironment.siteUrl]: new URL(sandbox.url).host, [exampleEnvironment.apiKey]: sandbox.apiKey, [exampleEnvironment.subscriptionId]: String(id) });
    assert.equal(schemeless.code, 1, schemeless.output);
    assert.doesNotMatch(schemeless.output, /^\s+at /m, 'no stack trace');
  } finally {
    await sandbox.close();
  }

  // The example saved as TypeScript passes the page's strict check in the reader's folder, whose
  // package.json (written by npm install) names no module type. The compiler and Node's types are
  // the project's, in place of the two packages the page installs from the registry.
  const typecheck = blocks.find((block) => block.language === 'sh' && block.text.startsWith('npm install --save-dev '));
  assert.ok(typecheck !== undefined, 'a type-check block');
  const [installTypes, check, ...rest] = typecheck.text.split('\n');
  assert.ok(installTypes !== undefined && check !== undefined && rest.length === 0, typecheck.text);
  assert.deepEqual(installTypes.split(' ').slice(3).sort(), ['@types/node', 'typescript']);
  assert.ok(check.startsWith('npx tsc '), check);
  const typescriptFile = check.split(' ').at(-1) ?? '';
  assert.match(typescriptFile, /\.mts$/);
  assert.equal((JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { type?: string }).type, undefined, 'the reader\'s folder names no module type');
  writeFileSync(path.join(folder, typescriptFile), `${script.text}\n`);
  const tsc = `"${process.execPath}" "${path.join(projectDirectory, 'node_modules/typescript/bin/tsc')}"`;
  const checked = await run(`${check.replace(/^npx tsc /, `${tsc} `)} --typeRoots "${path.join(projectDirectory, 'node_modules/@types')}"`, folder, env);
  assert.equal(checked.code, 0, checked.output);

  // The sandbox section's environment, against a new sandbox with its own subscriptions and key
  // (its address mapped to the one the system picked), pauses the subscription it names.
  const sandboxEnvironment = blocks.find((block) => block.language === 'sh' && block.text.startsWith(`export ${exampleEnvironment.siteUrl}=http://`));
  assert.ok(sandboxEnvironment !== undefined, 'the sandbox section sets the environment for a new sandbox');
  const variables = exportedVariables(sandboxEnvironment.text);
  const newSandbox = await startSandbox({ port: 0, contract });
  try {
    assert.equal(variables[exampleEnvironment.apiKey], newSandbox.apiKey);
    const named = Number(variables[exampleEnvironment.subscriptionId]);
    const ran = await run(runBlock.text, folder, { ...env, ...variables, [exampleEnvironment.siteUrl]: newSandbox.url });
    assert.equal(ran.code, 0, ran.output);
    const outcome = outcomeOf(action.transition, from);
    assert.equal(newSandbox.subscriptions().find((subscription) => subscription.id === named)?.status, outcome.kind === 'changed' ? outcome.to : undefined);
  } finally {
    await newSandbox.close();
  }
});
