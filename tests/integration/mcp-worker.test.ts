/**
 * The product-information server in workerd, Cloudflare's runtime, through Miniflare: the module
 * `npm run build:worker` bundles (the knowledge read at build time by the functions the Node
 * process uses) runs there under the compatibility date of wrangler.jsonc, and the SDK's own client
 * over HTTP gets the same answers from it as from the Node process, the request check included
 * (the sandbox's stages on its memory store).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Miniflare } from 'miniflare';
import { buildWorker } from '../../scripts/build-worker.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { toolCatalogue } from '../../src/mcp-server/catalogue.ts';
import { cardPath, mcpPath, startProductInformationServer, type RunningServer } from '../../src/mcp-server/http.ts';
import { readWranglerConfig } from '../../src/mcp-server/wrangler-config.ts';
import { siteConfig } from '../../src/site-config.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');

const wranglerConfig = readWranglerConfig(projectDirectory);

let worker: Miniflare;
let workerUrl: URL;
let nodeServer: RunningServer;

async function connect(url: URL | string): Promise<Client> {
  const client = new Client({ name: 'product-information-worker-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function withClients(check: (inWorker: Client, onNode: Client) => Promise<void>): Promise<void> {
  const [inWorker, onNode] = await Promise.all([connect(workerUrl), connect(nodeServer.url)]);
  try {
    await check(inWorker, onNode);
  } finally {
    await Promise.all([inWorker.close(), onNode.close()]);
  }
}

before(async () => {
  const scriptPath = await buildWorker(projectDirectory);
  assert.equal(path.relative(projectDirectory, scriptPath), wranglerConfig.main, 'the test runs the module wrangler deploys');
  worker = new Miniflare({ modules: true, scriptPath, compatibilityDate: wranglerConfig.compatibility_date, compatibilityFlags: wranglerConfig.compatibility_flags ?? [] });
  workerUrl = new URL(mcpPath, await worker.ready);
  nodeServer = await startProductInformationServer({ port: 0 });
});
after(async () => {
  await Promise.all([worker?.dispose(), nodeServer?.close()]);
});

test('wrangler.jsonc serves the worker on the host of mcpUrl, the one host its handler answers besides loopback', () => {
  assert.deepEqual(
    wranglerConfig.routes.map((route) => route.pattern),
    [new URL(siteConfig.mcpUrl).hostname],
  );
  assert.equal(wranglerConfig.workers_dev, false);
});

test('in workerd the tools are the Node server’s, definitions and all, check_request included', async () => {
  await withClients(async (inWorker, onNode) => {
    const [{ tools: workerTools }, { tools: nodeTools }] = await Promise.all([inWorker.listTools(), onNode.listTools()]);
    assert.deepEqual(
      nodeTools.map((tool) => tool.name),
      Object.keys(toolCatalogue),
    );
    assert.ok(nodeTools.some((tool) => tool.name === 'check_request'));
    assert.deepEqual(workerTools, nodeTools);
    assert.equal(inWorker.getInstructions(), onNode.getInstructions());
  });
});

test('in workerd check_request answers exactly as on Node, for every status and for a wrong key', async () => {
  const model = readReferenceModel(bundledDocument());
  const { envelope } = model;
  const bodies = model.actions.map((action) => ({ [envelope.selector]: action.identifier, [envelope.subject]: 7, [envelope.credential]: 'placeholder-key' }));
  bodies.push({ [envelope.selector]: 'no_such_action', [envelope.subject]: 'x' });
  await withClients(async (inWorker, onNode) => {
    let conflicts = 0;
    for (const body of bodies) {
      for (const siteAcceptsCredential of [true, false]) {
        const call = { name: 'check_request', arguments: { body, site_accepts_credential: siteAcceptsCredential } };
        const [fromWorker, fromNode] = await Promise.all([inWorker.callTool(call), onNode.callTool(call)]);
        assert.notEqual(fromNode.isError, true, JSON.stringify(call.arguments));
        assert.deepEqual(fromWorker, fromNode, JSON.stringify(call.arguments));
        if (JSON.stringify(fromNode.structuredContent).includes('"status":409')) conflicts += 1;
      }
    }
    assert.ok(conflicts > 0, 'some action is refused from some status, so the lifecycle was applied');
  });
});

test('in workerd api_overview, search_docs, read_page and action_details answer exactly as on Node', async () => {
  const calls = [
    { name: 'api_overview', arguments: {} },
    { name: 'search_docs', arguments: { query: 'Is there a webhook when a payment fails?', limit: 3 } },
    { name: 'search_docs', arguments: { query: 'rate limit 429', kinds: ['guides'], offset: 1 } },
    { name: 'read_page', arguments: { url: '/states-and-transitions/' } },
    { name: 'read_page', arguments: { url: `${siteConfig.docsUrl}/errors-and-rate-limits/` } },
    { name: 'action_details', arguments: { action: 'change_status' } },
    { name: 'lifecycle', arguments: { status: 'cancelled' } },
    { name: 'code_sample', arguments: { action: 'pause_subscription', language: 'curl' } },
  ];
  await withClients(async (inWorker, onNode) => {
    for (const call of calls) {
      const [fromWorker, fromNode] = await Promise.all([inWorker.callTool(call), onNode.callTool(call)]);
      assert.notEqual(fromNode.isError, true, `${call.name} answers on Node`);
      assert.deepEqual(fromWorker, fromNode, `${call.name} ${JSON.stringify(call.arguments)}`);
    }
    const wrong = { name: 'action_details', arguments: { action: 'delete_everything' } };
    const refusalOf = (client: Client) => client.callTool(wrong).catch((error: Error) => error.message);
    assert.deepEqual(await refusalOf(inWorker), await refusalOf(onNode));
  });
});

test('in workerd the resources and prompts are the Node server’s', async () => {
  await withClients(async (inWorker, onNode) => {
    assert.deepEqual(await inWorker.listResources(), await onNode.listResources());
    assert.deepEqual(
      (await inWorker.listPrompts()).prompts.map((prompt) => prompt.name),
      (await onNode.listPrompts()).prompts.map((prompt) => prompt.name),
    );
    const llmsTxt = (await onNode.listResources()).resources.find((resource) => resource.uri.endsWith('/llms.txt'));
    assert.ok(llmsTxt);
    assert.deepEqual(await inWorker.readResource({ uri: llmsTxt.uri }), await onNode.readResource({ uri: llmsTxt.uri }));
  });
});

test('in workerd the card, a malformed Host, a foreign Origin and another path get the documented answers', async () => {
  const card = await fetch(new URL(cardPath, workerUrl));
  const nodeCard = await fetch(new URL(cardPath, nodeServer.url));
  assert.equal(card.status, 200);
  assert.equal(card.headers.get('etag'), nodeCard.headers.get('etag'));
  assert.equal(await card.text(), await nodeCard.text());

  const malformedHost = await worker.dispatchFetch(workerUrl, { method: 'POST', headers: { Host: 'a@127.0.0.1', 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(malformedHost.status, 400);
  assert.equal(((await malformedHost.json()) as { error: { code: number } }).error.code, -32600);

  const foreignOrigin = await fetch(workerUrl, { method: 'POST', headers: { Origin: 'https://attacker.example', 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(foreignOrigin.status, 403);
  await foreignOrigin.body?.cancel();

  const elsewhere = await fetch(new URL('/elsewhere', workerUrl));
  assert.equal(elsewhere.status, 404);
  await elsewhere.body?.cancel();

  const notJson = await fetch(workerUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{not json' });
  assert.ok(notJson.status >= 400 && notJson.status < 500, `malformed JSON gets a 4xx, not ${notJson.status}`);
  await notJson.body?.cancel();
});
