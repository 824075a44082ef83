/**
 * The site's Composer repository, used as the /clients/php/ page says: the built site served
 * locally as its host serves it, a project made by the page's `composer init`, its command for a
 * site over http and its two install commands (the docs origin mapped to the local one, nothing
 * else changed), run with Debian's Composer. `^1.1` installs the documented version; the
 * repository lists every release, each zip with its SHA-1; the package passes `composer validate
 * --strict` and carries the contract's licence. Then the site publishes a newer release (a copy of
 * the contract with the current version released and the next minor one documented, its
 * downloads and repository written by the build's own step into the served site) and
 * `composer update` picks it up. Skipped, with the reason, without PHP or Composer.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fromHtml } from 'hast-util-from-html';
import { toText } from 'hast-util-to-text';
import { composerConstraint, composerRepositoryCommands, composerRepositoryPath, localHttpCommand, publishComposerRepository } from '../../src/clients/composer-repository.ts';
import { unpackZip } from '../../src/clients/php/composer-project.ts';
import { packPhpClient, phpZipName } from '../../src/clients/php/package.ts';
import { contractLicense } from '../../src/clients/shared/license.ts';
import { toolsDownloadDirectory } from '../../src/contract-tools/tools-package.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { serveLikeAStaticHost, type StaticHost } from '../../src/host/static-host.ts';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument } from '../../src/lib/contract/document.ts';
import { loadExecutableContract, readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { formatVersion, nextMinorVersion, parseVersion, readReleases } from '../../src/lib/releases/releases.ts';
import { composerPackageName } from '../../src/lib/samples/client-libraries.ts';
import { siteConfig } from '../../src/site-config.ts';
import { cutRelease } from '../../scripts/release.ts';
import { setVersion } from '../support/compatibility-fixture.ts';
import { copyContract, projectDirectory } from '../support/contract-copy.ts';
import { phpToolsMissing } from '../support/php-client-plan.ts';

const missing = phpToolsMissing();

interface PackagesJson {
  packages: Record<string, Record<string, { version: string; license?: string; dist: { type: string; url: string; shasum: string } }>>;
}

/** Runs Composer without blocking this process, which serves the site Composer reads. */
function composer(args: string[], cwd: string, home: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('composer', args, {
      cwd,
      timeout: 120_000,
      // The audit asks Packagist, which a machine without the internet cannot reach; it is no part of installing.
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, COMPOSER_HOME: path.join(home, '.composer'), COMPOSER_NO_INTERACTION: '1', COMPOSER_NO_AUDIT: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`composer ${args.join(' ')} exited ${String(code)}:\n${output}`))));
  });
}

function installedVersion(project: string): string | undefined {
  const installed = JSON.parse(readFileSync(path.join(project, 'vendor/composer/installed.json'), 'utf8')) as { packages: { name: string; version: string }[] };
  return installed.packages.find((entry) => entry.name === composerPackageName)?.version;
}

