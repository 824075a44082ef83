import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createProductInformationHandler, isWellFormedHost, mcpPath } from './handler.ts';
import { readServerIdentity } from './identity.ts';
import { loadKnowledge } from './load-knowledge.ts';

export { allowedHostnames, cardPath, createProductInformationHandler, mcpPath } from './handler.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

function sendJsonRpcError(response: import('node:http').ServerResponse, status: number, code: number, message: string): void {
  if (!response.headersSent) response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * Starts the server on Node's HTTP server: `{ url }` is the MCP endpoint. Its pages are the ones
 * `npm run build` wrote into `siteDirectory` (default: the project's `dist/`).
 */
export async function startProductInformationServer(options: { port?: number; host?: string; projectDirectory?: string; siteDirectory?: string } = {}): Promise<RunningServer> {
  const projectDirectory = path.resolve(options.projectDirectory ?? path.join(import.meta.dirname, '../..'));
  const knowledge = await loadKnowledge(projectDirectory, options.siteDirectory);
  const handler = createProductInformationHandler(readServerIdentity(projectDirectory), knowledge);
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
