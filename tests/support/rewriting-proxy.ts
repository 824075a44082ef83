import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Rewrites one answer: its status and its parsed JSON body (undefined when not JSON), given the request's body as sent. */
export type Rewrite = (status: number, body: unknown, requestBody: string) => { status: number; body: unknown };

/**
 * A deployment that answers as another does (the sandbox, the reference plugin in WordPress),
 * rewritten: a real HTTP proxy in front of it, on a port the system picks. Its `url` is the base URL
 * to give the suite: the proxy's origin with the target's path (a subdirectory install).
 */
export async function startRewritingProxy(targetUrl: string, rewrite: Rewrite): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(targetUrl);
  const server: Server = createServer((incoming, outgoing) => {
    const sent: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => sent.push(chunk));
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: upstream.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const rewritten = rewrite(answer.statusCode ?? 502, parsed, Buffer.concat(sent).toString('utf8'));
          const body = parsed === undefined ? text : JSON.stringify(rewritten.body);
          const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
          outgoing.writeHead(rewritten.status, { ...headers, 'content-length': String(Buffer.byteLength(body)) }).end(body);
        });
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, '')}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
