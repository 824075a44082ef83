/**
 * The MCP Inspector's command line, as a developer would point it at the product-information
 * server: it lists the tools and calls each one. It needs Node 22.19 or newer, so it runs on the
 * project's own Node.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startProductInformationServer, type RunningServer } from '../../src/mcp-server/http.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';

const run = promisify(execFile);
const inspectorPackage = path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json'));
const inspectorBin = (JSON.parse(readFileSync(path.join(inspectorPackage, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
const cli = path.join(inspectorPackage, inspectorBin['mcp-inspector'] ?? Object.values(inspectorBin)[0] ?? '');

let server: RunningServer;
before(async () => {
  ensureBuiltSite(path.resolve(import.meta.dirname, '../..'));
  server = await startProductInformationServer({ port: 0 });
});
after(async () => {
  await server.close();
});

async function inspectorRun(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [cli, '--cli', server.url, '--transport', 'http', ...args], { timeout: 60_000 });
}

async function inspector(...args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse((await inspectorRun(...args)).stdout) as Record<string, unknown>;
}

const calls: Record<string, string[]> = {
  api_overview: [],
  action_details: ['action=resume_subscription'],
  lifecycle: ['status=cancelled'],
  code_sample: ['action=pause_subscription', 'language=curl'],
  check_request: ['body={"action":"pause_subscription","subscription_id":4711,"api_key":"<API_KEY>"}', 'current_status=cancelled'],
  search_docs: ['query=Retry-After'],
  read_page: ['url=/quickstart/'],
  product_information: ['topic=editions'],
  subscription_data: ['question=Where is subscription 4711?'],
};

describe('the MCP Inspector CLI', () => {
  test('--strict finds no schema portability problem in any tool', async () => {
    const { stderr } = await inspectorRun('--method', 'tools/list', '--strict');
    assert.doesNotMatch(stderr, /Warning|Error|portability/i, stderr);
  });

  test('lists the tools and calls each one', async () => {
    const listed = await inspector('--method', 'tools/list');
    const names = (listed.tools as { name: string }[]).map((tool) => tool.name);
    assert.deepEqual(names, Object.keys(calls));
    for (const [name, toolArgs] of Object.entries(calls)) {
      const result = await inspector('--method', 'tools/call', '--tool-name', name, ...toolArgs.flatMap((arg) => ['--tool-arg', arg]));
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result).slice(0, 300)}`);
      assert.ok(result.structuredContent, `${name} answers with structuredContent`);
    }
  });
});
