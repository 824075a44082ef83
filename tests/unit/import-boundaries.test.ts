/**
 * The rooms of the code and the doors between them (README, "How the code is laid out"). Each
 * room lists the rooms it may import from; an import through any other door fails this test with
 * the file and line, so a boundary stays a boundary.
 */
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { projectDirectory } from '../support/contract-copy.ts';

interface Room {
  /** Where the room is, as a path prefix from the project's root. */
  path: string;
  /** What it may import besides itself: room paths, or packages' root files such as `package.json`. */
  mayImport: string[];
}

const bottom = ['src/lib/contract/', 'src/lib/http/', 'src/lib/prose.ts', 'src/lib/spec-rules.ts', 'src/lib/product-facts.ts', 'src/lib/node-engine.ts', 'src/lib/local-servers.ts', 'src/lib/measures/', 'package.json'];
const library = [...bottom, 'src/lib/releases/', 'src/lib/samples/', 'src/lib/site/', 'src/lib/workflows/', 'src/site-config.ts'];

/** Most specific first: a file belongs to the first room whose path it starts with. */
const rooms: Room[] = [
  // The model reads the document and nothing else of the project.
  { path: 'src/lib/contract/', mayImport: bottom },
  { path: 'src/lib/http/', mayImport: [] },
  // The releases read the model; the gate, which judges them, is a consumer above both.
  { path: 'src/lib/releases/', mayImport: bottom },
  { path: 'src/lib/samples/', mayImport: bottom },
  // The lifecycle as workflows: the model, and the one retry policy for the throttled workflow.
  { path: 'src/lib/workflows/', mayImport: [...bottom, 'src/lib/samples/'] },
  { path: 'src/lib/site/', mayImport: [...bottom, 'src/lib/releases/', 'src/lib/samples/', 'src/site-config.ts'] },
  { path: 'src/lib/', mayImport: bottom },
  // The gate of `npm run lint` and of every loader of the contract: a consumer of the model and the releases,
  // which runs what the consumers derive from the contract so that it refuses first whatever they would
  // refuse: the samples' statuses and the route arguments (a file of the sandbox that imports only the model).
  // It also reads the site's routes, to check the links of the descriptions (navigation.ts imports only the model).
  // It writes and checks the lifecycle's Arazzo workflows, which the site publishes beside the bundle.
  { path: 'src/gate/', mayImport: [...bottom, 'src/lib/releases/', 'src/lib/samples/', 'src/lib/site/navigation.ts', 'src/lib/workflows/'] },
  { path: 'src/sandbox/', mayImport: [...library, 'src/gate/'] },
  { path: 'src/conformance/', mayImport: [...library, 'src/sandbox/'] },
  { path: 'src/mcp-server/', mayImport: [...library, 'src/sandbox/', 'src/gate/'] },
  { path: 'src/wordpress/', mayImport: [...library, 'src/sandbox/', 'src/conformance/'] },
  { path: 'src/contract-tools/', mayImport: [...library, 'src/sandbox/', 'src/conformance/', 'src/gate/'] },
  { path: 'src/host/', mayImport: library },
  // Redocly's Respect run against a sandbox at build time, for the workflows page.
  { path: 'src/respect/', mayImport: [...library, 'src/sandbox/'] },
  { path: 'src/bench/', mayImport: [...library, 'src/sandbox/', 'src/mcp-server/', 'src/host/'] },
  // The site: pages, components and guides may read any room of src/, never scripts/ or tests/.
  { path: 'src/', mayImport: ['src/', 'package.json'] },
  // Thin entry points: any room of src/, and the rule map's checks in tests/spec/.
  { path: 'scripts/', mayImport: ['src/', 'scripts/', 'tests/spec/', 'package.json'] },
];

const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function roomOf(file: string): Room | undefined {
  return rooms.find((room) => file.startsWith(room.path));
}

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
