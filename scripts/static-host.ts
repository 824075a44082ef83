import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

interface HeaderRule {
  pattern: RegExp;
  headers: [string, string][];
}

/**
 * Reads a `_headers` file in the format Netlify and Cloudflare Pages share: a path (where `*`
 * matches anything) on its own line, then indented `Name: value` lines.
 */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const escaped = line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*');
      rules.push({ pattern: new RegExp(`^${escaped}$`), headers: [] });
      continue;
    }
    const separator = line.indexOf(':');
    const rule = rules.at(-1);
    if (separator > 0 && rule !== undefined) {
      rule.headers.push([line.slice(0, separator).trim(), line.slice(separator + 1).trim()]);
    }
  }
  return rules;
}

export interface StaticHost {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a built site on 127.0.0.1 the way the common static hosts do, so tests and the
 * benchmark meet it as readers will:
 * - a file is served at its exact path, extension or not (`/.well-known/api-catalog`);
 * - `/dir/` answers with `dir/index.html`, and `/dir` redirects there;
 * - anything else answers 404 with the site's `404.html`;
 * - the rules of the site's `_headers` file apply, and the file itself is not served;
 * - text goes out gzipped (level 9, as hosts pre-compress static files) when the browser
 *   accepts it, so byte counts compare like with like.
 */
export async function serveLikeAStaticHost(root: string, port = 0): Promise<StaticHost> {
  const siteRoot = path.resolve(root);
  const headersFile = path.join(siteRoot, '_headers');
  // Read on every response: the server may start before the build that writes the file ends.
  const headerRules = (): HeaderRule[] =>
    existsSync(headersFile) ? parseHeadersFile(readFileSync(headersFile, 'utf8')) : [];
  const compressed = new Map<string, Buffer>();

  function send(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    pathname: string,
    file: string | undefined,
    extraHeaders: Record<string, string> = {},
  ): void {
    const headers: Record<string, string | number> = { 'Cache-Control': 'no-cache', ...extraHeaders };
    let body: Buffer = Buffer.alloc(0);
    if (file !== undefined) {
      body = readFileSync(file);
      headers['Content-Type'] = contentTypes[path.extname(file)] ?? 'application/octet-stream';
    }
    for (const rule of headerRules()) {
      if (!rule.pattern.test(pathname)) continue;
      for (const [name, value] of rule.headers) headers[name] = value;
    }
    const contentType = String(headers['Content-Type'] ?? '');
    if (file !== undefined && isCompressible(contentType) && /\bgzip\b/.test(String(request.headers['accept-encoding']))) {
      const packed = compressed.get(file) ?? gzipSync(body, { level: 9 });
      compressed.set(file, packed);
      body = packed;
      headers['Content-Encoding'] = 'gzip';
      headers.Vary = 'Accept-Encoding';
    }
    headers['Content-Length'] = body.length;
    response.writeHead(status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  const server = createServer((request, response) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    const file = path.join(siteRoot, pathname);
    const inside = file === siteRoot || file.startsWith(siteRoot + path.sep);
    const notFound = path.join(siteRoot, '404.html');
    if (!inside || pathname === '/_headers' || !existsSync(file)) {
      send(request, response, 404, pathname, existsSync(notFound) ? notFound : undefined);
    } else if (!statSync(file).isDirectory()) {
      send(request, response, 200, pathname, file);
    } else if (!pathname.endsWith('/')) {
      send(request, response, 301, pathname, undefined, { Location: `${pathname}/` });
    } else if (existsSync(path.join(file, 'index.html'))) {
      send(request, response, 200, pathname, path.join(file, 'index.html'));
    } else {
      send(request, response, 404, pathname, existsSync(notFound) ? notFound : undefined);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${boundPort}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
