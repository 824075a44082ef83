import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cutRelease, ReleaseRefused } from '../../scripts/release.ts';
import { bundleContract } from '../../src/lib/bundle.ts';
import { readReleases } from '../../src/lib/releases.ts';
import { additiveEdits, checkCopy, setVersion } from './compatibility-fixture.ts';
import { copyContract, projectDirectory } from './contract-copy.ts';

const index = 'openapi/releases/releases.yaml';
const optionalField = additiveEdits.find((edit) => edit.name === 'a new optional request field');

describe('npm run release', { concurrency: 2 }, () => {
  it('writes Redocly\'s bundle of the contract, byte for byte, as the snapshot of its version', async () => {
    const copy = copyContract();
    try {
      for (const release of readReleases(copy.directory)) rmSync(path.join(copy.directory, `openapi/releases/${release.version}.json`));
      copy.write(index, 'releases: []\n');
      // Patches made since 1.0.0 are undone first, so the copy holds the contract as released:
      // the pattern of Retry-After's HTTP-date branch (openapi/README.md, "What other tools say").
      const retryAfter = 'openapi/components/headers/RetryAfter.yaml';
      copy.write(retryAfter, copy.read(retryAfter).replace(/\n(?: {6}#[^\n]*\n)* {6}pattern: [^\n]*/, ''));
      const { release, snapshot } = await cutRelease({ projectDirectory: copy.directory, date: '2026-11-20' });
      const bundled = bundleContract(copy.directory, undefined, '.generated/release-test');
      assert.equal(release.version, (bundled.document as { info: { version: string } }).info.version);
      assert.equal(copy.read(snapshot), readFileSync(bundled.jsonPath, 'utf8'));
    } finally {
      copy.remove();
    }
  });

  it('keeps each released snapshot under the version it carries', () => {
    for (const release of readReleases(projectDirectory)) {
      const snapshot = JSON.parse(readFileSync(path.join(projectDirectory, `openapi/releases/${release.version}.json`), 'utf8')) as { info: { version: string } };
      assert.equal(snapshot.info.version, release.version);
    }
  });

  it('refuses a version that is already released, and writes nothing', async () => {
    const copy = copyContract();
    try {
      setVersion(copy, '1.0.0');
      const before = copy.read(index);
      await assert.rejects(cutRelease({ projectDirectory: copy.directory }), (error: unknown) => {
        assert.ok(error instanceof ReleaseRefused);
        assert.match(error.message, /Version 1\.0\.0 is already released \(openapi\/releases\/1\.0\.0\.json\)\. Raise info\.version/);
        return true;
      });
      assert.equal(copy.read(index), before);
    } finally {
      copy.remove();
    }
  });

  it('refuses when the gate fails, and writes nothing', async () => {
    const copy = copyContract();
    try {
      const before = copy.read(index);
      // A breaking change with a new version number: the version is new, the gate says no.
      copy.replace('openapi/paths/action.yaml', 'post:\n  operationId:', 'put:\n  operationId:');
      setVersion(copy, '1.1.0');
      await assert.rejects(cutRelease({ projectDirectory: copy.directory }), (error: unknown) => {
        assert.ok(error instanceof ReleaseRefused);
        assert.match(error.message, /fails the gate, so 1\.1\.0 is not released/);
        assert.match(error.message, /Operation `POST \/action` was removed/);
        return true;
      });
      assert.equal(copy.read(index), before);
      assert.equal(existsSync(path.join(copy.directory, 'openapi/releases/1.1.0.json')), false);
    } finally {
      copy.remove();
    }
  });

  it('cuts 1.1.0 after an additive change: snapshot, index entry, and the new baseline', async () => {
    assert.ok(optionalField);
    const copy = copyContract();
    try {
      optionalField.apply(copy);
      setVersion(copy, '1.1.0');
      const { snapshot } = await cutRelease({ projectDirectory: copy.directory, date: '2026-12-01', notes: 'Pausing can set the day it ends.' });
      assert.equal(snapshot, 'openapi/releases/1.1.0.json');
      const released = JSON.parse(copy.read(snapshot)) as { info: { version: string } };
      assert.equal(released.info.version, '1.1.0');
      assert.deepEqual(readReleases(copy.directory).at(-1), { version: '1.1.0', date: '2026-12-01', notes: 'Pausing can set the day it ends.' });
      // The index keeps its comments and quotes the new entry like the old ones.
      assert.match(copy.read(index), /^# The released versions/);
      assert.match(copy.read(index), /- version: "1\.1\.0"\n {4}date: "2026-12-01"\n/);
      // From now on the gate compares with 1.1.0: the field is part of the baseline.
      const report = checkCopy(copy);
      assert.equal(report.release?.version, '1.1.0');
      assert.deepEqual(report.problems, []);
    } finally {
      copy.remove();
    }
  });

  it('runs from the command line: exit 1 and the reason on a refusal, 2 on an unknown option', () => {
    const script = path.join(projectDirectory, 'scripts/release.ts');
    // On a copy: run on the repository itself while its version is ahead, the script would release it.
    const copy = copyContract();
    try {
      setVersion(copy, '1.0.0');
      const refused = spawnSync(process.execPath, [script, '--project', copy.directory], { encoding: 'utf8' });
      assert.equal(refused.status, 1, refused.stderr);
      assert.match(refused.stderr, /✖ Version 1\.0\.0 is already released/);
    } finally {
      copy.remove();
    }
    const unknown = spawnSync(process.execPath, [script, '--version-bump'], { encoding: 'utf8' });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /Usage: node scripts\/release\.ts/);
  });
});
