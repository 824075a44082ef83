/**
 * Every retrying client of the errors guide reads `Retry-After` as the one table of cases says
 * (tests/support/retry-after-cases.ts): its own parser, copied whole by readers, run by the
 * language's real program (Node, PHP, Python), at the moment each case names.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import type { SampleLanguage } from '../../src/lib/samples/code-samples.ts';
import { retryingClientLanguages, retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { retryAfterCases } from '../support/retry-after-cases.ts';
import { missingRunner } from '../support/run-sample.ts';

function clientCode(language: SampleLanguage): string {
  const model = readReferenceModel(bundledDocument());
  const [first] = model.actions;
  assert.ok(first, 'the contract has an action');
  const sample = retryingClientSamples(model.endpoint, sampleStatuses(model.responses), first.requestExample.value).find((candidate) => candidate.language === language);
  assert.ok(sample, `a ${language} retrying client`);
  return sample.code;
}

/** The text of one top-level function of a client, from its opening line to its closing brace. */
function functionText(code: string, opening: string): string {
  const start = code.indexOf(opening);
  const end = code.indexOf('\n}\n', start);
  assert.ok(start >= 0 && end > start, `the client has ${opening}…}`);
  return code.slice(start, end + 3);
}

const cases = retryAfterCases.map(({ header, nowIso }) => ({ header, now: Date.parse(nowIso) / 1000 }));

/** Each language's reading of every case, in seconds, null for unreadable: its parser run as the reader runs it. */
const readers: Record<string, (code: string, directory: string) => Promise<(number | null)[]>> = {
  async javascript(code) {
    const module = (await import(`data:text/javascript,${encodeURIComponent(functionText(code, 'export function retryAfter('))}`)) as {
      retryAfter: (value: string, now: number) => number | null;
    };
    return cases.map(({ header, now }) => {
      const milliseconds = module.retryAfter(header, now * 1000);
      return milliseconds === null ? null : milliseconds / 1000;
    });
  },
  async php(code, directory) {
    const file = path.join(directory, 'read.php');
    const reader = `<?php\n${functionText(code, 'function retry_after(')}\n$cases = json_decode( file_get_contents( 'php://stdin' ), true );\necho json_encode( array_map( function ( $c ) { return retry_after( $c['header'], (float) $c['now'] ); }, $cases ) );\n`;
    writeFileSync(file, reader);
    return JSON.parse(execFileSync('php', [file], { input: JSON.stringify(cases), encoding: 'utf8' })) as (number | null)[];
  },
  async python(code, directory) {
    // The client's module as a reader saves it; its example runs only as a script.
    writeFileSync(path.join(directory, 'retrying_client.py'), code);
    const reader = 'import json, sys\nfrom retrying_client import retry_after\nprint(json.dumps([retry_after(c["header"], c["now"]) for c in json.load(sys.stdin)]))\n';
    return JSON.parse(execFileSync('python3', ['-c', reader], { cwd: directory, input: JSON.stringify(cases), encoding: 'utf8' })) as (number | null)[];
  },
};

describe('[7.1] every retrying client reads Retry-After as the one table says', () => {
  test('the table covers both forms and what is neither', () => {
    assert.ok(retryAfterCases.some((entry) => /^\s*\d+\s*$/.test(entry.header) && entry.expectedSeconds !== undefined));
    assert.ok(retryAfterCases.some((entry) => / GMT\s*$/.test(entry.header) && entry.expectedSeconds !== undefined));
    assert.ok(retryAfterCases.filter((entry) => entry.expectedSeconds === undefined).length >= 10);
  });

  for (const language of retryingClientLanguages) {
    test(`the ${language} client`, { skip: missingRunner(language) }, async () => {
      const read = readers[language];
      assert.ok(read, `the test knows how to run the ${language} client's parser`);
      const directory = mkdtempSync(path.join(tmpdir(), `retry-after-${language}-`));
      try {
        const readings = await read(clientCode(language), directory);
        const wrong = retryAfterCases.flatMap((entry, index) => {
          const got = readings[index] ?? null;
          const expected = entry.expectedSeconds ?? null;
          const same = got === null || expected === null ? got === expected : Math.abs(got - expected) < 0.001;
          return same ? [] : [`${JSON.stringify(entry.header)} at ${entry.nowIso}: read ${got === null ? 'unreadable' : `${got} s`}, expected ${expected === null ? 'unreadable' : `${expected} s`} (${entry.why})`];
        });
        assert.deepEqual(wrong, []);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  }
});
