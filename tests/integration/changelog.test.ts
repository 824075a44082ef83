import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { specifiedActions } from '../../src/gate/checks.ts';
import { cutRelease } from '../../scripts/release.ts';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { buildChangelog, changelogSections, draftLabel, mergedByAction, type Changelog } from '../../src/lib/releases/changelog.ts';
import { compareContracts } from '../../src/lib/releases/contract-changes.ts';
import { asOpenApiDocument, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import { actionsOf } from '../../src/lib/releases/comparison.ts';
import { readReleases } from '../../src/lib/releases/releases.ts';
import { additiveEdits, breakingEdits, checkCopy, releaseAsIs, setVersion } from '../support/compatibility-fixture.ts';
import { bundledDocument, copyContract, copyProject, projectDirectory, type ContractCopy } from '../support/contract-copy.ts';
import { withoutBreakMarks } from '../support/break-marks.ts';

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
    const first = changelog.versions.at(-1);
    assert.equal(first?.version, '1.0.0');
    assert.equal(first?.date, '2026-11-20');
    assert.equal(first?.released, true);
    assert.equal(first?.first, true);
    const actions = first?.entries.flatMap((entry) => entry.actions ?? []) ?? [];
    assert.deepEqual(actions, [...specifiedActions]);
    assert.deepEqual(changelog.deprecated, []);
  });

  it('lists what the version after 1.0.0 changed, released or not: responses opened to additions, Retry-After no longer marked required', () => {
    const changelog = changelogOf(projectDirectory);
    // The versions run newest first, so the one after 1.0.0 is next to last, whether it is still
    // the unreleased contract or a release by now: its changes are listed either way.
    const after = changelog.versions.at(-2);
    assert.ok(after !== undefined, 'a version after 1.0.0 is listed');
    assert.equal(after.released, readReleases(projectDirectory).some((release) => release.version === after.version), `${after.version} is marked as the release index says`);
    assert.equal(after.released, after.date !== undefined, 'a release has a date, an unreleased version none');
    const sentences = after.entries.map((entry) => `${entry.category}: ${entry.sentence}`);
    for (const expected of [
      /^changed: The body of the `200` response may now carry fields it does not list, which a client ignores\.$/,
      /^changed: Field `action` in the `200` response is now an extensible enum/,
      /^changed: Each item of field `data\.allowed_actions` in the `409` response is now an extensible enum/,
      /^changed: Header `Retry-After` of the `429` response is no longer marked required\.$/,
      /^added: New example `unknown_field` of the `400` response\.$/,
    ]) {
      assert.ok(sentences.some((sentence) => expected.test(sentence)), `${String(expected)} in:\n${sentences.join('\n')}`);
    }
  });

  it('lists a new optional field under the next minor version, not released yet, above the releases', () => {
    assert.ok(optionalField);
    const copy = copyContract();
    try {
      const baseline = releaseAsIs(copy);
      optionalField.apply(copy);
      setVersion(copy, baseline.nextMinor);
      const changelog = changelogOf(copy.directory);
      assert.deepEqual(changelog.versions.map((entry) => entry.version).slice(0, 2), [baseline.nextMinor, baseline.released]);
      const [unreleased] = changelog.versions;
      assert.equal(unreleased?.released, false);
      assert.equal(unreleased?.date, undefined);
      assert.deepEqual(unreleased?.entries, [
        { category: 'added', sentence: 'New optional field `resume_on` for `pause_subscription`.', actions: ['pause_subscription'] },
      ]);
      const anchor = (version: string): string => `version-${version.replaceAll('.', '-')}`;
      assert.deepEqual(changelogSections(changelog).slice(0, 3), [
        { slug: 'deprecated-now', text: 'Deprecated now' },
        { slug: anchor(baseline.nextMinor), text: `${baseline.nextMinor} (${draftLabel})` },
        { slug: anchor(baseline.released), text: baseline.released },
      ]);
    } finally {
      copy.remove();
    }
  });

  it('shows nothing unreleased while info.version is still the latest release', () => {
    assert.ok(optionalField);
    const copy = copyContract();
    try {
      const baseline = releaseAsIs(copy);
      optionalField.apply(copy);
      const [newest] = changelogOf(copy.directory).versions;
      assert.equal(newest?.version, baseline.released);
      assert.equal(newest?.released, true);
    } finally {
      copy.remove();
    }
  });

  it('lists a deprecation under the version that announced it, and as deprecated now', () => {
    const copy = copyContract();
    try {
      const baseline = releaseAsIs(copy);
      deprecateNoteOfPause(copy);
      setVersion(copy, baseline.nextMinor);
      const changelog = changelogOf(copy.directory);
      assert.deepEqual(changelog.versions[0]?.entries, [
        { category: 'deprecated', sentence: 'Field `note` for `pause_subscription` is deprecated.', actions: ['pause_subscription'] },
      ]);
      assert.deepEqual(
        changelog.deprecated.map((item) => [item.sentence, item.since]),
        [['Field `note` for `pause_subscription` is deprecated.', baseline.nextMinor]],
      );
    } finally {
      copy.remove();
    }
  });
});

