/**
 * Mozilla's HTTP Observatory scanner (`@mdn/mdn-http-observatory`), run against a served copy of
 * the site: the same tests and grading a security reviewer gets on observatory.mozilla.org.
 *
 * The package is installed with its install scripts denied (`allowScripts` in package.json): they
 * download the HSTS preload list and certificate bundles from the internet. The scanner then lacks
 * one file, `conf/hsts-preload.json`; an empty list is written in its place, which only means no
 * host counts as preloaded, and a loopback address never is.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** The scanner's two tests that only the host can pass: neither is visible over loopback HTTP. */
export const hostOnlyTests: ReadonlySet<string> = new Set(['redirection', 'strict-transport-security']);

export interface ObservatoryTest {
  name: string;
  pass: boolean;
  result: string;
  scoreModifier: number;
}

export interface ObservatoryReport {
  grade: string;
  score: number;
  testsPassed: number;
  testsQuantity: number;
  tests: ObservatoryTest[];
  /** Grade and score the same tests give once the host's two pass, which add nothing themselves. */
  withHostTests: { grade: string; score: number };
}

interface ScannerOutput {
  error?: string;
  scan?: { grade: string; score: number; testsPassed: number; testsQuantity: number };
  tests?: Record<string, { pass: boolean; result: string; scoreModifier: number }>;
}

function packageDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@mdn/mdn-http-observatory/package.json'));
}

/** Writes the HSTS preload list the denied install script would have downloaded, as an empty list. */
export function ensureScannerConfiguration(): string {
  const directory = packageDirectory();
  const preloadList = path.join(directory, 'conf', 'hsts-preload.json');
  if (!existsSync(preloadList)) writeFileSync(preloadList, '{}\n');
  return directory;
}

/**
 * The grade the Observatory gives these tests once the host's two pass (they then add nothing),
 * scored as its scanner scores: bonuses count only when the penalties leave at least its
 * threshold for extra credit. The threshold and the grade come from its own grader.
 */
async function gradeWithHostTests(directory: string, tests: readonly ObservatoryTest[]): Promise<{ grade: string; score: number }> {
  const { getGradeForScore } = (await import(pathToFileURL(path.join(directory, 'src/grader/grader.js')).href)) as {
    getGradeForScore(score: number): { grade: string; score: number };
  };
  const { MINIMUM_SCORE_FOR_EXTRA_CREDIT } = (await import(pathToFileURL(path.join(directory, 'src/grader/charts.js')).href)) as {
    MINIMUM_SCORE_FOR_EXTRA_CREDIT: number;
  };
  const modifiers = tests.filter((test) => !hostOnlyTests.has(test.name)).map((test) => test.scoreModifier);
  const withoutBonuses = 100 + modifiers.filter((modifier) => modifier < 0).reduce((sum, modifier) => sum + modifier, 0);
  const withBonuses = 100 + modifiers.reduce((sum, modifier) => sum + modifier, 0);
  return getGradeForScore(withoutBonuses >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonuses : withoutBonuses);
}

/**
 * Scans the site at `origin` (an `http://host:port` address) with the scanner's own command,
 * started directly rather than through its wrapper, which only points Node at the certificate
 * bundle the denied install script would have fetched; plain HTTP needs none.
 */
export async function scanWithObservatory(origin: string): Promise<ObservatoryReport> {
  const directory = ensureScannerConfiguration();
  const target = new URL(origin).host;
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(directory, 'src/scan.js'), target], {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; message: string }) => {
    if (error.stdout) return { stdout: error.stdout };
    throw new Error(`The Observatory scanner did not run: ${error.message}`);
  });
  const output = JSON.parse(stdout) as ScannerOutput;
  if (output.error !== undefined || output.scan === undefined || output.tests === undefined) {
    throw new Error(`The Observatory scanner could not scan ${target}: ${output.error ?? stdout}`);
  }
  const tests = Object.entries(output.tests).map(([name, test]) => ({
    name,
    pass: test.pass,
    result: test.result,
    scoreModifier: test.scoreModifier,
  }));
  return {
    grade: output.scan.grade,
    score: output.scan.score,
    testsPassed: output.scan.testsPassed,
    testsQuantity: output.scan.testsQuantity,
    tests,
    withHostTests: await gradeWithHostTests(directory, tests),
  };
}
