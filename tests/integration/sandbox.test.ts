/**
 * The sandbox where the socket or a second process is the point: served over HTTP beside a second
 * writer of its database, a body over the limit on a real connection, the gate refusing a broken
 * contract, and the command line. Its answers themselves are tested in process, in
 * tests/unit/sandbox.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bodyLimitBytes } from '../../src/sandbox/host.ts';
import { ContractRefused } from '../../src/sandbox/contract-gate.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { bundledDocument, copyContract, projectDirectory } from '../support/contract-copy.ts';
import { send, validBody } from '../support/sandbox-fixture.ts';

const workDirectory = mkdtempSync(path.join(tmpdir(), 'sandbox-test-'));
// The bundle the gate checked; only the test of a refused contract runs the gate.
const contract = readExecutableContract(bundledDocument());
let sandbox: Sandbox;

before(async () => {
  sandbox = await startSandbox({ port: 0, contract });
});
after(async () => {
  await sandbox.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** A valid body for an action on a subscription, from the document's own example. */
const body = (identifier: string, subscriptionId: number, extra: Record<string, unknown> = {}) => validBody(sandbox, identifier, subscriptionId, extra);

describe('over HTTP', () => {
  test('a body over the limit gets the 413 a web server gives, and the process goes on', async () => {
    const answer = await send(sandbox, undefined, { raw: `{"note": "${'x'.repeat(bodyLimitBytes)}"}` });
    assert.equal(answer.status, 413);
    assert.match(answer.body, /<html/);
    const next = await send(sandbox, body('cancel_subscription', 999_998));
    assert.equal(next.status, 404);
  });

  test('serialises concurrent requests on one subscription, never half-applied', async () => {
    const file = path.join(workDirectory, 'busy.sqlite');
    const busy = await startSandbox({ port: 0, contract, db: file, seed: [{ id: 1, status: 'active' }] });
    // A second writer in another process works on the same subscription through the same file.
    const writer = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { openStore } from ${JSON.stringify(path.join(projectDirectory, 'src/sandbox/store.ts'))};
         const store = openStore(${JSON.stringify(file)}, ['active', 'on-hold', 'cancelled']);
         for (let i = 0; i < 1000; i += 1) store.act(1, (current) => ({ change: { action: 'writer', to: current === 'active' ? 'on-hold' : 'active' }, result: 0 }));
         store.close();`,
      ],
      { stdio: 'inherit' },
    );
    const finished = new Promise<number | null>((resolve) => writer.on('exit', resolve));
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, index) => send(busy, body(index % 2 === 0 ? 'pause_subscription' : 'resume_subscription', 1))),
      );
      assert.equal(await finished, 0);
      for (const answer of answers) assert.ok([200, 409].includes(answer.status), answer.body);
      const history = busy.history(1);
      const changes = answers.filter((answer) => answer.status === 200 && answer.json().changed === true).length;
      assert.equal(history.length, 1000 + changes);
      history.forEach((entry, index) => {
        if (index > 0) assert.equal(entry.previousStatus, history[index - 1]?.status, `entry ${index} follows the one before`);
      });
      assert.equal(busy.subscriptions()[0]?.status, history.at(-1)?.status);
    } finally {
      await busy.close();
    }
  });
});

describe('the command line', () => {
  test('lists a large seed\'s first subscriptions one per line and sums up the rest by status', async () => {
    const { states } = contract.model.lifecycle;
    const { subject } = contract.model.envelope;
    const seed = Array.from({ length: 1000 }, (_, index) => ({ id: index + 1, status: states[index % states.length] }));
    const file = path.join(workDirectory, 'large-seed.json');
    writeFileSync(file, JSON.stringify(seed));
    const child = spawn(process.execPath, [path.join(projectDirectory, 'scripts/sandbox.ts'), '--port', '0', '--seed', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const started = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Ctrl+C')) resolve();
      });
    });
    await started;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    const listed = stdout.split('\n').filter((line) => line.startsWith(`    ${subject} `));
    assert.equal(listed.length, 40);
    assert.equal(listed[0], `    ${subject} 1: ${states[0]}`);
    const rest = seed.slice(40);
    const counts = states.map((status) => `${rest.filter((item) => item.status === status).length} ${status}`).filter((count) => !count.startsWith('0 '));
    assert.match(stdout, new RegExp(`\\n {4}and 960 more \\(${counts.join(', ')}\\), up to ${subject} 1000\\n`));
  });
});

describe('refuses to start', () => {
  test('on a contract the gate fails, printing its file: line lines', async () => {
    const copy = copyContract();
    try {
      copy.replace('openapi/components/schemas/Note.yaml', 'type: string', 'type: strng');
      await assert.rejects(startSandbox({ port: 0, projectDirectory: copy.directory }), (error: unknown) => {
        assert.ok(error instanceof ContractRefused);
        assert.ok(error.lines.some((line) => /^openapi\/components\/schemas\/Note\.yaml: line \d+: /.test(line)), error.lines.join('\n'));
        return true;
      });
    } finally {
      copy.remove();
    }
  });

  test('from the command line, with the seed problem and exit code 1', async () => {
    const file = path.join(workDirectory, 'bad-seed.json');
    writeFileSync(file, '{"id": 1}');
    const child = spawn(process.execPath, [path.join(projectDirectory, 'scripts/sandbox.ts'), '--port', '0', '--seed', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /bad-seed\.json: the seed is not usable:\n {2}- expected a JSON array/);
  });
});
