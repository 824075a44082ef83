/**
 * The /clients/php/ page's blocks, as the built page shows them, run from an empty folder with
 * nothing but PHP and Composer: after the `composer init` the page names for an empty folder and
 * its command for a site served over http, the install commands add the site's Composer repository
 * and require the library from it (the built site served locally as the host serves it, the docs
 * origin in the commands mapped to it: the only change made to what the page shows), then the example script, saved under the name its title
 * gives, pauses a subscription of a local sandbox that throttles the first two requests, after
 * waiting them out. Skipped, with the reason, without PHP or Composer.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import type { Element } from 'hast';
import { exampleAction, phpExampleFile } from '../../src/clients/php/page-code.ts';
import { exceptionClassName } from '../../src/clients/php/exception-classes.ts';
import { phpNamespace } from '../../src/clients/php/php-source.ts';
import { exampleEnvironment } from '../../src/clients/shared/page-code.ts';
import { phpZipName } from '../../src/clients/php/package.ts';
import { composerRepositoryUrl, localHttpCommand } from '../../src/clients/composer-repository.ts';
import { toolsDownloadDirectory } from '../../src/contract-tools/tools-package.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { serveLikeAStaticHost, type StaticHost } from '../../src/host/static-host.ts';
import { loadExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { siteConfig } from '../../src/site-config.ts';
import { renderedCodeText } from '../../src/lib/site/rendered-code.ts';
import { exportedVariables } from '../support/client-cases.ts';
import { projectDirectory } from '../support/contract-copy.ts';
import { phpToolsMissing } from '../support/php-client-plan.ts';

const missing = phpToolsMissing();
const distDirectory = path.join(projectDirectory, 'dist');
const pagePath = 'clients/php';

/** Each code block of the built page, with its language and its title, lines as shown. */
function codeBlocks(): { language: string; title: string; code: string }[] {
  const tree = fromHtml(readFileSync(path.join(distDirectory, pagePath, 'index.html'), 'utf8'));
  return selectAll('figure', tree).flatMap((figure: Element) => {
    const pre = select('pre[data-language]', figure);
    if (pre === undefined) return [];
    const title = select('figcaption .title', figure);
    const code = renderedCodeText(pre);
    return [{ language: String(pre.properties.dataLanguage ?? ''), title: title === undefined ? '' : toText(title), code }];
  });
}