describe('the site\'s Composer repository, used as the PHP page says', { skip: missing ?? false, timeout: 600_000 }, () => {
  const contract = loadExecutableContract();
  const version = contract.model.documentVersion;
  let work: string;
  let siteDirectory: string;
  let site: StaticHost;
  let home: string;
  let project: string;

  before(async () => {
    ensureBuiltSite(projectDirectory);
    work = mkdtempSync(path.join(tmpdir(), 'composer-repository-'));
    // A copy of the built site, so that publishing a newer release into it leaves dist/ as built.
    siteDirectory = path.join(work, 'site');
    cpSync(path.join(projectDirectory, 'dist'), siteDirectory, { recursive: true });
    site = await serveLikeAStaticHost(siteDirectory);
    home = path.join(work, 'home');
    project = path.join(work, 'project');
    mkdirSync(home);
    mkdirSync(project);
  });

  after(async () => {
    await site?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test('lists every release and the documented version, each zip with its SHA-1 as served', async () => {
    const answer = await fetch(`${site.origin}/${composerRepositoryPath}/packages.json`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    const listed = ((await answer.json()) as PackagesJson).packages[composerPackageName] ?? {};
    const expected = [...new Set([...readReleases(projectDirectory).map((release) => release.version), version])].sort();
    assert.deepEqual(Object.keys(listed).sort(), expected);
    for (const [listedVersion, entry] of Object.entries(listed)) {
      assert.equal(entry.version, listedVersion);
      assert.equal(entry.dist.type, 'zip');
      assert.equal(entry.dist.url, `${siteConfig.docsUrl}/${toolsDownloadDirectory}/${phpZipName(listedVersion)}`);
      const zip = await fetch(`${site.origin}/${toolsDownloadDirectory}/${phpZipName(listedVersion)}`);
      assert.equal(zip.status, 200, `the zip of ${listedVersion} is served`);
      assert.equal(createHash('sha1').update(new Uint8Array(await zip.arrayBuffer())).digest('hex'), entry.dist.shasum, `the SHA-1 of ${listedVersion}`);
    }
  });

  test('the package passes composer validate --strict and carries the contract\'s licence', async () => {
    const unpacked = unpackZip(path.join(siteDirectory, toolsDownloadDirectory, phpZipName(version)), path.join(work, 'unpacked'));
    await composer(['validate', '--strict'], unpacked, home);
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'composer.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.version, undefined, 'the repository gives the version, not composer.json');
    const license = contractLicense(contract);
    assert.equal(manifest.license, license.identifier);
    assert.ok(existsSync(path.join(unpacked, 'LICENSE')));
    assert.ok(readFileSync(path.join(unpacked, 'LICENSE'), 'utf8').includes(license.identifier));
  });

  test(`the page's commands require ${composerConstraint(version)} from the repository, and composer update picks up a newer release`, async () => {
    const page = toText(fromHtml(readFileSync(path.join(siteDirectory, 'clients/php/index.html'), 'utf8')), { whitespace: 'pre' });
    const commands = composerRepositoryCommands(siteConfig.docsUrl, version).split('\n');
    for (const line of [...commands, localHttpCommand]) assert.ok(page.includes(line), `the page shows ${line}`);
    const init = /run (composer init [^\n]+?)\n?first\)/.exec(page)?.[1];
    assert.ok(init !== undefined, 'the page names the composer init of an empty folder');

    await composer(init.split(' ').slice(1), project, home);
    await composer(localHttpCommand.split(' ').slice(1), project, home);
    for (const line of commands) await composer(line.replaceAll(siteConfig.docsUrl, site.origin).split(' ').slice(1), project, home);
    assert.equal(installedVersion(project), version);
    assert.ok(existsSync(path.join(project, 'vendor', ...composerPackageName.split('/'), 'src/Client.php')));

    // The site publishes the next minor release: the current version released, the next one documented.
    const parsed = parseVersion(version);
    assert.ok(parsed !== undefined);
    const newer = formatVersion(nextMinorVersion(parsed));
    const copy = copyContract();
    try {
      if (!readReleases(copy.directory).some((release) => release.version === version)) await cutRelease({ projectDirectory: copy.directory, date: '2026-12-01' });
      setVersion(copy, newer);
      const bundle = bundleContract(copy.directory, contractRoot, '.generated/openapi');
      const grown = readExecutableContract(asOpenApiDocument(bundle.document, bundle.jsonPath));
      const downloads = path.join(siteDirectory, toolsDownloadDirectory);
      const currentZip = await packPhpClient(grown, downloads);
      await publishComposerRepository({ projectDirectory: copy.directory, contract: grown, currentZip, siteDirectory, downloadsPath: toolsDownloadDirectory, siteUrl: siteConfig.docsUrl });
    } finally {
      copy.remove();
    }
    await composer(['update', composerPackageName], project, home);
    assert.equal(installedVersion(project), newer, `composer update moved from ${version} to ${newer}`);
  });
});
