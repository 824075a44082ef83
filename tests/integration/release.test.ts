import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cutRelease, ReleaseRefused } from '../../scripts/release.ts';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { readReleases } from '../../src/lib/releases/releases.ts';
import { additiveEdits, checkCopy, setVersion } from '../support/compatibility-fixture.ts';
import { copyContract, projectDirectory } from '../support/contract-copy.ts';

const index = 'openapi/releases/releases.yaml';
const optionalField = additiveEdits.find((edit) => edit.name === 'a new optional request field');

describe('npm run release', { concurrency: 2 }, () => {
  it("made the 1.0.0 snapshot: Redocly's bundle of the contract as it was then, byte for byte", () => {
    const copy = copyContract();
    try {
      // The contract as it was when 1.0.0 was released: the commit that added the snapshot.
      const snapshot = 'openapi/releases/1.0.0.json';
      const commit = execFileSync('git', ['log', '-1', '--format=%H', '--', snapshot], { cwd: projectDirectory, encoding: 'utf8' }).trim();
      assert.match(commit, /^[0-9a-f]{40}$/, `git knows the commit that added ${snapshot}`);
      rmSync(path.join(copy.directory, 'openapi'), { recursive: true });
      execFileSync('sh', ['-c', `git archive ${commit} openapi | tar -x -C "${copy.directory}"`], { cwd: projectDirectory });
      const bundle = bundleContract(copy.directory, contractRoot, '.generated/release');
      assert.equal(readFileSync(bundle.jsonPath, 'utf8'), readFileSync(path.join(projectDirectory, snapshot), 'utf8'));
    } finally {
      copy.remove();
    }
  });

  it("writes the bundler's output as the snapshot, byte for byte", async () => {
    const copy = copyContract();
    try {
      setVersion(copy, '1.99.0');
      const { snapshot } = await cutRelease({ projectDirectory: copy.directory, date: '2026-12-01' });
      assert.equal(snapshot, 'openapi/releases/1.99.0.json');
      const bundle = bundleContract(copy.directory, contractRoot, '.generated/compare');
      assert.equal(copy.read(snapshot), readFileSync(bundle.jsonPath, 'utf8'));
    } finally {
      copy.remove();
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
      setVersion(copy, '1.99.0');
      await assert.rejects(cutRelease({ projectDirectory: copy.directory }), (error: unknown) => {
        assert.ok(error instanceof ReleaseRefused);
        assert.match(error.message, /fails the gate, so 1\.99\.0 is not released/);
        assert.match(error.message, /Operation `POST \/action` was removed/);
        return true;
      });
      assert.equal(copy.read(index), before);
      assert.equal(existsSync(path.join(copy.directory, 'openapi/releases/1.99.0.json')), false);
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
      const { snapshot, clients } = await cutRelease({ projectDirectory: copy.directory, date: '2026-12-01', notes: 'Pausing can set the day it ends.' });
      assert.equal(snapshot, 'openapi/releases/1.1.0.json');
      // Beside the snapshot, the record of its libraries, which the next change is held against.
      assert.equal(clients, 'openapi/releases/1.1.0.clients.json');
      const record = JSON.parse(copy.read(clients)) as {
        version: string;
        php: { classes: { name: string }[] };
        typescript: { exports: Record<string, unknown>; declarations: Record<string, string> };
        python: { names: Record<string, { kind: string; keys?: Record<string, { required: boolean }> }> };
      };
      assert.equal(record.version, '1.1.0');
      assert.ok(record.php.classes.length > 0 && Object.keys(record.typescript.exports).length > 0 && Object.keys(record.python.names).length > 0, 'the record lists the three libraries');
      // The new optional field is in the release's TypeScript fields and Python fields dictionary, optional in both.
      assert.ok(Object.values(record.typescript.declarations).some((text) => /\bresume_on\?: string/.test(text)), 'the TypeScript record has resume_on as an optional property');
      const pythonFields = Object.values(record.python.names).find((name) => name.kind === 'typeddict' && name.keys?.resume_on !== undefined);
      assert.equal(pythonFields?.keys?.resume_on?.required, false, 'the Python record has resume_on as an optional key');
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
    // On a copy whose version is released already: run on the project itself, a contract ahead of
    // its latest release (the usual state between releases) would really be released.
    const copy = copyContract();
    try {
      setVersion(copy, '1.0.0');
      const script = path.join(projectDirectory, 'scripts/release.ts');
      const refused = spawnSync(process.execPath, [script, '--project', copy.directory], { encoding: 'utf8' });
      assert.equal(refused.status, 1, refused.stderr);
      assert.match(refused.stderr, /✖ Version 1\.0\.0 is already released/);
      const unknown = spawnSync(process.execPath, [script, '--version-bump'], { encoding: 'utf8' });
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /Usage: node scripts\/release\.ts/);
    } finally {
      copy.remove();
    }
  });
});
