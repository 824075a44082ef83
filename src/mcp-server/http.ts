import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { allowedHostnames, createProductInformationHandler, isWellFormedHost, mcpPath } from './handler.ts';
import { readServerIdentity } from './identity.ts';
import { loadKnowledge } from './load-knowledge.ts';

export { allowedHostnames, allowedHostsOption, allowedHostsVariable, cardPath, createProductInformationHandler, hostNamesFrom, mcpPath } from './handler.ts';

export interface RunningServer {
  url: string;
  /** Every host name a request may name. */
  allowedHosts: string[];
  close(): Promise<void>;
}

function sendJsonRpcError(response: import('node:http').ServerResponse, status: number, code: number, message: string): void {
  if (!response.headersSent) response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The address a client on this machine reaches a server at: loopback when the server listens on
 * every interface (`0.0.0.0`, `::`), whose address is no host a request can name; an address of
 * IPv6 in brackets.
 */
export function reachableHost(listening: string): string {
  if (listening === '0.0.0.0' || listening === '') return '127.0.0.1';
  if (listening === '::') return '[::1]';
  return listening.includes(':') ? `[${listening}]` : listening;
}

/**
 * The host names a server listening on `listening` is reached by, besides those it always answers
 * for: the address itself, or every address of the machine when it listens on every interface.
 * An address names no host a page could rebind, so answering for it opens nothing to DNS
 * rebinding; a name the machine goes by is the operator's to add (`--allowed-hosts`).
 */
export function listeningAddresses(listening: string): string[] {
  if (listening !== '0.0.0.0' && listening !== '::' && listening !== '') return [reachableHost(listening)];
  const addresses = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []);
  return addresses.filter((entry) => !entry.address.includes('%')).map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));
}

/**
 * Starts the server on Node's HTTP server: `{ url }` is the MCP endpoint, on loopback when the
 * server listens on every interface. Its pages are the ones `npm run build` wrote into
 * `siteDirectory` (default: the project's `dist/`); it answers for the addresses it listens on and
 * for the host names of `allowedHosts`.
 */
export async function startProductInformationServer(
  options: { port?: number; host?: string; projectDirectory?: string; siteDirectory?: string; allowedHosts?: readonly string[] } = {},
): Promise<RunningServer> {
  const projectDirectory = path.resolve(options.projectDirectory ?? path.join(import.meta.dirname, '../..'));
  const knowledge = await loadKnowledge(projectDirectory, options.siteDirectory);
  const host = options.host ?? '127.0.0.1';
  const allowedHosts = [...listeningAddresses(host), ...(options.allowedHosts ?? [])];
  const handler = createProductInformationHandler(readServerIdentity(projectDirectory), knowledge, { allowedHosts });
  const serve = toNodeHandler(handler);
  const server: HttpServer = createServer((request, response) => {
    // The Node adapter builds the request's URL from Host: a malformed one is the client's error.
    if (!isWellFormedHost(request.headers.host ?? '')) {
      request.resume();
      sendJsonRpcError(response, 400, -32600, 'Bad request: the Host header is malformed.');
      return;
    }
    serve(request, response).catch(() => sendJsonRpcError(response, 500, -32603, 'Internal error.'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${reachableHost(host)}:${port}${mcpPath}`,
    allowedHosts: [...new Set([...allowedHostnames, ...allowedHosts])],
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
