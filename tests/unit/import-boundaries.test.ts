/**
 * The rooms of the code and the doors between them (tests/support/import-rooms.ts, shown in
 * docs/architecture.md, "How the code is laid out"). Each room lists the rooms it may import from;
 * an import through any other door fails this test with the file and line, so a boundary stays a
 * boundary.
 */
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { projectDirectory } from '../support/contract-copy.ts';
import { roomOf, rooms } from '../support/import-rooms.ts';

const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every relative import of the project's source, with where it is written. */
function imports(): { file: string; line: number; target: string }[] {
  const files = globSync(['src/**/*.{ts,astro,mdx,mjs}', 'scripts/**/*.ts'], { cwd: projectDirectory });
  return files.flatMap((file) => {
    const text = readFileSync(path.join(projectDirectory, file), 'utf8');
    return [...text.matchAll(importPattern)].map((match) => ({
      file,
      line: text.slice(0, match.index).split('\n').length,
      target: path.normalize(path.join(path.dirname(file), match[1] ?? '')),
    }));
  });
}

describe('import boundaries', () => {
  test('every import goes through a door its room has', () => {
    const crossings: string[] = [];
    for (const { file, line, target } of imports()) {
      const room = roomOf(file);
      if (room === undefined) continue;
      const allowed = target.startsWith(room.path) || room.mayImport.some((door) => target === door || target.startsWith(door));
      if (!allowed) crossings.push(`${file}:${line}: ${room.path} imports ${target}`);
    }
    assert.deepEqual(crossings, []);
  });

  test('nothing under src/ imports scripts/ or tests/', () => {
    const found = imports()
      .filter(({ file, target }) => file.startsWith('src/') && (target.startsWith('scripts/') || target.startsWith('tests/')))
      .map(({ file, line, target }) => `${file}:${line}: imports ${target}`);
    assert.deepEqual(found, []);
  });

  test('nothing under src/lib/ imports the gate: the model and the releases are read by it, never the other way', () => {
    const found = imports()
      .filter(({ file, target }) => file.startsWith('src/lib/') && target.startsWith('src/gate/'))
      .map(({ file, line, target }) => `${file}:${line}: imports ${target}`);
    assert.deepEqual(found, []);
    const gateRoom = roomOf('src/gate/run-gate.ts');
    assert.equal(gateRoom?.path, 'src/gate/');
    assert.ok(rooms.filter((room) => room.path.startsWith('src/lib/')).every((room) => !room.mayImport.some((door) => door.startsWith('src/gate'))));
  });

  test('the boundaries can fail: an import across them is caught', () => {
    const room = roomOf('src/lib/contract/actions.ts');
    assert.ok(room !== undefined && !room.mayImport.some((door) => 'src/sandbox/server.ts'.startsWith(door)));
    assert.ok(imports().length > 100, 'the imports are read');
  });

  test('no two files under src/ import each other: a pair that does is one concept split in two, or two sharing a third', () => {
    const importsOf = new Map<string, Set<string>>();
    for (const { file, target } of imports()) {
      if (!file.startsWith('src/')) continue;
      importsOf.set(file, (importsOf.get(file) ?? new Set()).add(target));
    }
    const pairs = [...importsOf].flatMap(([file, targets]) =>
      [...targets].filter((target) => file < target && importsOf.get(target)?.has(file)).map((target) => `${file} <-> ${target}`),
    );
    assert.deepEqual(pairs, []);
  });

  test('src/lib/ keeps at most a handful of files outside its rooms', () => {
    const loose = globSync('src/lib/*.ts', { cwd: projectDirectory });
    assert.ok(loose.length <= 5, `src/lib/ holds ${loose.length} files directly: ${loose.join(', ')}`);
  });

  test('no source file passes 500 lines: a longer one holds more than one concept', () => {
    const long = globSync(['src/**/*.{ts,astro,mjs}', 'scripts/**/*.ts'], { cwd: projectDirectory })
      .map((file) => ({ file, lines: readFileSync(path.join(projectDirectory, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 500)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    assert.deepEqual(long, []);
  });
});
