import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { specifiedActions } from '../../scripts/contract/checks.ts';
import { cutRelease } from '../../scripts/release.ts';
import { bundleContract, contractRoot } from '../../src/lib/bundle.ts';
import { buildChangelog, changelogSections, type Changelog } from '../../src/lib/changelog.ts';
import { asOpenApiDocument } from '../../src/lib/document.ts';
import { additiveEdits, setVersion } from './compatibility-fixture.ts';
import { copyContract, projectDirectory, type ContractCopy } from './contract-copy.ts';

const optionalField = additiveEdits.find((edit) => edit.name === 'a new optional request field');

/** The changelog of a project, with its contract bundled as the build bundles it. */
function changelogOf(directory: string): Changelog {
  const bundle = bundleContract(directory, contractRoot, '.generated/changelog-test');
  return buildChangelog({ projectDirectory: directory, current: asOpenApiDocument(bundle.document, bundle.jsonPath) });
}

function deprecateNoteOfPause(copy: ContractCopy): void {
  copy.replace('openapi/components/schemas/PauseSubscriptionRequest.yaml', '  note:\n    $ref: ./Note.yaml', '  note:\n    $ref: ./Note.yaml\n    deprecated: true');
}

describe('the changelog model', { concurrency: 2 }, () => {
  it('lists release 1.0.0 with its date and the actions it brought', () => {
    const changelog = changelogOf(projectDirectory);
    assert.equal(changelog.versions.length, 1);
    const [first] = changelog.versions;
    assert.equal(first?.version, '1.0.0');
    assert.equal(first?.date, '2026-11-20');
    assert.equal(first?.released, true);
    assert.equal(first?.first, true);
    const actions = first?.entries.map((entry) => entry.action) ?? [];
    assert.deepEqual(actions, [...specifiedActions]);
    assert.deepEqual(changelog.deprecated, []);
  });

  it('lists a new optional field under 1.1.0, not released yet, above 1.0.0', () => {
    assert.ok(optionalField);
    const copy = copyContract();
    try {
      optionalField.apply(copy);
      setVersion(copy, '1.1.0');
      const changelog = changelogOf(copy.directory);
      assert.deepEqual(changelog.versions.map((entry) => entry.version), ['1.1.0', '1.0.0']);
      const [unreleased] = changelog.versions;
      assert.equal(unreleased?.released, false);
      assert.equal(unreleased?.date, undefined);
      assert.deepEqual(unreleased?.entries, [
        { category: 'added', sentence: 'New optional field `resume_on` for `pause_subscription`.', action: 'pause_subscription' },
      ]);
      assert.deepEqual(changelogSections(changelog), [
        { slug: 'deprecated-now', text: 'Deprecated now' },
        { slug: 'version-1-1-0', text: '1.1.0 (unreleased)' },
        { slug: 'version-1-0-0', text: '1.0.0' },
      ]);
    } finally {
      copy.remove();
    }
  });

  it('shows nothing unreleased while info.version is still the latest release', () => {
    assert.ok(optionalField);
    const copy = copyContract();
    try {
      optionalField.apply(copy);
      assert.deepEqual(changelogOf(copy.directory).versions.map((entry) => entry.version), ['1.0.0']);
    } finally {
      copy.remove();
    }
  });

  it('lists a deprecation under the version that announced it, and as deprecated now', () => {
    const copy = copyContract();
    try {
      deprecateNoteOfPause(copy);
      setVersion(copy, '1.1.0');
      const changelog = changelogOf(copy.directory);
      assert.deepEqual(changelog.versions[0]?.entries, [
        { category: 'deprecated', sentence: 'Field `note` for `pause_subscription` is deprecated.', action: 'pause_subscription' },
      ]);
      assert.deepEqual(
        changelog.deprecated.map((item) => [item.sentence, item.since]),
        [['Field `note` for `pause_subscription` is deprecated.', '1.1.0']],
      );
    } finally {
      copy.remove();
    }
  });
});

/**
 * A copy of the whole project (without installed packages and build output) whose
 * `node_modules` links to this project's, so the real `astro build` runs on it. It lives in the
 * project's ignored `.generated/`: from the system's temporary folder, Astro's build looks for
 * the linked packages' components under the copy and fails ("No cached compile metadata found").
 */
function copyProject(): string {
  const parent = path.join(projectDirectory, '.generated/site-copies');
  mkdirSync(parent, { recursive: true });
  const directory = mkdtempSync(path.join(parent, 'changelog-'));
  const skipped = new Set(['node_modules', 'dist', '.astro', '.generated', '.git', 'test-results', 'playwright-report', 'bench-results']);
  for (const entry of readdirSync(projectDirectory)) {
    if (!skipped.has(entry)) cpSync(path.join(projectDirectory, entry), path.join(directory, entry), { recursive: true });
  }
  symlinkSync(realpathSync(path.join(projectDirectory, 'node_modules')), path.join(directory, 'node_modules'), 'dir');
  return directory;
}

describe('the changelog page', () => {
  it('shows a release cut after an additive change, built by the real astro build', async () => {
    assert.ok(optionalField);
    const contract = copyContract();
    const site = copyProject();
    try {
      optionalField.apply(contract);
      setVersion(contract, '1.1.0');
      rmSync(path.join(site, 'openapi'), { recursive: true });
      cpSync(path.join(contract.directory, 'openapi'), path.join(site, 'openapi'), { recursive: true });
      await cutRelease({ projectDirectory: site, date: '2026-12-01', notes: 'Pausing can set the day it ends.' });

      const build = spawnSync(process.execPath, [path.join(site, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: site, encoding: 'utf8' });
      assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
      const html = readFileSync(path.join(site, 'dist/changelog/index.html'), 'utf8');
      const newer = html.indexOf('<h2 id="version-1-1-0">1.1.0</h2>');
      const older = html.indexOf('<h2 id="version-1-0-0">1.0.0</h2>');
      assert.ok(newer > 0 && older > newer, 'the page lists 1.1.0 above 1.0.0');
      const section = html.slice(newer, older);
      assert.match(section, /Released on <time datetime="2026-12-01">December 1, 2026<\/time>\. Pausing can set the day it ends\./);
      assert.match(section, /<h3>Added<\/h3>/);
      assert.match(section, /New optional field <code>resume_on<\/code> for <a href="\/reference\/actions\/pause_subscription\/"><code>pause_subscription<\/code><\/a>\./);
      assert.match(html.slice(older), /Released on <time datetime="2026-11-20">November 20, 2026<\/time>/);
    } finally {
      contract.remove();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
