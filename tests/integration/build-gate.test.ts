/**
 * One gate on every path: each broken contract a new user tried is refused by `npm run lint` and
 * by the build's way in to the contract (`loadGatedContract`, which `astro.config.mjs`, the dev
 * server and the servers call), with the same `file: line N: message [rule]` lines. One real
 * `astro build` and one real `astro dev` over a broken copy prove the site is never built from it.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { formatGateProblem } from '../../src/gate/gate.ts';
import { ContractRefusedError, loadGatedContract } from '../../src/gate/gated-contract.ts';
import { copyContract, copyProject, projectDirectory, type ContractCopy } from '../support/contract-copy.ts';
import { runLint } from '../support/lint-run.ts';

const note = 'openapi/components/schemas/Note.yaml';
const pauseExample = 'openapi/components/examples/PauseSubscriptionRequest.yaml';
const pauseSchema = 'openapi/components/schemas/PauseSubscriptionRequest.yaml';

/** The line of the project's file that starts with `text`, so a reworded description moves no expectation. */
function lineStarting(file: string, text: string): number {
  return readFileSync(path.join(projectDirectory, file), 'utf8').split('\n').findIndex((line) => line.startsWith(text)) + 1;
}

interface BrokenContract {
  name: string;
  breakContract(copy: ContractCopy): void;
  /** A line both paths must print, matched whole. */
  expected: RegExp;
  /** How many problems the one cause may give at most. */
  atMost?: number;
}

const brokenContracts: BrokenContract[] = [
  {
    name: 'a misspelt type, "strng"',
    breakContract: (copy) => copy.replace(note, 'type: string', 'type: strng'),
    expected: /^openapi\/components\/schemas\/Note\.yaml: line 1: `type` can be one of the following only: .* \[Redocly rule struct\]$/,
  },
  {
    name: 'an example whose subscription_id is a word',
    breakContract: (copy) => copy.replace(pauseExample, 'subscription_id: 4711', 'subscription_id: four-seven-one-one'),
    expected: /^openapi\/components\/examples\/PauseSubscriptionRequest\.yaml: line 5: .*`subscription_id` property type must be integer\. \[Redocly rule no-invalid-media-type-examples\]$/,
  },
  {
    name: 'a misspelt keyword, "maxLenght", which would silently drop the limit',
    breakContract: (copy) => copy.replace(note, 'maxLength: 500', 'maxLenght: 500'),
    expected: /^openapi\/components\/schemas\/Note\.yaml: line 2: Property `maxLenght` is not expected here\. \[Redocly rule struct\]$/,
  },
  {
    name: 'a misspelt keyword, "requried"',
    breakContract: (copy) => copy.replace(pauseSchema, 'required: [api_key', 'requried: [api_key'),
    expected: new RegExp(`^openapi/components/schemas/PauseSubscriptionRequest\\.yaml: line ${lineStarting(pauseSchema, 'required: [api_key')}: Property \`requried\` is not expected here\\. \\[Redocly rule struct\\]$`),
  },
  {
    name: 'a YAML syntax error in a file eight others reference',
    breakContract: (copy) => copy.replace(note, 'type: string', 'type: [string'),
    expected: /^openapi\/components\/schemas\/Note\.yaml: line 2: This file is not valid YAML: .* \[YAML syntax\]$/,
    atMost: 1,
  },
];

/** The problem lines `npm run lint` prints, without its summary. */
function lintLines(directory: string): { status: number | null; lines: string[] } {
  const run = runLint('--format', 'stylish', '--project', directory);
  return { status: run.status, lines: run.stdout.split('\n').filter((line) => line !== '' && !/^[✔✖] /.test(line)) };
}

async function gatedContractLines(directory: string): Promise<string[]> {
  try {
    await loadGatedContract(directory);
  } catch (error) {
    assert.ok(error instanceof ContractRefusedError, `expected a ContractRefusedError, got ${String(error)}`);
    assert.deepEqual(error.message.split('\n').slice(1), error.problems.map(formatGateProblem));
    return error.problems.map(formatGateProblem);
  }
  assert.fail('loadGatedContract accepted a contract that fails the gate');
}

describe('a broken contract is refused the same way by lint and by the build', () => {
  for (const broken of brokenContracts) {
    test(broken.name, async () => {
      const copy = copyContract();
      try {
        broken.breakContract(copy);
        const lint = lintLines(copy.directory);
        assert.equal(lint.status, 1, lint.lines.join('\n'));
        assert.ok(lint.lines.some((line) => broken.expected.test(line)), `npm run lint printed:\n${lint.lines.join('\n')}`);
        if (broken.atMost !== undefined) assert.ok(lint.lines.length <= broken.atMost, `one cause, one problem:\n${lint.lines.join('\n')}`);

        const build = await gatedContractLines(copy.directory);
        assert.deepEqual(build, lint.lines, 'the build must print exactly what lint prints');
        assert.equal(existsSync(path.join(copy.directory, '.generated/openapi/v1.json')), false, 'a refused contract must not reach the published bundle');
      } finally {
        copy.remove();
      }
    });
  }

  test('the real contract passes, and its bundle is where the site reads it', async () => {
    const copy = copyContract();
    try {
      const contract = await loadGatedContract(copy.directory);
      assert.equal(contract.document.openapi, '3.1.0');
      assert.equal(contract.jsonPath, path.join(copy.directory, '.generated/openapi/v1.json'));
      assert.ok(existsSync(contract.yamlPath));
    } finally {
      copy.remove();
    }
  });
});

describe('the site is never built or served from a refused contract', () => {
  const astro = path.join(projectDirectory, 'node_modules/astro/bin/astro.mjs');

  test('astro build stops before writing a page, printing the gate lines', () => {
    const copy = copyProject();
    try {
      copy.replace(note, 'type: string', 'type: strng');
      const run = spawnSync(process.execPath, [astro, 'build'], { cwd: copy.directory, encoding: 'utf8', timeout: 120_000 });
      assert.equal(run.status, 1, `${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /^openapi\/components\/schemas\/Note\.yaml: line 1: `type` can be one of the following only: .*\[Redocly rule struct\]$/m);
      assert.equal(existsSync(path.join(copy.directory, 'dist')), false, 'no page may be written');
    } finally {
      copy.remove();
    }
  });

  test('astro dev refuses to start', async () => {
    const copy = copyProject();
    try {
      copy.replace(pauseExample, 'subscription_id: 4711', 'subscription_id: four-seven-one-one');
      const child = spawn(process.execPath, [astro, 'dev', '--port', '0'], { cwd: copy.directory, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => child.kill(), 60_000);
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearTimeout(timer);
      assert.equal(status, 1, output);
      assert.match(output, /^openapi\/components\/examples\/PauseSubscriptionRequest\.yaml: line 5: .*\[Redocly rule no-invalid-media-type-examples\]$/m);
      assert.doesNotMatch(output, /Local\s+http/);
    } finally {
      copy.remove();
    }
  });
});
