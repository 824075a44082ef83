/**
 * docs/architecture.md's map of the rooms and their doors is the table the import-boundaries test
 * holds every import to (tests/support/import-rooms.ts), and its table of rooms names every folder
 * there is: neither can drift from the code.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { projectDirectory } from '../support/contract-copy.ts';
import { roomMap, rooms } from '../support/import-rooms.ts';

const page = readFileSync(path.join(projectDirectory, 'docs/architecture.md'), 'utf8');

/** The folders directly under a folder of the project, as `src/lib/site/`. */
function foldersUnder(folder: string): string[] {
  return readdirSync(path.join(projectDirectory, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${folder}${entry.name}/`);
}

describe('the architecture page', () => {
  test('shows the map of the rooms as the import-boundaries table writes it', () => {
    const shown = /<!-- rooms:[^>]*-->\n```text\n([\s\S]*?)\n```\n<!-- \/rooms -->/.exec(page)?.[1];
    assert.ok(shown !== undefined, 'docs/architecture.md has no map between <!-- rooms: --> and <!-- /rooms -->');
    assert.equal(shown, roomMap(), 'the map differs from tests/support/import-rooms.ts: paste roomMap() into docs/architecture.md');
  });

  test('every room of the table is a folder or file that exists', () => {
    const missing = rooms.map((room) => room.path).filter((room) => !existsSync(path.join(projectDirectory, room)));
    assert.deepEqual(missing, []);
  });

  test('its table of rooms names every folder under src/ and src/lib/, and no folder that is gone', () => {
    const table = page.slice(page.indexOf('| room |'), page.indexOf('<!-- rooms:'));
    const named = new Set([...table.matchAll(/`([\w./-]+\/)`/g)].map((match) => match[1] ?? ''));
    const folders = [...foldersUnder('src/'), ...foldersUnder('src/lib/')];
    assert.deepEqual(folders.filter((folder) => ![...named].some((name) => name.startsWith(folder))), [], 'folders the page does not name');
    assert.deepEqual([...named].filter((folder) => folder.startsWith('src/') && !existsSync(path.join(projectDirectory, folder))), [], 'rooms the page names that do not exist');
  });
});
