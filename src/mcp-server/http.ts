import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { readReferenceModel } from '../lib/actions.ts';
import { loadGatedContract } from '../lib/gated-contract.ts';
import { readProductFacts } from '../lib/product-facts.ts';
import { siteConfig } from '../site-config.ts';
import { documentationPages } from './documentation.ts';
import { readServerIdentity, type ServerIdentity } from './identity.ts';
import { createProductServer, prepareTools } from './server.ts';
import type { ProductKnowledge } from './tools.ts';

/** The path of the MCP endpoint, from `{mcp_url}`, and of the card the draft reserves beside it. */
export const mcpPath = new URL(siteConfig.mcpUrl).pathname;
export const cardPath = `${mcpPath.replace(/\/$/, '')}/server-card`;

/** Host names a request may name: the public host of `{mcp_url}` and loopback for local use. */
export const allowedHostnames = [new URL(siteConfig.mcpUrl).hostname, 'localhost', '127.0.0.1', '[::1]'];

const cardHeaders = {
  'Content-Type': 'application/mcp-server-card+json',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
  'Access-Control-Expose-Headers': 'ETag',
  'Cache-Control': 'public, max-age=3600',
};

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json' } });
}

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** Everything the server answers from, read once at start. */
export async function loadKnowledge(projectDirectory: string): Promise<{ identity: ServerIdentity; knowledge: ProductKnowledge }> {
  const { document } = await loadGatedContract(projectDirectory, { bundleDirectory: '.generated/mcp-server' });
  const model = readReferenceModel(document);
  return {
    identity: readServerIdentity(projectDirectory),
    knowledge: { model, facts: readProductFacts(projectDirectory), pages: documentationPages(projectDirectory, model) },
  };
}

/**
 * The whole server as one web-standard `fetch` handler (Workers, Deno, Bun, or Node through
 * `toNodeHandler`): Host and Origin checked against `{mcp_url}` and loopback (DNS rebinding),
 * the card at its reserved path, MCP at `{mcp_url}`'s path, 404 elsewhere. Stateless: every
 * request gets a fresh server instance from the same knowledge.
 */
export function createProductInformationHandler(identity: ServerIdentity, knowledge: ProductKnowledge) {
  const prepared = prepareTools(knowledge);
  const mcp = createMcpHandler(() => createProductServer(identity, prepared), { legacy: 'stateless', maxRequestBodySize: 64 * 1024 });
  const allowed = new Set(allowedHostnames);
  return {
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url);
      const host = hostnameOf(request.headers.get('host') ?? url.host);
      if (host === undefined || !allowed.has(host)) return jsonRpcError(403, -32000, 'Forbidden: this Host is not served here.');
      const origin = request.headers.get('origin');
      if (url.pathname === cardPath) {
        if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cardHeaders });
        if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { ...cardHeaders, Allow: 'GET, HEAD, OPTIONS' } });
        const headers = { ...cardHeaders, ETag: identity.etag };
        if (request.headers.get('if-none-match')?.split(',').some((tag) => tag.trim() === identity.etag)) return new Response(null, { status: 304, headers });
        return new Response(request.method === 'HEAD' ? null : identity.cardText, { status: 200, headers });
      }
      if (origin !== null && origin !== 'null') {
        const originHost = hostnameOf(origin);
        if (originHost === undefined || !allowed.has(originHost)) return jsonRpcError(403, -32000, 'Forbidden: this Origin may not call the server.');
      }
      if (url.pathname !== mcpPath) return jsonRpcError(404, -32601, `Not found: the MCP endpoint is ${mcpPath}.`);
      try {
        return await mcp.fetch(request);
      } catch {
        // The SDK answers protocol errors itself; anything else is ours, and no stack leaves.
        return jsonRpcError(500, -32603, 'Internal error.');
      }
    },
    close: () => mcp.close(),
  };
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the server on Node's HTTP server: `{ url }` is the MCP endpoint. */
export async function startProductInformationServer(options: { port?: number; host?: string; projectDirectory?: string } = {}): Promise<RunningServer> {
  const projectDirectory = path.resolve(options.projectDirectory ?? path.join(import.meta.dirname, '../..'));
  const { identity, knowledge } = await loadKnowledge(projectDirectory);
  const handler = createProductInformationHandler(identity, knowledge);
  const serve = toNodeHandler(handler);
  const server: HttpServer = createServer((request, response) => {
    serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error.' }, id: null }));
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}${mcpPath}`,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
