/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`), pointed at the
 * product-information server as at any server: the scenarios that apply to a stateless,
 * read-only server over Streamable HTTP. The suite's other scenarios call the tools, prompts and
 * resources of its own reference server (`test_simple_text`, `test_image_content`, ...), which
 * this server has no reason to have.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startProductInformationServer, type RunningServer } from '../../src/mcp-server/http.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';

const run = promisify(execFile);
const suitePackage = path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json'));
const suiteBin = (JSON.parse(readFileSync(path.join(suitePackage, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
const cli = path.join(suitePackage, suiteBin.conformance ?? '');

/** The scenarios for a server like this one, by what they prove. */
const scenarios = {
  'server-initialize': 'the initialize handshake of a 2025-era client',
  ping: 'the ping utility',
  'tools-list': 'the tool list, with valid tool definitions',
  'dns-rebinding-protection': 'a Host or Origin that is not the server’s is refused; its own is accepted',
} as const;

let server: RunningServer;
let workspace: string;
before(async () => {
  ensureBuiltSite(path.resolve(import.meta.dirname, '../..'));
  server = await startProductInformationServer({ port: 0 });
  workspace = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
});
after(async () => {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('[1.5a] the official MCP conformance scenarios for a read-only Streamable HTTP server', () => {
  for (const [scenario, proves] of Object.entries(scenarios)) {
    test(`${scenario}: ${proves}`, async () => {
      let output: string;
      try {
        const { stdout, stderr } = await run(process.execPath, [cli, 'server', '--url', server.url, '--scenario', scenario], {
          cwd: workspace,
          timeout: 120_000,
          env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
        });
        output = `${stdout}\n${stderr}`;
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string };
        assert.fail(`the ${scenario} scenario failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
      }
      const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(plain);
      assert.ok(summary, `the suite printed no result:\n${plain}`);
      const [, passed = '0', total = '0', failures = '1'] = summary;
      assert.ok(Number(total) > 0, 'the scenario ran at least one check');
      assert.equal(Number(failures), 0, plain);
      assert.equal(passed, total, plain);
    });
  }
});
