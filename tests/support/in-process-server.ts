import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { connectInProcess } from '../../src/mcp-server/evaluation/in-process-client.ts';
import { createProductInformationHandler } from '../../src/mcp-server/handler.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';
import type { ProductKnowledge } from '../../src/mcp-server/knowledge.ts';
import { loadKnowledge } from '../../src/mcp-server/load-knowledge.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');

export interface InProcessServer {
  readonly client: Client;
  readonly knowledge: ProductKnowledge;
  /** Calls a tool and returns its structured content, failing the test on an error answer or none. */
  structuredAnswer(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * The product-information server of the built site, in this process, and the SDK's own client
 * handed its fetch handler (no port): started before the file's tests (or the suite's, when called
 * inside a `describe`) and closed after them. Read `client` and `knowledge` inside the tests.
 */
export function useInProcessServer(clientName: string): InProcessServer {
  let handler: ReturnType<typeof createProductInformationHandler> | undefined;
  let client: Client | undefined;
  let knowledge: ProductKnowledge | undefined;
  before(async () => {
    ensureBuiltSite(projectDirectory);
    knowledge = await loadKnowledge(projectDirectory);
    handler = createProductInformationHandler(readServerIdentity(projectDirectory), knowledge);
    client = await connectInProcess(handler, clientName);
  });
  after(async () => {
    await client?.close();
    await handler?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The in-process server is read before its `before` hook ran');
    return value;
  };
  return {
    get client() {
      return started(client);
    },
    get knowledge() {
      return started(knowledge);
    },
    async structuredAnswer(name, args = {}) {
      const result = await started(client).callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      assert.ok(structured, `${name} answers with structuredContent`);
      return structured;
    },
  };
}
