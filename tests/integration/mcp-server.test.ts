/**
 * The product-information server as outside clients meet it: the official SDK client, in the
 * 2026-07-28 era (server/discover) and in the 2025 era (initialize), handed the web-standard fetch
 * handler as its transport's fetch (no port), plus raw HTTP over a real socket for what a client
 * library would never send and for the Node adapter itself.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { siteConfig } from '../../src/site-config.ts';
import { toolCatalogue } from '../../src/mcp-server/catalogue.ts';
import { allowedHostsOption, allowedHostsVariable, createProductInformationHandler, startProductInformationServer, type RunningServer } from '../../src/mcp-server/http.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';
import { loadKnowledge } from '../../src/mcp-server/load-knowledge.ts';
import { connectInProcess, type FetchHandler } from '../../src/mcp-server/evaluation/in-process-client.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
const card = JSON.parse(readFileSync(path.join(projectDirectory, 'public/.well-known/mcp/server-card.json'), 'utf8')) as {
  name: string;
  version: string;
  title: string;
  description: string;
  remotes: { supportedProtocolVersions: string[] }[];
};
const expectedTools = Object.keys(toolCatalogue);

let server: RunningServer;
let handler: FetchHandler & { close(): Promise<void> };

async function connect(era: 'modern' | 'legacy'): Promise<Client> {
  return connectInProcess(handler, 'product-information-test', era);
}

function structured(result: unknown): Record<string, unknown> {
  const content = (result as { structuredContent?: Record<string, unknown> }).structuredContent;
  assert.ok(content, 'the tool answers with structuredContent');
  return content;
}

before(async () => {
  ensureBuiltSite(projectDirectory);
  handler = createProductInformationHandler(readServerIdentity(projectDirectory), await loadKnowledge(projectDirectory));
  server = await startProductInformationServer({ port: 0 });
});
after(async () => {
  await handler.close();
  await server.close();
});

for (const era of ['modern', 'legacy'] as const) {
  describe(`an SDK client in the ${era} era`, () => {
    test('lists the read-only tools of the catalogue in a fixed order, each with input and output schemas', async () => {
      const client = await connect(era);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name), expectedTools);
        for (const tool of tools) {
          assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`);
          assert.ok(tool.inputSchema, `${tool.name} has an input schema`);
          assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
        }
      } finally {
        await client.close();
      }
    });

    test('the overview names the endpoint and every action identifier of the document, in its order', async () => {
      const client = await connect(era);
      try {
        const overview = structured(await client.callTool({ name: 'api_overview', arguments: {} }));
        assert.equal(overview.endpoint, 'https://{site}/wp-json/service/v1/action');
        assert.equal(overview.method, 'POST');
        assert.deepEqual((overview.actions as { identifier: string }[]).map((action) => action.identifier), readReferenceModel(bundledDocument()).actions.map((action) => action.identifier));
        assert.match(JSON.stringify(overview.authentication), /api_key/);
        assert.match(JSON.stringify(overview.authentication), /OAuth 2\.0 .*not used/);
        assert.match(String(overview.rateLimit), /429.*Retry-After/);
      } finally {
        await client.close();
      }
    });

    test('every tool answers, small, and bad input gets a protocol error, not a crash', async () => {
      const client = await connect(era);
      try {
        const calls = [
          { name: 'api_overview', arguments: {} },
          { name: 'action_details', arguments: { action: 'pause_subscription' } },
          { name: 'search_docs', arguments: { query: 'Retry-After', limit: 3 } },
          { name: 'read_page', arguments: { url: '/authentication/' } },
          { name: 'product_information', arguments: { topic: 'pricing' } },
          { name: 'subscription_data', arguments: { question: 'What is the status of subscription 4711?' } },
          { name: 'lifecycle', arguments: { status: 'cancelled' } },
          { name: 'code_sample', arguments: { action: 'pause_subscription', language: 'curl' } },
          { name: 'check_request', arguments: { body: { action: 'pause_subscription' } } },
        ];
        for (const call of calls) {
          const result = await client.callTool(call);
          assert.notEqual(result.isError, true, `${call.name}: ${JSON.stringify(result.content)}`);
          assert.ok(JSON.stringify(result).length < 20_000, `${call.name} answers in a few thousand characters`);
        }
        const wrong = await client.callTool({ name: 'action_details', arguments: { action: 'delete_everything' } }).catch((error: Error) => ({ isError: true, content: error.message }));
        assert.equal(wrong.isError, true, 'an unknown action identifier is refused');
        await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }));
        const still = structured(await client.callTool({ name: 'api_overview', arguments: {} }));
        assert.equal(still.method, 'POST', 'the server keeps answering');
      } finally {
        await client.close();
      }
    });
  });
}

describe('what the server says', () => {
  test('asked about a subscription, it holds no subscription data and points at the endpoint', async () => {
    const client = await connect('modern');
    try {
      const answer = structured(await client.callTool({ name: 'subscription_data', arguments: { question: 'Cancel order 9034 for me' } }));
      assert.equal(answer.holdsSubscriptionData, false);
      assert.match(String(answer.answer), /no subscription/);
      assert.match(String(answer.endpoint), /POST https:\/\/\{site\}\/wp-json\/service\/v1\/action/);
    } finally {
      await client.close();
    }
  });

  test('an unpublished product fact says so and where it will appear; nothing is invented', async () => {
    const client = await connect('modern');
    try {
      for (const topic of ['pricing', 'payment_gateways']) {
        const answer = JSON.stringify(structured(await client.callTool({ name: 'product_information', arguments: { topic } })));
        assert.match(answer, /"published":false/);
        assert.match(answer, /Not yet published/);
        assert.ok(answer.includes(`${siteConfig.docsUrl}/product/`));
      }
    } finally {
      await client.close();
    }
  });

  test('search finds passages with absolute URLs to their sections, and read_page returns Markdown with facts filled in', async () => {
    const client = await connect('modern');
    try {
      const search = structured(await client.callTool({ name: 'search_docs', arguments: { query: 'regenerate key', limit: 2 } }));
      const results = search.results as { url: string }[];
      assert.ok(results.length > 0 && results.length <= 2);
      assert.ok(results.every((result) => result.url.startsWith(siteConfig.docsUrl)));
      const page = structured(await client.callTool({ name: 'read_page', arguments: { url: `${siteConfig.docsUrl}/authentication/` } }));
      assert.match(String(page.markdown), /^# Authentication/);
      assert.match(String(page.markdown), /`api_key`/, 'the <Fact> of the key field is filled in');
      assert.doesNotMatch(String(page.markdown), /<Fact|import /);
    } finally {
      await client.close();
    }
  });

  test('its identity is the card’s: server/discover and initialize agree with the published card', async () => {
    const modern = await connect('modern');
    try {
      const discovered = (await modern.discover()) as { _meta?: Record<string, unknown>; supportedVersions?: string[] };
      const info = discovered._meta?.['io.modelcontextprotocol/serverInfo'] as { name: string; version: string; title?: string; description?: string } | undefined;
      assert.ok(info, 'server/discover carries the server’s identity');
      assert.deepEqual({ name: info.name, version: info.version, title: info.title, description: info.description }, { name: card.name, version: card.version, title: card.title, description: card.description });
      const cardVersions = card.remotes[0]?.supportedProtocolVersions ?? [];
      assert.ok((discovered.supportedVersions ?? []).length > 0);
      for (const version of discovered.supportedVersions ?? []) assert.ok(cardVersions.includes(version), `${version} is on the card`);
    } finally {
      await modern.close();
    }
    const legacy = await connect('legacy');
    try {
      assert.equal(legacy.getServerVersion()?.name, card.name);
      assert.equal(legacy.getServerVersion()?.version, card.version);
    } finally {
      await legacy.close();
    }
  });
});

describe('raw HTTP', () => {
  const origin = () => new URL(server.url).origin;
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body });

  test('malformed JSON gets a JSON-RPC parse error with a 4xx, and the server keeps answering', async () => {
    const response = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
    const text = await response.text();
    assert.match(text, /-32700|Parse error/i);
    assert.doesNotMatch(text, /at .*\.ts:\d+/, 'no stack trace');
    const card = await fetch(`${origin()}/mcp/server-card`);
    assert.equal(card.status, 200);
  });

  test('a body over 64 KiB gets a 413 and an empty body a parse error, both JSON-RPC; a JSON array (a batch) is not a crash', async () => {
    const large = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: { query: 'x'.repeat(70 * 1024) } } }));
    assert.equal(large.status, 413);
    assert.equal(((await large.json()) as { error: { code: number } }).error.code, -32000);
    const empty = await post('');
    assert.ok(empty.status >= 400 && empty.status < 500, `status ${empty.status}`);
    assert.match(await empty.text(), /-32700|Parse error/i);
    const batch = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]));
    assert.ok(batch.status < 500, `status ${batch.status}`);
    await batch.body?.cancel();
  });

  async function statusWithHost(host: string): Promise<{ status: number; body: string }> {
    const { request } = await import('node:http');
    return new Promise((resolve, reject) => {
      const url = new URL(server.url);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { Host: host, 'Content-Type': 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end('{}');
    });
  }

  test('a malformed Host (user-info, a port that is not a number) gets a 400, not a 500', async () => {
    for (const host of ['a@127.0.0.1', 'localhost:abc', '127.0.0.1:99999', 'exa mple']) {
      const answer = await statusWithHost(host);
      assert.equal(answer.status, 400, host);
      assert.match(answer.body, /-32600/);
      assert.doesNotMatch(answer.body, /at .*\.ts:\d+/, 'no stack trace');
    }
  });

  test('a foreign Host or Origin is refused with 403 (DNS rebinding), naming the hosts served and the option that adds one', async () => {
    const refused = await statusWithHost('evil.example');
    assert.equal(refused.status, 403);
    for (const name of [...server.allowedHosts, allowedHostsOption, allowedHostsVariable]) assert.ok(refused.body.includes(name), name);
    const fromPage = await post('{}', { Origin: 'https://evil.example' });
    assert.equal(fromPage.status, 403);
    assert.match(await fromPage.text(), new RegExp(allowedHostsOption));
  });

  test('a page of the documentation site may call the server: a preflight gets 204 and the answers carry its origin (CORS)', async () => {
    const docsOrigin = new URL(siteConfig.docsUrl).origin;
    const preflight = await fetch(server.url, { method: 'OPTIONS', headers: { Origin: docsOrigin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-protocol-version' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), docsOrigin);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    // It advertises only the methods it serves: a method answered with 405 is not in the list.
    const advertised = (preflight.headers.get('access-control-allow-methods') ?? '').split(',').map((method) => method.trim());
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const response = await fetch(server.url, { method, headers: { Origin: docsOrigin, Accept: 'application/json, text/event-stream' } });
      await response.body?.cancel();
      if (response.status === 405) assert.ok(!advertised.includes(method), `${method} gets 405 but the preflight allows it: ${advertised.join(', ')}`);
    }
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /mcp-protocol-version/i);
    const call = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), { Origin: docsOrigin, 'MCP-Protocol-Version': card.remotes[0]?.supportedProtocolVersions.at(-1) ?? '' });
    assert.equal(call.status, 200);
    assert.equal(call.headers.get('access-control-allow-origin'), docsOrigin);
    assert.match(await call.text(), /"tools"/);
    const withoutOrigin = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    assert.equal(withoutOrigin.headers.get('access-control-allow-origin'), null, 'no CORS header for a client that is not a page');
    await withoutOrigin.body?.cancel();
  });

  test('the card is served at its reserved path with the draft’s headers, and 304 for its ETag', async () => {
    const response = await fetch(`${origin()}/mcp/server-card`);
    assert.equal(response.headers.get('content-type'), 'application/mcp-server-card+json');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('access-control-allow-methods'), 'GET');
    assert.equal(response.headers.get('access-control-allow-headers'), 'Content-Type, If-None-Match');
    assert.equal(response.headers.get('access-control-expose-headers'), 'ETag');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(await response.text(), readFileSync(path.join(projectDirectory, 'public/.well-known/mcp/server-card.json'), 'utf8'));
    const etag = response.headers.get('etag');
    assert.ok(etag);
    const again = await fetch(`${origin()}/mcp/server-card`, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
  });
});

describe('listening on every interface', () => {
  test('npm run mcp -- --host 0.0.0.0 prints a loopback URL that answers, and answers for a name given in MCP_ALLOWED_HOSTS or --allowed-hosts', async () => {
    const { spawn } = await import('node:child_process');
    const { request } = await import('node:http');
    const child = spawn(process.execPath, ['scripts/mcp.ts', '--host', '0.0.0.0', '--port', '0', allowedHostsOption, 'mcp.box.test'], {
      cwd: projectDirectory,
      env: { ...process.env, [allowedHostsVariable]: 'docs-box.test, other.test' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('Host must be one of')) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`npm run mcp exited with ${code}: ${text}`)));
      });
      const url = /at (http:\/\/\S+)/.exec(output)?.[1] ?? '';
      assert.equal(new URL(url).hostname, '127.0.0.1', output);
      const withHost = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const target = new URL(url);
          const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
        });
      const port = new URL(url).port;
      for (const host of [`127.0.0.1:${port}`, `mcp.box.test:${port}`, `docs-box.test:${port}`, `other.test:${port}`]) assert.notEqual(await withHost(host), 403, host);
      assert.equal(await withHost(`elsewhere.test:${port}`), 403);
      for (const name of ['mcp.box.test', 'docs-box.test']) assert.ok(output.includes(name), `the start names ${name}`);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('an address it cannot listen on', () => {
  /** `npm run mcp` with these options: its exit code and what it wrote to stderr. */
  async function runMcp(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['scripts/mcp.ts', ...args], { cwd: projectDirectory, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stderr };
  }

  test('a port in use: one line naming --port, exit 1, no stack trace', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const { code, stderr } = await runMcp(['--port', String(port)]);
      assert.equal(code, 1, stderr);
      const lines = stderr.trim().split('\n');
      assert.match(lines.at(-1) ?? '', /--port/);
      assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  test('a host that is no address of this machine: one line naming --host, exit 1, no stack trace', async () => {
    // TEST-NET-1 (RFC 5737): never an address of this machine.
    const { code, stderr } = await runMcp(['--port', '0', '--host', '192.0.2.1']);
    assert.equal(code, 1, stderr);
    assert.match(stderr.trim().split('\n').at(-1) ?? '', /--host/);
    assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  });
});

