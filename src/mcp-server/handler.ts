import { createMcpHandler, isJsonContentType, localhostAllowedHostnames, readRequestBody, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { noneMatchHits } from '../lib/http/entity-tags.ts';
import { jsonNesting } from '../lib/http/json-nesting.ts';
import { serverCardBesideServer } from '../lib/site/discovery.ts';
import { siteConfig } from '../site-config.ts';
import type { ServerIdentity } from './identity.ts';
import type { ProductKnowledge } from './knowledge.ts';
import { createProductServer, featuresFor, prepareServer } from './server.ts';
import { createSharedToolCalls } from './shared-server.ts';

/** The path of the MCP endpoint, from `{mcp_url}`, and of the card the draft reserves beside it. */
export const mcpPath = new URL(siteConfig.mcpUrl).pathname;
export const cardPath = new URL(serverCardBesideServer(siteConfig)).pathname;

/** Host names a request may name: the public host of `{mcp_url}` and loopback for local use. */
export const allowedHostnames = [new URL(siteConfig.mcpUrl).hostname, ...localhostAllowedHostnames()];

/** The option of `npm run mcp` and the variable that add host names to those the server answers for. */
export const allowedHostsOption = '--allowed-hosts';
export const allowedHostsVariable = 'MCP_ALLOWED_HOSTS';

/** Host names from the option's or the variable's text: comma- or space-separated, without port or scheme. */
export function hostNamesFrom(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,]+/)
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

export interface HandlerOptions {
  /**
   * More host names the server answers for (a machine's name or address when it listens on every
   * interface), besides `{mcp_url}`'s host and loopback. An address of IPv6 is written in brackets.
   */
  allowedHosts?: readonly string[];
}

const cardHeaders = {
  'Content-Type': 'application/mcp-server-card+json',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
  'Access-Control-Expose-Headers': 'ETag',
  'Cache-Control': 'public, max-age=3600',
};

/** The largest request body the server reads, as the SDK counts it. */
const maxRequestBodySize = 64 * 1024;

/**
 * The deepest message the server reads, counted on the text before anything parses it: twice PHP's
 * `json_decode` depth, so that a body nested past WordPress's limit still reaches the request check
 * (which shows it refused as WordPress refuses it), and far from the depth at which schema
 * validation, which recurses, would overflow the stack (about 1,700 levels on Node 24).
 */
export const maxMessageNesting = 1024;

function parsedJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

export function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * A `Host` header as RFC 9110 (section 7.2) allows it: a name or an address, and at most a port
 * number. User-info (`a@host`) or a port that is not a number is a malformed request, not a host
 * to look up.
 */
const hostHeader = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/i;

export function isWellFormedHost(value: string): boolean {
  const match = hostHeader.exec(value);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

/**
 * The headers that let a page of an allowed origin read the answers. The server is public,
 * read-only and takes no credential, so reading it from a browser exposes nothing; what the Host
 * and Origin checks guard against is a page that rebinds its own name to a server on loopback.
 */
function corsHeaders(origin: string, request: Request): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    // Stateless: no stream to open with GET, no session to end with DELETE (both get 405); POST is all it serves.
    'Access-Control-Allow-Methods': 'POST',
    'Access-Control-Allow-Headers': request.headers.get('access-control-request-headers') ?? 'Content-Type, Accept, MCP-Protocol-Version',
    'Access-Control-Expose-Headers': 'MCP-Protocol-Version, Mcp-Session-Id',
    'Access-Control-Max-Age': '86400',
    Vary: 'Origin',
  };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
  return copy;
}

/**
 * The whole server as one web-standard `fetch` handler (Workers, Deno, Bun, or Node through
 * `toNodeHandler`): Host checked against `{mcp_url}`'s host, loopback and the host names of
 * `options.allowedHosts` (DNS rebinding); Origin, when a browser sends one, against those and the
 * documentation site, whose pages may then read the answers (CORS); the card at its reserved
 * path, MCP at `{mcp_url}`'s path, 404 elsewhere. Stateless: a plain tool call goes to a server
 * that lives as long as the handler (`createSharedToolCalls`), every other request to a fresh
 * server instance from the same knowledge, through the SDK's own handler.
 */
