/**
 * The TypeScript compiler's judgement (src/clients/typescript/surface-compiler.ts) on the
 * latest release's recorded declarations: it passes the release held against itself, and refuses,
 * naming the member, the same declarations with an optional input member made required.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { latestRelease, readReleases } from '../../src/lib/releases/releases.ts';
import { readClientSurfaceRecord } from '../../src/clients/surface/surfaces.ts';
import { typescriptCompilerBreaks } from '../../src/clients/typescript/surface-compiler.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
const release = latestRelease(readReleases(projectDirectory));
const record = release === undefined ? undefined : readClientSurfaceRecord(projectDirectory, release.version);

describe('the compiler\'s judgement of two releases of the TypeScript client', { skip: record?.typescript.declarations === undefined ? 'no release records its declarations yet' : false }, () => {
  const surface = record?.typescript;
  assert.ok(surface?.declarations !== undefined);

  test('a release held against itself passes', () => {
    assert.deepEqual(typescriptCompilerBreaks(surface, surface), []);
  });

  test('an optional field made required, in a file the entry re-exports from, is refused and named', () => {
    const declarations = { ...surface.declarations };
    const [file, text] = Object.entries(declarations).find(([, content]) => /\n\s+\w+\?: string;/.test(content)) ?? [];
    assert.ok(file !== undefined && text !== undefined, 'some input type has an optional string member');
    const member = /\n\s+(\w+)\?: string;/.exec(text)?.[1] ?? '';
    declarations[file] = text.replace(`${member}?: string;`, `${member}: string;`);
    const breaks = typescriptCompilerBreaks(surface, { ...surface, declarations });
    assert.ok(breaks.length > 0, 'the compiler refuses it');
    assert.ok(breaks.every((entry) => entry.language === 'TypeScript'));
    assert.ok(breaks.some((entry) => entry.names[0] === member && entry.message.includes(`'${member}'`)), breaks.map((entry) => entry.message).join('\n'));
  });
});
