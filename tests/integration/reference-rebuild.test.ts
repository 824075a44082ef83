import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { projectDirectory } from '../support/reference-fixture.ts';
import { withoutBreakMarks } from '../support/break-marks.ts';

const run = promisify(execFile);

/** What a build leaves behind or installs; none of it is part of the project's sources. */
const notCopied = new Set(['node_modules', 'dist', '.astro', '.generated', '.git', 'test-results', 'playwright-report', 'bench-results']);

const newNoteDescription = 'A free-text remark that lands in the subscription history, copied from a rebuilt contract.';
const newField = 'pause_reason';
const newFieldDescription = 'Why the subscription is paused, in a few words, for the shop team.';

let copy: string;
/** The version of the copy that announces its deprecations. */
let announcingVersion = '';

/**
 * Copies the project without what a build or an install leaves, and gives the copy a
 * `node_modules` of its own that links every installed package. Linking the folder itself would
 * share Astro's content cache (`node_modules/.astro`) with the project, and a build of the copy
 * must see the copy's files only. The copy lives in the project's ignored `.generated/`: Astro
 * treats a linked package as part of the project only when the two share a folder other than
 * `/`, which a copy in the system's temporary folder would not.
 */
function copyProject(target: string): void {
  for (const entry of readdirSync(projectDirectory)) {
    if (!notCopied.has(entry)) cpSync(path.join(projectDirectory, entry), path.join(target, entry), { recursive: true });
  }
  const installed = path.join(projectDirectory, 'node_modules');
  mkdirSync(path.join(target, 'node_modules'));
  for (const entry of readdirSync(installed)) {
    if (entry === '.astro' || entry === '.vite') continue;
    symlinkSync(path.join(installed, entry), path.join(target, 'node_modules', entry));
  }
}

function editYaml(file: string, edit: (document: Record<string, unknown>) => void): void {
  const absolute = path.join(copy, file);
  const document = parse(readFileSync(absolute, 'utf8')) as Record<string, unknown>;
  edit(document);
  writeFileSync(absolute, stringify(document));
}

/** A built page without the marks of where an identifier may wrap, which a reader never sees. */
function page(urlPath: string): string {
  return withoutBreakMarks(readFileSync(path.join(copy, 'dist', urlPath, 'index.html'), 'utf8'));
}

/** The HTML of one row of the request fields table, or undefined when the page has no such row. */
function fieldRow(html: string, name: string): string | undefined {
  const table = /<table class="fields[^"]*"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return new RegExp(`<tr data-field="${name}"[\\s\\S]*?</tr>`).exec(table)?.[0];
}

const actionPages = (): string[] =>
  readdirSync(path.join(copy, 'dist', 'reference', 'actions'), { withFileTypes: true })
    // The folder's own index.html is the redirect to the reference's index, not an action.
    .filter((entry) => entry.isDirectory())
    .map((entry) => `reference/actions/${entry.name}`);

