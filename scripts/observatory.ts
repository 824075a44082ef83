/**
 * `npm run observatory`: serves the built site (`dist/`) as the host does and scans it with
 * Mozilla's HTTP Observatory scanner, then prints its grade, its score and every test. The two
 * tests only the host can pass (HTTPS redirection, HSTS) fail over loopback HTTP; the last line
 * gives the grade once they pass. Exits non-zero when any other test fails.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { hostOnlyTests, scanWithObservatory } from '../src/security/observatory.ts';
import { serveLikeAStaticHost } from '../src/host/static-host.ts';
import { scriptArguments } from './script-options.ts';

scriptArguments('Usage: npm run observatory (no options; run `npm run build` first)', {});

const distDirectory = path.resolve(import.meta.dirname, '../dist');
if (!existsSync(distDirectory)) {
  console.error('There is no dist/ to scan yet: run `npm run build` first.');
  process.exit(1);
}

const site = await serveLikeAStaticHost(distDirectory);
try {
  const report = await scanWithObservatory(site.origin);
  console.log(`HTTP Observatory on ${site.origin}/: grade ${report.grade}, score ${report.score}, ${report.testsPassed} of ${report.testsQuantity} tests passed`);
  for (const test of report.tests) {
    const mark = test.pass ? 'pass' : hostOnlyTests.has(test.name) ? 'host' : 'FAIL';
    console.log(`  ${mark.padEnd(4)}  ${test.name.padEnd(30)} ${String(test.scoreModifier).padStart(4)}  ${test.result}`);
  }
  console.log(`With the host's HTTPS redirection and HSTS passing: grade ${report.withHostTests.grade}, score ${report.withHostTests.score}`);
  if (report.tests.some((test) => !test.pass && !hostOnlyTests.has(test.name))) process.exitCode = 1;
} finally {
  await site.close();
}
