/**
 * The project's one ZIP writer (src/lib/packaging/zip.ts), read back by Python's own zipfile: the
 * same entries make the same bytes, every entry keeps its name, content and date, and a folder is
 * a folder. Without python3 the reading is skipped, and says so.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { zipArchive, type ZipEntry } from '../../src/lib/packaging/zip.ts';

const entries: ZipEntry[] = [
  { name: 'package/', content: Buffer.alloc(0) },
  { name: 'package/readme.txt', content: Buffer.from('A line of text, and one with a character past ASCII: é.\n'.repeat(20)) },
  { name: 'package/empty.txt', content: Buffer.alloc(0) },
];

const python = spawnSync('python3', ['--version']).status === 0;

test('the same entries make the same bytes, and the date changes only the date', () => {
  assert.deepEqual(zipArchive(entries), zipArchive(entries));
  const later = zipArchive(entries, { date: new Date(Date.UTC(2026, 0, 1)) });
  assert.equal(later.length, zipArchive(entries).length);
  assert.notDeepEqual(later, zipArchive(entries));
  assert.throws(() => zipArchive(entries, { date: new Date(Date.UTC(1979, 11, 31)) }), /before 1980/);
});

test('Python\'s zipfile reads every entry back: its name, content, date and kind', { skip: python ? false : 'python3 is not installed' }, () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'zip-archive-'));
  try {
    const file = path.join(directory, 'archive.zip');
    writeFileSync(file, zipArchive(entries, { date: new Date(Date.UTC(2026, 0, 1)) }));
    const read = spawnSync('python3', ['-c', `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as archive:
    assert archive.testzip() is None
    print(json.dumps([{"name": info.filename, "content": archive.read(info).decode("utf-8"), "date": list(info.date_time[:3]), "folder": info.is_dir()} for info in archive.infolist()]))
`, file], { encoding: 'utf8' });
    assert.equal(read.status, 0, read.stderr);
    const listed = JSON.parse(read.stdout) as { name: string; content: string; date: number[]; folder: boolean }[];
    assert.deepEqual(
      listed,
      entries.map((entry) => ({ name: entry.name, content: entry.content.toString('utf8'), date: [2026, 1, 1], folder: entry.name.endsWith('/') })),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
