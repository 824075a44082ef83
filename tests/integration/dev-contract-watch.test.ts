/**
 * `astro dev` follows `openapi/` (src/integrations/contract-watch.ts): a copy of the project runs
 * the real dev server, its contract's description is edited and the page follows; then the
 * contract is broken and the dev log and the page both carry the gate's line.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { copyBuildableProject, type ProjectCopy } from '../../src/bench/project-copy.ts';
import { freePort } from '../../src/lib/local-servers.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const description = 'Runs one lifecycle action on one subscription of this site.';
const edited = 'Runs one lifecycle action, as a watched edit says, on one subscription of this site.';
const secureServer = 'url: https://{site}/wp-json/service/v1';

/** Asks until `check` holds; the dev server restarts and runs the gate in between, so each try may fail. */
async function eventually<T>(what: string, attempt: () => Promise<T | undefined>, log: () => string): Promise<T> {
  for (let tries = 0; tries < 600; tries += 1) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    await sleep(250);
  }
  throw new Error(`${what} never happened; the dev server said:\n${log()}`);
}

describe('npm run dev and a contract that changes', { timeout: 300_000 }, () => {
  let copy: ProjectCopy;
  let dev: ChildProcess;
  let output = '';
  let pageUrl = '';

  before(async () => {
    copy = copyBuildableProject(projectDirectory, 'dev-watch-');
    const port = await freePort();
    pageUrl = `http://127.0.0.1:${port}/reference/endpoint/`;
    dev = spawn(process.execPath, ['node_modules/astro/bin/astro.mjs', 'dev', '--host', '127.0.0.1', '--port', String(port)], {
      cwd: copy.directory,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  after(() => {
    dev?.kill();
    copy?.remove();
  });

  const page = async (): Promise<{ status: number; text: string }> => {
    const response = await fetch(pageUrl, { headers: { Accept: 'text/html' } });
    return { status: response.status, text: await response.text() };
  };
  const edit = (file: string, search: string, replacement: string): void => {
    const full = path.join(copy.directory, file);
    const text = readFileSync(full, 'utf8');
    assert.ok(text.includes(search), `${file} has ${search}`);
    writeFileSync(full, text.replace(search, replacement));
  };

  test('serves the page from the contract, then from the edited contract', async () => {
    const first = await eventually('the first page', async () => ((await page()).status === 200 ? page() : undefined), () => output);
    assert.ok(first.text.includes(description), 'the page shows the contract’s description');
    edit('openapi/paths/action.yaml', description, edited);
    await eventually('the page with the edited description', async () => ((await page()).text.includes(edited) ? true : undefined), () => output);
  });

  test('a broken contract puts the gate’s line in the log and on the page, never the old page', async () => {
    const logBefore = output.length;
    edit('openapi/openapi.yaml', secureServer, secureServer.replace('https:', 'http:'));
    const refused = await eventually('the refusal', async () => {
      const answer = await page();
      return answer.status === 500 ? answer : undefined;
    }, () => output);
    assert.match(refused.text, /The contract fails the gate/);
    assert.match(refused.text, /openapi\/openapi\.yaml: line \d+: /);
    assert.ok(!refused.text.includes(edited), 'the old page is not served');
    await eventually('the refusal in the log', async () => (/openapi\/openapi\.yaml: line \d+: /.test(output.slice(logBefore)) ? true : undefined), () => output);

    edit('openapi/openapi.yaml', secureServer.replace('https:', 'http:'), secureServer);
    await eventually('the page once the contract passes again', async () => {
      const answer = await page();
      return answer.status === 200 && answer.text.includes(edited) ? true : undefined;
    }, () => output);
  });
});
