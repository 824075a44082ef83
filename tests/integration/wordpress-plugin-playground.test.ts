/**
 * The Playground blueprint the site publishes, run by WordPress Playground's command line
 * (`@wp-playground/cli`, fetched by npx from the npm registry, at the version the page gives): it
 * installs the plugin zip from a URL and activates it, and the endpoint then carries out an action
 * on a subscription of a fresh sandbox with the sandbox's key. Two things differ from a reader's
 * run, because this machine reaches no site but the npm registry: the zip is served from a local
 * server (the blueprint is the published one with that origin in place of the site's), and
 * Playground installs Debian's WordPress files instead of downloading WordPress. Skipped, with the
 * reason, without Debian's WordPress.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { exampleAction } from '../../src/clients/php/page-code.ts';
import { toolsDownloadDirectory } from '../../src/contract-tools/tools-package.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { freePort } from '../../src/lib/local-servers.ts';
import { loadGatedContract } from '../../src/sandbox/contract-gate.ts';
import { defaultApiKey, defaultSeed } from '../../src/sandbox/seed.ts';
import { siteConfig } from '../../src/site-config.ts';
import { playgroundBlueprint, playgroundCliPackage, publishedBlueprint } from '../../src/wordpress/playground-blueprint.ts';
import { packPluginZip, pluginZipName } from '../../src/wordpress/plugin-zip.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const debianWordPress = '/usr/share/wordpress';
const skip = existsSync(path.join(debianWordPress, 'wp-load.php')) ? false : `Debian's WordPress is not installed (apt-get install -y wordpress), whose files Playground installs here`;

describe('the Playground blueprint installs and activates the plugin zip from its URL', { skip, timeout: 900_000 }, () => {
  let contract: ExecutableContract;
  let work: string;
  let zipServer: Server;
  let playground: ChildProcess | undefined;
  let playgroundOutput = '';
  let playgroundUrl: string;

  before(async () => {
    contract = await loadGatedContract(projectDirectory);
    work = mkdtempSync(path.join(tmpdir(), 'plugin-playground-'));
    const zip = packPluginZip(contract, projectDirectory, path.join(work, 'served'));
    zipServer = createServer((request, response) => {
      if (request.url !== `/${toolsDownloadDirectory}/${pluginZipName(contract)}`) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/zip' }).end(readFileSync(zip));
    });
    await new Promise<void>((resolve) => zipServer.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(zipServer.address() as AddressInfo).port}`;
    const blueprint = publishedBlueprint(contract, origin, toolsDownloadDirectory);
    assert.equal(blueprint, publishedBlueprint(contract, siteConfig.docsUrl, toolsDownloadDirectory).replaceAll(siteConfig.docsUrl, origin), 'only the origin differs from the published blueprint');
    assert.deepEqual(JSON.parse(blueprint), playgroundBlueprint(`${origin}/${toolsDownloadDirectory}/${pluginZipName(contract)}`));
    const blueprintFile = path.join(work, 'blueprint.json');
    writeFileSync(blueprintFile, blueprint);

    // Debian's wp-config.php reads /etc/wordpress; Playground writes a config of its own.
    const wordpress = path.join(work, 'wordpress');
    cpSync(debianWordPress, wordpress, { recursive: true, dereference: true });
    rmSync(path.join(wordpress, 'wp-config.php'), { force: true });
    rmSync(path.join(wordpress, '.htaccess'), { force: true });

    const port = await freePort();
    playgroundUrl = `http://127.0.0.1:${port}`;
    playground = spawn(
      'npx',
      ['--yes', playgroundCliPackage, 'server', '--port', String(port), '--mount-before-install', `${wordpress}:/wordpress`, '--wordpress-install-mode', 'install-from-existing-files', '--blueprint', blueprintFile],
      { cwd: work, detached: true, env: { ...process.env, npm_config_update_notifier: 'false' } },
    );
    playground.stdout?.on('data', (chunk: Buffer) => (playgroundOutput += chunk.toString()));
    playground.stderr?.on('data', (chunk: Buffer) => (playgroundOutput += chunk.toString()));
    const exited = new Promise<void>((resolve) => playground?.on('exit', () => resolve()));
    const ready = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (/Ready!/.test(playgroundOutput)) {
          clearInterval(check);
          resolve();
        }
      }, 200);
      void exited.then(() => clearInterval(check));
    });
    await Promise.race([ready, exited]);
    assert.match(playgroundOutput, /Ready!/, `Playground did not start:\n${playgroundOutput}`);
    // Playground's server answers its first request with a redirect to the same address, as a
    // reader's browser meets it when it opens the site the command prints; then WordPress answers.
    const opened = await fetch(`${playgroundUrl}/`);
    assert.equal(opened.status, 200, `the site's front page: ${opened.status}`);
  });

  after(async () => {
    // npx runs Playground in a process of its own: the whole group this test started goes.
    if (playground?.pid !== undefined && playground.exitCode === null) {
      const exited = new Promise((resolve) => playground?.on('exit', resolve));
      process.kill(-playground.pid, 'SIGTERM');
      await exited;
    }
    await new Promise((resolve) => zipServer?.close(resolve));
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test('the endpoint carries out an action on a fresh sandbox\'s subscription with the sandbox\'s key', async () => {
    const action = exampleAction(contract);
    assert.ok(action.transition.kind === 'fixed');
    const from = action.transition.from[0];
    const subscription = defaultSeed(contract.model.lifecycle).find((candidate) => candidate.status === from);
    assert.ok(subscription !== undefined);
    const { credential, subject } = contract.model.envelope;
    const answer = await fetch(`${playgroundUrl}${contract.model.endpoint.urlPath}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...action.requestExample.value, [credential]: defaultApiKey, [subject]: subscription.id }),
    });
    const text = await answer.text();
    assert.equal(answer.status, Number(contract.response(200)?.status ?? 200), `${answer.status} ${JSON.stringify([...answer.headers])} ${text}\n${playgroundOutput}`);
    const body = JSON.parse(text) as Record<string, unknown>;
    assert.equal(body[contract.result.previousStatus], from);
    assert.equal(body[contract.result.status], action.transition.to);
    assert.equal(body[contract.result.changed], true);
  });
});
