/**
 * The product-information server as an agent built on Vercel's AI SDK meets it: `@ai-sdk/mcp`, an
 * MCP client of its own (not the official SDK's), over Streamable HTTP, with protocol discovery
 * (`server/discover`) and with the 2025-era `initialize`. It lists the tools and calls one, as the
 * client and as the AI SDK tool an agent's model would run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { toolCatalogue } from '../../src/mcp-server/catalogue.ts';
import { startProductInformationServer, type RunningServer } from '../../src/mcp-server/http.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
const card = JSON.parse(readFileSync(path.join(projectDirectory, 'public/.well-known/mcp/server-card.json'), 'utf8')) as { remotes: { supportedProtocolVersions: string[] }[] };
let server: RunningServer;

before(async () => {
  ensureBuiltSite(projectDirectory);
  server = await startProductInformationServer({ port: 0 });
});
after(async () => {
  await server.close();
});

async function withClient(protocolVersionDiscovery: boolean, use: (client: MCPClient) => Promise<void>): Promise<void> {
  const client = await createMCPClient({ transport: { type: 'http', url: server.url }, protocolVersionDiscovery, clientName: 'product-information-ai-sdk-test' });
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

for (const protocolVersionDiscovery of [true, false]) {
  const era = protocolVersionDiscovery ? 'server/discover' : 'initialize';
  test(`@ai-sdk/mcp (${era}) lists the tools of the catalogue and calls action_details`, async () => {
    await withClient(protocolVersionDiscovery, async (client) => {
      assert.equal(client.serverInfo.name, 'example.subscription-lifecycle/product-information');
      const [newest, ...earlier] = card.remotes[0]?.supportedProtocolVersions ?? [];
      if (protocolVersionDiscovery) assert.equal(client.initializeResult.protocolVersion, newest);
      else assert.ok(earlier.includes(client.initializeResult.protocolVersion), `initialize agrees on a 2025-era version, not ${client.initializeResult.protocolVersion}`);
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        Object.keys(toolCatalogue),
      );
      const result = await client.callTool({ name: 'action_details', arguments: { action: 'change_status' } });
      assert.notEqual(result.isError, true);
      const details = result.structuredContent as { identifier: string; fields: { name: string }[] };
      assert.equal(details.identifier, 'change_status');
      assert.ok(details.fields.length > 0);
    });
  });
}

test('@ai-sdk/mcp turns the tools into AI SDK tools a model can run: lifecycle from cancelled', async () => {
  await withClient(true, async (client) => {
    const tools = await client.tools();
    assert.deepEqual(Object.keys(tools), Object.keys(toolCatalogue));
    const lifecycle = tools.lifecycle;
    assert.ok(lifecycle?.execute, 'the lifecycle tool can be executed');
    const output = (await lifecycle.execute({ status: 'cancelled' }, { toolCallId: 'call-1', messages: [], context: {} })) as { isError?: boolean; structuredContent?: unknown };
    assert.notEqual(output.isError, true);
    assert.match(JSON.stringify(output.structuredContent), /cancelled/);
  });
});