describe('a contract change reaches every page that shows it after a rebuild, with no other edit', () => {
  before(async () => {
    const parent = path.join(projectDirectory, '.generated');
    mkdirSync(parent, { recursive: true });
    copy = mkdtempSync(path.join(parent, 'rebuild-'));
    copyProject(copy);
    // A field's description changes: the note every action accepts.
    editYaml('openapi/components/schemas/Note.yaml', (schema) => {
      schema.description = newNoteDescription;
    });
    // An optional field is added to one action, deprecated from the start so its badge shows too.
    writeFileSync(
      path.join(copy, 'openapi/components/schemas/PauseReason.yaml'),
      stringify({ type: 'string', maxLength: 80, deprecated: true, description: newFieldDescription }),
    );
    editYaml('openapi/components/schemas/PauseSubscriptionRequest.yaml', (schema) => {
      const properties = schema.properties as Record<string, unknown>;
      properties[newField] = { $ref: './PauseReason.yaml' };
    });
    // An action is deprecated.
    editYaml('openapi/components/schemas/TrialEndRequest.yaml', (schema) => {
      schema.deprecated = true;
    });
    // A deprecation is an additive change, so the copy announces it in a new minor version.
    editYaml('openapi/openapi.yaml', (root) => {
      const info = root.info as { version: string };
      const [major = 1, minor = 0] = info.version.split('.').map(Number);
      announcingVersion = `${major}.${minor + 1}.0`;
      info.version = announcingVersion;
    });
    // The installed Astro, run by this Node (24, the project's own) rather than whatever `node` is first on PATH.
    await run(process.execPath, [path.join(copy, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
      cwd: copy,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    });
  });

  after(() => {
    if (copy !== undefined && process.env.KEEP_COPY === undefined) rmSync(copy, { recursive: true, force: true });
  });

  test('the changed description is on every action page and the endpoint page, the old one nowhere', () => {
    const original = parse(readFileSync(path.join(projectDirectory, 'openapi/components/schemas/Note.yaml'), 'utf8')) as {
      description: string;
    };
    const pages = [...actionPages(), 'reference/endpoint'];
    assert.equal(pages.length, 9);
    for (const urlPath of pages) {
      const html = page(urlPath);
      assert.ok(fieldRow(html, 'note')?.includes(newNoteDescription), `${urlPath} shows the new description of note`);
      assert.ok(!html.includes(original.description.trim()), `${urlPath} no longer shows the old one`);
    }
  });

  test('the added optional field is on its action page only, with its badge', () => {
    const row = fieldRow(page('reference/actions/pause_subscription'), newField);
    assert.ok(row, 'pause_subscription lists the new field');
    assert.ok(row.includes(newFieldDescription));
    assert.ok(row.includes('optional'));
    assert.ok(row.includes('at most 80 characters'));
    assert.match(row, /class="[^"]*sl-badge[^"]*"[^>]*>Deprecated</);
    for (const urlPath of actionPages().filter((candidate) => !candidate.endsWith('/pause_subscription'))) {
      assert.equal(fieldRow(page(urlPath), newField), undefined, `${urlPath} does not list it`);
    }
    const published = JSON.parse(readFileSync(path.join(copy, 'dist', 'openapi', 'v1.json'), 'utf8')) as {
      components: { schemas: Record<string, unknown> };
    };
    assert.ok('PauseReason' in published.components.schemas, 'the download has the new field');
  });

  test('the deprecated action carries a badge in the sidebar of every page, in the list and on its page', () => {
    const badgeInSidebarLink = /href="\/reference\/actions\/trial_end\/"[^>]*>\s*<span[^>]*>trial_end<\/span>\s*<span class="sl-badge[^"]*"[^>]*>Deprecated</;
    for (const urlPath of [...actionPages(), 'reference/endpoint']) {
      assert.match(page(urlPath), badgeInSidebarLink, `the sidebar of ${urlPath}`);
    }
    const list = /<tr data-action="trial_end"[\s\S]*?<\/tr>/.exec(page('reference/endpoint'))?.[0] ?? '';
    assert.match(list, />Deprecated</);
    const own = page('reference/actions/trial_end');
    assert.match(own, /<h1[^>]*>trial_end<\/h1>/);
    assert.match(own.slice(own.indexOf('<main')), /class="sl-badge[^"]*"[^>]*>Deprecated</);
  });

  test('[9.5] the changelog lists the deprecated field and action under the version that announced them', () => {
    const html = page('changelog');
    const deprecatedNow = /<h2 id="deprecated-now">[\s\S]*?(?=<section)/.exec(html)?.[0] ?? '';
    for (const name of [newField, 'trial_end']) {
      assert.match(deprecatedNow, new RegExp(`<code>${name}</code>[\\s\\S]*?Announced in\\s*<a href="#version-${announcingVersion.replaceAll('.', '-')}">`), `“Deprecated now” lists ${name}`);
    }
    const section = new RegExp(`<section aria-labelledby="version-${announcingVersion.replaceAll('.', '-')}">[\\s\\S]*?</section>`).exec(html)?.[0] ?? '';
    const deprecatedList = /<h3[^>]*>Deprecated<\/h3>\s*<ul>([\s\S]*?)<\/ul>/.exec(section)?.[1] ?? '';
    assert.match(deprecatedList, new RegExp(`<code>${newField}</code>`), `version ${announcingVersion} lists ${newField} as deprecated`);
    assert.match(deprecatedList, /<code>trial_end<\/code>/, `version ${announcingVersion} lists trial_end as deprecated`);
  });

  test('the edits were made to the copy, not to the project', () => {
    assert.ok(!existsSync(path.join(projectDirectory, 'openapi/components/schemas/PauseReason.yaml')));
  });
});