function run(commandLine: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', commandLine], { cwd, env, timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the PHP library page, run as written', { skip: missing ?? false, timeout: 300_000 }, () => {
  let site: StaticHost;
  let sandbox: Sandbox;
  let work: string;

  before(async () => {
    ensureBuiltSite(projectDirectory);
    site = await serveLikeAStaticHost(distDirectory);
    work = mkdtempSync(path.join(tmpdir(), 'php-client-page-'));
  });

  after(async () => {
    await site?.close();
    await sandbox?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test('every PHP block of the page is PHP that parses (php -l), snippets as the body of a file', async () => {
    // The method reference's signatures are a class's members, not a file's body.
    const blocks = codeBlocks().filter((block) => block.language === 'php' && !block.code.includes('public function'));
    assert.ok(blocks.length >= 8, `the page has its PHP blocks: ${blocks.length}`);
    for (const [index, block] of blocks.entries()) {
      const file = path.join(work, `block-${index}.php`);
      writeFileSync(file, block.code.startsWith('<?php') ? block.code : `<?php\n${block.code}\n`);
      const lint = await run(`php -l ${file}`, work, process.env);
      assert.equal(lint.code, 0, `${block.code}\n${lint.output}`);
    }
  });

  test('the page links the download, which the built site holds and serves as a zip', async () => {
    const contract = loadExecutableContract();
    const name = phpZipName(contract.model.documentVersion);
    assert.ok(readdirSync(path.join(distDirectory, toolsDownloadDirectory)).includes(name));
    const html = readFileSync(path.join(distDirectory, pagePath, 'index.html'), 'utf8');
    assert.match(html, new RegExp(`<a href="/${toolsDownloadDirectory}/${name.replaceAll('.', '\\.')}"[^>]*>`));
    const response = await fetch(`${site.origin}/${toolsDownloadDirectory}/${name}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.deepEqual([...new Uint8Array(await response.arrayBuffer()).slice(0, 4)], [0x50, 0x4b, 0x03, 0x04]);
  });

  test('from an empty folder, the install block and the example pause a subscription after two throttled answers', async () => {
    const contract = loadExecutableContract();
    const blocks = codeBlocks();
    const install = blocks.find((block) => block.language === 'sh' && block.code.includes(composerRepositoryUrl(siteConfig.docsUrl)));
    const localHttp = blocks.find((block) => block.language === 'sh' && block.code === localHttpCommand);
    assert.ok(localHttp !== undefined, 'the page says how to allow a site served over http');
    const example = blocks.find((block) => block.language === 'php' && block.title === phpExampleFile);
    assert.ok(install !== undefined, 'the page has the install block');
    assert.ok(example !== undefined, `the page has the example titled ${phpExampleFile}`);

    const action = exampleAction(contract);
    assert.ok(action.transition.kind === 'fixed');
    const from = action.transition.from[0] ?? '';
    sandbox = await startSandbox({ port: 0, seed: [{ id: 42, status: from }], contract });
    sandbox.throttleNext(2, '1');

    const folder = path.join(work, 'empty');
    const home = path.join(work, 'home');
    mkdirSync(folder);
    mkdirSync(home);
    const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, COMPOSER_HOME: path.join(home, '.composer') };
    const init = /run `(composer init [^`]+)`/.exec(readFileSync(path.join(projectDirectory, 'src/content/docs/clients/php.mdx'), 'utf8'))?.[1];
    assert.ok(init !== undefined, 'the page names the composer init of an empty folder');
    const installed = await run([init, localHttp.code, ...install.code.replaceAll(siteConfig.docsUrl, site.origin).split('\n')].join(' && '), folder, { ...env, COMPOSER_NO_AUDIT: '1' });
    assert.equal(installed.code, 0, installed.output);

    writeFileSync(path.join(folder, phpExampleFile), `${example.code}\n`);
    const { siteUrl, apiKey: key, subscriptionId: subscription } = exampleEnvironment;
    const started = Date.now();
    const paused = await run(`php ${phpExampleFile}`, folder, { ...env, [siteUrl]: sandbox.url, [key]: sandbox.apiKey, [subscription]: '42' });
    assert.equal(paused.code, 0, paused.output);
    assert.ok(Date.now() - started >= 2000, 'the two throttled answers were waited out');
    assert.equal(sandbox.subscriptions().find((subscription) => subscription.id === 42)?.status, action.transition.to);
    assert.match(paused.output, new RegExp(`${action.identifier}: ${from} -> ${action.transition.to} \\(changed: yes\\)`));

    // A refused key, and a site URL without its scheme (the quickstart's {site}), end it with the class and the message, no fatal error or trace.
    const refused = await run(`php ${phpExampleFile}`, folder, { ...env, [siteUrl]: sandbox.url, [key]: 'not-the-sandbox-key', [subscription]: '42' });
    assert.equal(refused.code, 1, refused.output);
    const unauthorized = `${phpNamespace}\\Exception\\${exceptionClassName(String(contract.errors.invalidKey.status))}: `;
    assert.ok(refused.output.startsWith(unauthorized) && refused.output.includes(contract.errors.invalidKey.code), refused.output);
    const schemeless = await run(`php ${phpExampleFile}`, folder, { ...env, [siteUrl]: new URL(sandbox.url).host, [key]: sandbox.apiKey, [subscription]: '42' });
    assert.equal(schemeless.code, 1, schemeless.output);
    for (const ended of [refused, schemeless]) assert.doesNotMatch(ended.output, /Fatal error|Stack trace/, 'no fatal error or trace');
    // An ID that is not a number is named before anything is sent, rather than sent as 0.
    const notANumber = await run(`php ${phpExampleFile}`, folder, { ...env, [siteUrl]: sandbox.url, [key]: sandbox.apiKey, [subscription]: 'forty-two' });
    assert.equal(notANumber.code, 2, notANumber.output);
    assert.ok(notANumber.output.startsWith(`${subscription} is`), notANumber.output);

    // The sandbox section's environment and run command, against a new sandbox with its own subscriptions and key (its address mapped to the one the system picked).
    const sandboxEnvironment = blocks.find((block) => block.language === 'sh' && block.code.startsWith(`export ${siteUrl}=http://`));
    const sandboxRun = blocks.find((block) => block.language === 'sh' && block.code === `php ${phpExampleFile}`);
    assert.ok(sandboxEnvironment !== undefined && sandboxRun !== undefined, 'the sandbox section sets the environment for a new sandbox and runs the example');
    const variables = exportedVariables(sandboxEnvironment.code);
    const newSandbox = await startSandbox({ port: 0, contract });
    try {
      assert.equal(variables[key], newSandbox.apiKey);
      const ran = await run(sandboxRun.code, folder, { ...env, ...variables, [siteUrl]: newSandbox.url });
      assert.equal(ran.code, 0, ran.output);
      assert.equal(newSandbox.subscriptions().find((held) => held.id === Number(variables[subscription]))?.status, action.transition.to);
    } finally {
      await newSandbox.close();
    }
  });
});