describe('the changelog, told from Redocly\'s diff', { concurrency: 2 }, () => {
  /** The sentences the compatibility step tells for a breaking edit of a fresh release. */
  function sentencesAfter(editName: string): string[] {
    const edit = breakingEdits.find((candidate) => candidate.name === editName);
    assert.ok(edit, editName);
    const copy = copyContract();
    try {
      releaseAsIs(copy);
      edit.apply(copy);
      return checkCopy(copy).changes.map((change) => `${change.category}: ${change.sentence}`);
    } finally {
      copy.remove();
    }
  }

  it('names every field a change of a shared schema reaches, though Redocly reports it once', () => {
    const sentences = sentencesAfter('a changed type').filter((sentence) => sentence.startsWith('changed: Field'));
    const actions = specifiedActions.map((action) => `changed: Field \`subscription_id\` for \`${action}\` changed its type from integer to string.`);
    assert.deepEqual(sentences, [...actions, 'changed: Field `subscription_id` in the `200` response changed its type from integer to string.']);
  });

  it('names only the request a field was taken out of, though the field refers to a schema others share', () => {
    assert.deepEqual(sentencesAfter('a removed request field'), ['removed: Field `note` for `pause_subscription` was removed.']);
    assert.deepEqual(sentencesAfter('a removed response field'), ['removed: Field `previous_status` in the `200` response was removed.']);
  });

  it('tells a value a shared list lost at each field that lists it, requests and responses', () => {
    assert.deepEqual(sentencesAfter('a removed enum value').filter((sentence) => sentence.startsWith('removed:')), [
      'removed: Field `status` for `change_status` no longer takes the values `pending`.',
      'removed: Field `previous_status` in the `200` response no longer takes the values `pending`.',
      'removed: Field `status` in the `200` response no longer takes the values `pending`.',
      'removed: Field `data.current_status` in the `409` response no longer takes the values `pending`.',
    ]);
  });

  it('tells a response header added or taken away, and words a change it has no sentence for from Redocly\'s report', () => {
    const base = bundledDocument();
    const revision = structuredClone(base);
    const tooMany = revision.components?.responses?.TooManyRequests;
    assert.ok(tooMany !== undefined && 'headers' in tooMany && tooMany.headers !== undefined);
    tooMany.headers['X-Example-Window'] = { description: 'A header of this test only.', schema: { type: 'integer' } };
    const note = revision.components?.schemas?.Note;
    assert.ok(note !== undefined);
    note.maxLength = 100;
    const told = compareContracts(projectDirectory, base, revision).map((change) => `${change.category}: ${change.sentence}`);
    assert.ok(told.includes('added: New optional header `X-Example-Window` in the `429` response.'), told.join('\n'));
    for (const action of specifiedActions) {
      assert.ok(told.includes(`changed: \`maxLength\` of field \`note\` for \`${action}\` is now \`100\` (was \`500\`).`), told.join('\n'));
    }
    assert.deepEqual(
      compareContracts(projectDirectory, revision, base).filter((change) => change.kind === 'header-removed').map((change) => change.sentence),
      ['Header `X-Example-Window` of the `429` response was removed.'],
    );
  });

  /** What the changelog tells from the bundled contract to a revision of it made in memory. */
  function toldAfter(edit: (revision: OpenApiDocument) => void): string[] {
    const base = bundledDocument();
    const revision = structuredClone(base);
    edit(revision);
    return compareContracts(projectDirectory, base, revision).map((change) => `${change.category}: ${change.sentence}${change.action === undefined ? '' : ` [${change.action}]`}`);
  }
  const schemas = (document: OpenApiDocument): Record<string, Record<string, unknown>> => document.components?.schemas as Record<string, Record<string, unknown>>;
  const responses = (document: OpenApiDocument): Record<string, Record<string, unknown>> => document.components?.responses as Record<string, Record<string, unknown>>;

  it('names a field inside a map\'s values and a list\'s items by where it sits', () => {
    const told = toldAfter((revision) => {
      const details = (schemas(revision).ParameterErrorData?.properties as Record<string, Record<string, unknown>>).details;
      const values = details?.additionalProperties as { properties: Record<string, unknown> };
      values.properties.hint = { type: 'string', description: 'A field of this test only.' };
    });
    assert.deepEqual(told, ['added: New optional field `data.details.*.hint` in the `400` response.']);
  });

  it('tells each header of a set removed whole, and each field of an object that gained its fields', () => {
    assert.deepEqual(
      toldAfter((revision) => {
        delete responses(revision).TooManyRequests?.headers;
      }),
      ['removed: Header `Retry-After` of the `429` response was removed.'],
    );
    const told = toldAfter((revision) => {
      schemas(revision).Note = { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false };
    });
    const actions = actionsOf(bundledDocument()).map((action) => action.identifier);
    for (const action of actions) assert.ok(told.includes(`added: New optional field \`note.text\` for \`${action}\`. [${action}]`), told.join('\n'));
  });

  it('tells a response that may come in a new media type', () => {
    const told = toldAfter((revision) => {
      const content = responses(revision).ActionSucceeded?.content as Record<string, unknown>;
      content['application/problem+json'] = { schema: { type: 'object' } };
    });
    assert.deepEqual(told, ['added: The `200` response may now come as `application/problem+json`.']);
  });

  it('tells the deprecation of the operation, a response header and a field in a map\'s values', () => {
    const told = toldAfter((revision) => {
      const operation = revision.paths?.['/action']?.post as Record<string, unknown>;
      operation.deprecated = true;
      const retryAfter = (responses(revision).TooManyRequests?.headers as Record<string, Record<string, unknown>>)['Retry-After'];
      if (retryAfter !== undefined) retryAfter.deprecated = true;
      const details = (schemas(revision).ParameterErrorData?.properties as Record<string, Record<string, unknown>>).details;
      const code = (details?.additionalProperties as { properties: Record<string, Record<string, unknown>> }).properties.code;
      if (code !== undefined) code.deprecated = true;
    });
    assert.deepEqual(told, [
      'deprecated: Operation `POST /action` is deprecated.',
      'deprecated: Field `data.details.*.code` in the `400` response is deprecated.',
      'deprecated: Header `Retry-After` of the `429` response is deprecated.',
    ]);
  });

  it('names the action a new request example sends, and tells a loosened request limit with its values', () => {
    const told = toldAfter((revision) => {
      const media = (revision.components?.requestBodies?.ActionRequest as { content: Record<string, { examples: Record<string, unknown> }> }).content['application/json'];
      if (media !== undefined) media.examples.pause_with_note = { summary: 'A pause with a note', value: { api_key: '<API_KEY>', action: 'pause_subscription', subscription_id: 4711, note: 'Holiday' } };
      schemas(revision).Note = { ...schemas(revision).Note, maxLength: 1000 };
    });
    assert.ok(told.includes('added: New example `pause_with_note` of the request body for `pause_subscription`. [pause_subscription]'), told.join('\n'));
    assert.ok(told.includes('changed: `maxLength` of field `note` for `pause_subscription` is now `1000` (was `500`). [pause_subscription]'), told.join('\n'));
  });

  it('lists the same change in several actions as one entry naming them all', () => {
    const base = bundledDocument();
    const revision = structuredClone(base);
    const limit = (document: OpenApiDocument): number => Number((document.components?.schemas?.Note as Record<string, unknown>).maxLength);
    (revision.components?.schemas?.Note as Record<string, unknown>).maxLength = limit(base) * 2;
    const changes = compareContracts(projectDirectory, base, revision);
    const actions = changes.map((change) => change.action);
    assert.ok(actions.length > 1 && actions.every((action) => action !== undefined), 'a change each action with a note meets');
    const listed = new Intl.ListFormat('en', { type: 'conjunction' }).format(actions.map((action) => `\`${action}\``));
    assert.deepEqual(mergedByAction(changes), [
      { category: 'changed', sentence: `\`maxLength\` of field \`note\` for ${listed} is now \`${limit(revision)}\` (was \`${limit(base)}\`).`, actions },
    ]);
  });

  it('tells a removed action once, not also as a value each list of actions lost', () => {
    assert.deepEqual(sentencesAfter('a removed action'), ['removed: Action `trial_end` was removed.']);
  });

  it('says nothing of the lifecycle table when the revision\'s cannot be read (the gate names its problem)', () => {
    const told = toldAfter((revision) => {
      const status = schemas(revision).SubscriptionStatus;
      if (status !== undefined) {
        delete status.enum;
        status.examples = ['active'];
      }
    });
    assert.deepEqual(told.filter((sentence) => sentence.includes('lifecycle table')), []);
  });

  it('tells a renamed path as one operation gone and one new', () => {
    assert.deepEqual(sentencesAfter('a changed path'), ['added: New operation `POST /actions`.', 'removed: Operation `POST /action` was removed.']);
  });
});

