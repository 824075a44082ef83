import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mcpPath } from '../handler.ts';

/** A web-standard fetch handler, as `createProductInformationHandler` returns one. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
}

/** The address an in-process client names: loopback, so the Host check lets it through. */
export const inProcessUrl = new URL(mcpPath, 'http://127.0.0.1');

/**
 * The SDK's own client talking to the handler in this process: the transport's `fetch` is the
 * handler's, so every request and answer is the HTTP a socket would carry, with no port.
 */
export async function connectInProcess(handler: FetchHandler, name = 'in-process', pin: 'modern' | 'legacy' = 'modern'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, pin === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : { versionNegotiation: { mode: 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(inProcessUrl, { fetch: (input, init) => handler.fetch(new Request(input, init)) }));
  return client;
}