export function createProductInformationHandler(identity: ServerIdentity, knowledge: ProductKnowledge, options: HandlerOptions = {}) {
  const hosts = [...new Set([...allowedHostnames, ...(options.allowedHosts ?? [])])];
  const origins = [...new Set([...hosts, new URL(siteConfig.docsUrl).hostname])];
  const hostRefusal = `Forbidden: this server answers for the host names ${hosts.join(', ')}. To serve it under another name, list that name with ${allowedHostsOption} (npm run mcp -- ${allowedHostsOption} NAME) or ${allowedHostsVariable}.`;
  const originRefusal = `Forbidden: pages of ${origins.join(', ')} may call this server; list another host name with ${allowedHostsOption} or ${allowedHostsVariable}.`;
  const prepared = prepareServer(knowledge);
  // The body of each request, read here once, so that its server instance registers only what
  // the request can reach (a tool call needs no resources); the SDK then reads it no more.
  const bodies = new WeakMap<Request, unknown>();
  const mcp = createMcpHandler(({ requestInfo }) => createProductServer(identity, prepared, featuresFor(requestInfo === undefined ? undefined : bodies.get(requestInfo), prepared)), {
    legacy: 'stateless',
    maxRequestBodySize,
  });
  // Tool calls go to servers that live as long as the handler (src/mcp-server/shared-server.ts).
  const toolCalls = createSharedToolCalls(
    () => createProductServer(identity, prepared, { tools: true, resources: false, prompts: false }),
    new Set(prepared.tools.map((tool) => tool.name)),
    identity.supportedProtocolVersions,
  );
  return {
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url);
      // A request made in process (a test's client) carries no Host header: its URL names the host.
      const hostValue = request.headers.get('host') ?? url.host;
      // The SDK's check reads user-info (`a@host`) as the host after it: that is malformed here, a 400.
      if (!isWellFormedHost(hostValue)) return jsonRpcError(400, -32600, 'Bad request: the Host header is malformed.');
      if (!validateHostHeader(hostValue, hosts).ok) return jsonRpcError(403, -32000, hostRefusal);
      const origin = request.headers.get('origin');
      if (url.pathname === cardPath) {
        if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cardHeaders });
        if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { ...cardHeaders, Allow: 'GET, HEAD, OPTIONS' } });
        const headers = { ...cardHeaders, ETag: identity.etag };
        if (noneMatchHits(request.headers.get('if-none-match'), identity.etag)) return new Response(null, { status: 304, headers });
        return new Response(request.method === 'HEAD' ? null : identity.cardText, { status: 200, headers });
      }
      // An opaque origin (`null`: a sandboxed frame, a file) names no site to rebind to; the Host check above still holds.
      const pageOrigin = origin === null || origin === 'null' || origin === '' ? undefined : origin;
      if (pageOrigin !== undefined && !validateOriginHeader(pageOrigin, origins).ok) return jsonRpcError(403, -32000, originRefusal);
      if (url.pathname !== mcpPath) return jsonRpcError(404, -32601, `Not found: the MCP endpoint is ${mcpPath}.`);
      if (pageOrigin === undefined) return await answer(request);
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders(pageOrigin, request) });
      return withHeaders(await answer(request), corsHeaders(pageOrigin, request));
    },
    close: async () => {
      await toolCalls.close();
      await mcp.close();
    },
  };

  async function answer(request: Request): Promise<Response> {
    try {
      if (request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type'))) return await mcp.fetch(request);
      // The SDK's own reading, with its limit and its answers when reading fails.
      let read: Awaited<ReturnType<typeof readRequestBody>>;
      try {
        read = await readRequestBody(request, maxRequestBodySize);
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: the request body could not be read');
      }
      if (read.tooLarge) return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxRequestBodySize} bytes`);
      if (jsonNesting(read.text, maxMessageNesting) > maxMessageNesting) {
        return jsonRpcError(400, -32700, `Parse error: the message nests deeper than the ${maxMessageNesting} levels this server reads`);
      }
      const body = parsedJson(read.text);
      // Not JSON: the SDK reads it again and answers with its parse error.
      if (body === undefined) return await mcp.fetch(new Request(request, { body: read.text }));
      const shared = await toolCalls.answer(request, body);
      if (shared !== undefined) return shared;
      bodies.set(request, body);
      return await mcp.fetch(request, { parsedBody: body });
    } catch {
      // The SDK answers protocol errors itself; anything else is ours, and no stack leaves.
      return jsonRpcError(500, -32603, 'Internal error.');
    }
  }
}
