/**
 * `npm run bench:surfaces`: what reading the client libraries' public surfaces costs the contract's
 * gate when the contract or a generator changed (src/clients/surface/), beside the simplest program
 * doing the same work, in one run:
 * - each library's share of `generateClientSurfaces` (PHP: its files generated and read; Python:
 *   its package written and read by `python3`'s `ast`; TypeScript: its declarations compiled and
 *   read), timed in process, the three in turn each round;
 * - the Python reader (surface_reader.py over the written package) beside a bare
 *   `python3 -c 'import ast, json'`, which starts the same interpreter and loads the same modules,
 *   alternating each round.
 * Medians of the rounds, and their ratios. Not a timed test: it prints and asserts nothing.
 *
 *   npm run bench:surfaces [-- --rounds 5]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { phpPackageFiles } from '../src/clients/php/generate.ts';
import { pythonImportName, writePythonPackage } from '../src/clients/python/generate.ts';
import { phpSurface } from '../src/clients/php/surface-reader.ts';
import { pythonCommand, pythonSurface } from '../src/clients/python/surface-reader.ts';
import { generateClientSurfaces, generatorContract } from '../src/clients/surface/surfaces.ts';
import { median } from '../src/lib/measures/statistics.ts';
import { loadGatedContract } from '../src/sandbox/contract-gate.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const usage = 'Usage: npm run bench:surfaces -- [--rounds N]';
const { values } = scriptArguments(usage, { rounds: { type: 'string' } });
const rounds = wholeNumberOption(usage, 'rounds', values.rounds, 5, 1);
const projectDirectory = path.resolve(import.meta.dirname, '..');

const { document } = await loadGatedContract(projectDirectory);
const contract = generatorContract(document);

function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

const work = mkdtempSync(path.join(tmpdir(), 'bench-surfaces-'));
const figures = { all: [] as number[], php: [] as number[], python: [] as number[], reader: [] as number[], bare: [] as number[] };
const loadAtStart = loadavg()[0] ?? 0;
try {
  // One uncounted round, so that the first round's module loading and compilation count nowhere.
  generateClientSurfaces(document);
  for (let round = 0; round < rounds; round += 1) {
    const folder = path.join(work, `python-${round}`);
    figures.all.push(timed(() => generateClientSurfaces(document)));
    figures.php.push(timed(() => phpSurface(phpPackageFiles(contract))));
    figures.python.push(
      timed(() => {
        writePythonPackage(contract, folder);
        return pythonSurface(path.join(folder, pythonImportName));
      }),
    );
    figures.bare.push(timed(() => execFileSync(pythonCommand, ['-c', 'import ast, json'], { stdio: 'ignore' })));
    figures.reader.push(timed(() => pythonSurface(path.join(folder, pythonImportName))));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const all = median(figures.all);
const php = median(figures.php);
const python = median(figures.python);
const reader = median(figures.reader);
const bare = median(figures.bare);
console.log(`${new Date().toISOString()}, ${rounds} rounds, one-minute load ${loadAtStart.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end; medians`);
console.log('| Work | Median | Share or ratio |');
console.log('|---|---:|---:|');
console.log(`| the three surfaces generated and read | ${ms(all)} | 1 |`);
console.log(`| PHP: files generated, read | ${ms(php)} | ${(php / all).toFixed(2)} of the three |`);
console.log(`| Python: package written, read by python3 | ${ms(python)} | ${(python / all).toFixed(2)} of the three |`);
console.log(`| TypeScript: declarations compiled, read (the rest) | ${ms(Math.max(0, all - php - python))} | ${(Math.max(0, all - php - python) / all).toFixed(2)} of the three |`);
console.log(`| surface_reader.py over the package | ${ms(reader)} | ${(reader / bare).toFixed(2)} times the bare interpreter |`);
console.log(`| bare python3 -c 'import ast, json' | ${ms(bare)} | 1 |`);
