/**
 * The conformance suite's modules form no cycle: each stage of a run (placing the subscriptions,
 * judging an answer, the lifecycle, the report) reads the vocabulary in `case-model.ts` and
 * `results.ts`, never a file that reads it back.
 */
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { projectDirectory } from '../support/contract-copy.ts';

const suiteFolder = 'src/conformance';
const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.\/[^'"]+)['"]/g;

/** Each file of the suite with the files of the suite it imports (type imports and re-exports too). */
function suiteImports(): Map<string, string[]> {
  const files = globSync('*.ts', { cwd: path.join(projectDirectory, suiteFolder) });
  return new Map(
    files.map((file) => {
      const text = readFileSync(path.join(projectDirectory, suiteFolder, file), 'utf8');
      return [file, [...text.matchAll(importPattern)].map((match) => path.basename(match[1] ?? ''))];
    }),
  );
}

/** The first cycle found, as the files along it, or undefined. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (file: string, trail: string[]): string[] | undefined => {
    if (trail.includes(file)) return [...trail.slice(trail.indexOf(file)), file];
    if (done.has(file)) return undefined;
    for (const target of graph.get(file) ?? []) {
      const cycle = visit(target, [...trail, file]);
      if (cycle !== undefined) return cycle;
    }
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file, []);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

describe('the conformance suite’s modules', () => {
  test('no file of the suite imports, through any chain, a file that imports it', () => {
    const graph = suiteImports();
    assert.ok(graph.size > 10, `${graph.size} files read`);
    assert.equal(findCycle(graph)?.join(' → '), undefined);
  });

  test('the cycle finder finds a cycle where there is one', () => {
    assert.deepEqual(findCycle(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']]])), ['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  });

  test('runConformance only orders the stages: each stage is a module of its own', () => {
    const text = readFileSync(path.join(projectDirectory, suiteFolder, 'runner.ts'), 'utf8');
    const start = text.indexOf('export async function runConformance');
    const length = text.slice(start).split('\n').findIndex((line) => line === '}') + 1;
    assert.ok(start > 0 && length < 100, `runConformance is ${length} lines`);
  });
});
