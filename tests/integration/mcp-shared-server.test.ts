/**
 * Tool calls served by the long-lived servers of `createSharedToolCalls` answer exactly as the
 * SDK's own handler answers them with a fresh server instance per request: the same status, the
 * same headers and the same bytes, in both protocol eras, for good calls, refused arguments,
 * unknown tools and requests the shared path leaves to the SDK; and calls in flight at once, all
 * numbered alike, each get their own answer.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { createProductInformationHandler, mcpPath } from '../../src/mcp-server/handler.ts';
import { readServerIdentity, type ServerIdentity } from '../../src/mcp-server/identity.ts';
import type { ProductKnowledge } from '../../src/mcp-server/knowledge.ts';
import { loadKnowledge } from '../../src/mcp-server/load-knowledge.ts';
import { createProductServer, prepareServer } from '../../src/mcp-server/server.ts';
import { createSharedToolCalls } from '../../src/mcp-server/shared-server.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
let identity: ServerIdentity;
let knowledge: ProductKnowledge;
let ours: ReturnType<typeof createProductInformationHandler>;
let perRequest: ReturnType<typeof createMcpHandler>;

before(async () => {
  ensureBuiltSite(projectDirectory);
  identity = readServerIdentity(projectDirectory);
  knowledge = await loadKnowledge(projectDirectory);
  ours = createProductInformationHandler(identity, knowledge);
  // The SDK's handler alone, a fresh server instance for every request, as the server was served before.
  const prepared = prepareServer(knowledge);
  perRequest = createMcpHandler(() => createProductServer(identity, prepared), { legacy: 'stateless' });
});
after(async () => {
  await ours.close();
  await perRequest.close();
});

/** The revisions of each era, from the card: the newest is the 2026 era's, the next the 2025 era's. */
function revisions(): { modern: string; legacy: string } {
  const [modern = '', legacy = ''] = [...identity.supportedProtocolVersions].sort().reverse();
  return { modern, legacy };
}

function toolCall(id: unknown, name: string, args: unknown, headers: Record<string, string>, envelope?: string): Request {
  const params = envelope === undefined ? { name, arguments: args } : { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': envelope, 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} } };
  return new Request(new URL(mcpPath, 'http://127.0.0.1'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
}

async function answerOf(response: Response): Promise<{ status: number; headers: [string, string][]; text: string }> {
  return { status: response.status, headers: [...response.headers], text: await response.text() };
}

test('every kind of tool call gets the same status, headers and bytes as from a fresh server instance, in both eras', async () => {
  const { modern, legacy } = revisions();
  const both = 'application/json, text/event-stream';
  const variants: { label: string; headers: (name: string) => Record<string, string>; envelope?: string; shared?: true }[] = [
    { label: '2025 era', headers: () => ({ Accept: both, 'MCP-Protocol-Version': legacy }), shared: true },
    { label: '2025 era without a version header', headers: () => ({ Accept: both }), shared: true },
    { label: '2025 era accepting JSON only (406)', headers: () => ({ Accept: 'application/json', 'MCP-Protocol-Version': legacy }) },
    { label: '2025 era naming an unknown version', headers: () => ({ Accept: both, 'MCP-Protocol-Version': '1999-01-01' }) },
    { label: '2026 era', headers: (name) => ({ Accept: both, 'MCP-Protocol-Version': modern, 'Mcp-Method': 'tools/call', 'Mcp-Name': name }), envelope: modern, shared: true },
    { label: '2026 era without Mcp-Name', headers: () => ({ Accept: both, 'MCP-Protocol-Version': modern, 'Mcp-Method': 'tools/call' }), envelope: modern },
    { label: '2026 era with another Mcp-Name', headers: () => ({ Accept: both, 'MCP-Protocol-Version': modern, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'another' }), envelope: modern },
    { label: '2026 envelope with a 2025 header', headers: (name) => ({ Accept: both, 'MCP-Protocol-Version': legacy, 'Mcp-Method': 'tools/call', 'Mcp-Name': name }), envelope: modern },
  ];
  const calls: [string, unknown][] = [
    ['api_overview', {}],
    ['lifecycle', {}],
    ['lifecycle', { status: 'no-such-status' }],
    ['search_docs', { query: 'retry after a 429' }],
    ['read_page', { url: 'https://example.invalid/nowhere/' }],
    ['action_details', {}],
    ['action_details', 7],
    ['check_request', { body: { unexpected: true } }],
    ['subscription_data', {}],
    ['no_such_tool', {}],
  ];
  // The shared path on its own, to see which requests it serves itself and which it leaves to the SDK.
  const prepared = prepareServer(knowledge);
  const sharedAlone = createSharedToolCalls(() => createProductServer(identity, prepared), new Set(prepared.tools.map((tool) => tool.name)), identity.supportedProtocolVersions);
  let compared = 0;
  let servedShared = 0;
  for (const [name, args] of calls) {
    for (const id of [1, 'call-a', 0]) {
      for (const variant of variants) {
        const request = () => toolCall(id, name, args, variant.headers(name), variant.envelope);
        const probe = request();
        const answered = await sharedAlone.answer(probe, JSON.parse(await probe.text()) as unknown);
        // A known tool in a plain request is served by the shared server (in the 2026 era only when it answers with a result).
        if (variant.shared !== true || name === 'no_such_tool') assert.equal(answered, undefined, `${variant.label}: ${name} is left to the SDK`);
        else if (variant.envelope === undefined) assert.ok(answered, `${variant.label}: ${name} is served by the shared server`);
        if (answered !== undefined) servedShared += 1;
        const [shared, fresh] = await Promise.all([ours.fetch(request()).then(answerOf), perRequest.fetch(request()).then(answerOf)]);
        assert.deepEqual(shared, fresh, `${variant.label}: ${name} ${JSON.stringify(args)} with id ${JSON.stringify(id)}`);
        compared += 1;
      }
    }
  }
  assert.equal(compared, calls.length * 3 * variants.length);
  // 9 known tools' calls in two 2025 variants and the 2026 era's good ones, 3 ids each.
  assert.ok(servedShared >= 9 * 3 * 2 + 3 * 3, `the shared server answered ${servedShared} of them`);
  await sharedAlone.close();
});

test('calls in flight at once, all numbered 1, each get the answer to their own question, in both eras', async () => {
  const { modern, legacy } = revisions();
  const questions = ['How do I pause a subscription?', 'What does a 409 mean?', 'How are retries paced?', 'Which statuses can be cancelled?', 'How do I install the plugin?'];
  for (const [era, headers, envelope] of [
    ['2025', { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': legacy }, undefined],
    ['2026', { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': modern, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'search_docs' }, modern],
  ] as const) {
    const asked = Array.from({ length: 40 }, (_, index) => questions[index % questions.length] ?? '');
    const request = (query: string) => toolCall(1, 'search_docs', { query }, headers, envelope);
    const together = await Promise.all(asked.map(async (query) => (await ours.fetch(request(query))).text()));
    const oneByOne: string[] = [];
    for (const query of asked) oneByOne.push(await (await perRequest.fetch(request(query))).text());
    assert.deepEqual(together, oneByOne, `the ${era} era`);
    assert.equal(new Set(together).size, questions.length, `the ${era} era: one answer per question`);
  }
});
