import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** Types worth compressing; images, fonts and Pagefind's pre-compressed index are not. */
function isCompressible(contentType: string): boolean {
  return /^text\/|javascript|json|xml|yaml|svg|wasm/.test(contentType);
}

export interface StaticSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a directory on 127.0.0.1 the way a static host with compression does: `/dir/`
 * answers with `dir/index.html`, and text is sent gzipped (level 9, what such hosts use for
 * static files) when the browser accepts it. The benchmark serves our site and the Redoc
 * page through this same code so their byte counts compare like with like.
 */
export async function serveDirectoryGzipped(root: string): Promise<StaticSite> {
  const absoluteRoot = path.resolve(root);
  const compressed = new Map<string, Buffer>();

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    let file = path.join(absoluteRoot, decodeURIComponent(url.pathname));
    if (file !== absoluteRoot && !file.startsWith(absoluteRoot + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
      const body = readFileSync(file);
      const contentType = contentTypes[path.extname(file)] ?? 'application/octet-stream';
      const headers: Record<string, string | number> = {
        'Content-Type': contentType,
        'Cache-Control': 'no-cache',
      };
      let payload: Buffer = body;
      if (isCompressible(contentType) && /\bgzip\b/.test(String(request.headers['accept-encoding']))) {
        payload = compressed.get(file) ?? gzipSync(body, { level: 9 });
        compressed.set(file, payload);
        headers['Content-Encoding'] = 'gzip';
        headers.Vary = 'Accept-Encoding';
      }
      headers['Content-Length'] = payload.length;
      response.writeHead(200, headers);
      response.end(request.method === 'HEAD' ? undefined : payload);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