describe('the changelog page', () => {
  it('shows a release cut after an additive change, built by the real astro build', async () => {
    assert.ok(optionalField);
    const contract = copyContract();
    const site = copyProject().directory;
    try {
      const baseline = releaseAsIs(contract);
      optionalField.apply(contract);
      setVersion(contract, baseline.nextMinor);
      rmSync(path.join(site, 'openapi'), { recursive: true });
      cpSync(path.join(contract.directory, 'openapi'), path.join(site, 'openapi'), { recursive: true });
      await cutRelease({ projectDirectory: site, date: '2026-12-02', notes: 'Pausing can set the day it ends.' });

      const build = spawnSync(process.execPath, [path.join(site, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: site, encoding: 'utf8' });
      assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
      // Compared as a browser shows it: whitespace collapsed, none between two tags, and no mark
      // of where an identifier may wrap.
      const html = withoutBreakMarks(readFileSync(path.join(site, 'dist/changelog/index.html'), 'utf8')).replace(/\s+/g, ' ').replace(/> </g, '><');
      const heading = (version: string): string => `<h2 id="version-${version.replaceAll('.', '-')}">${version}</h2>`;
      const newer = html.indexOf(heading(baseline.nextMinor));
      const older = html.indexOf(heading(baseline.released));
      assert.ok(newer > 0 && older > newer, `the page lists ${baseline.nextMinor} above ${baseline.released}`);
      const section = html.slice(newer, older);
      assert.match(section, /Released on <time datetime="2026-12-02">December 2, 2026<\/time>\. Pausing can set the day it ends\./);
      // A category's heading has an anchor of its own in each release, so a link to it is one place.
      assert.ok(section.includes(`<h3 id="version-${baseline.nextMinor.replaceAll('.', '-')}-added">Added</h3>`), section);
      assert.match(section, /New optional field <code>resume_on<\/code> for <a href="\/reference\/actions\/pause_subscription\/"><code>pause_subscription<\/code><\/a>\./);
      assert.match(html.slice(older), /Released on <time datetime="2026-11-20">November 20, 2026<\/time>/);
    } finally {
      contract.remove();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