describe('one source of truth', () => {
  let copy: string;
  before(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'mcp-source-'));
    for (const entry of ['openapi', 'public', 'product', 'src', 'redocly.yaml', 'package.json']) cpSync(path.join(projectDirectory, entry), path.join(copy, entry), { recursive: true });
    symlinkSync(path.join(projectDirectory, 'node_modules'), path.join(copy, 'node_modules'));
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  test('an edited description in openapi/ and a published price change the answers, with no code change', async () => {
    const pauseSchema = path.join(copy, 'openapi/components/schemas/PauseSubscriptionRequest.yaml');
    const text = readFileSync(pauseSchema, 'utf8');
    writeFileSync(pauseSchema, text.replace(/^title: .*$/m, 'title: Hold a subscription for a while'));
    const facts = path.join(copy, 'product/product-facts.yaml');
    writeFileSync(facts, readFileSync(facts, 'utf8').replace(/^pricing: not yet published$/m, 'pricing:\n  - edition: paid\n    price: "49 EUR"\n    period: year'));
    const edited = createProductInformationHandler(readServerIdentity(copy), await loadKnowledge(copy, path.join(projectDirectory, 'dist')));
    try {
      const client = await connectInProcess(edited, 'product-information-test');
      try {
        const details = structured(await client.callTool({ name: 'action_details', arguments: { action: 'pause_subscription' } }));
        assert.equal(details.summary, 'Hold a subscription for a while');
        const pricing = JSON.stringify(structured(await client.callTool({ name: 'product_information', arguments: { topic: 'pricing' } })));
        assert.match(pricing, /"published":true/);
        assert.match(pricing, /49 EUR/);
      } finally {
        await client.close();
      }
    } finally {
      await edited.close();
    }
  });
});
