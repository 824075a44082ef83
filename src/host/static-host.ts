import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { noneMatchHits } from '../lib/http/entity-tags.ts';
import { detachedHeadersFor, joinedHeadersFor, parseHeadersFile, type HeaderRule } from '../lib/site/static-headers.ts';

/** Media types by extension, as static hosts send them; `_headers` may set others per path. */
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.tgz': 'application/gzip',
};

/** Types worth compressing; images, fonts and Pagefind's pre-compressed index are not. */
function isCompressible(contentType: string): boolean {
  return /^text\/|javascript|json|xml|yaml|svg|wasm|markdown/.test(contentType);
}

export interface StaticHost {
  origin: string;
  close(): Promise<void>;
}

/**
 * A key and certificate (PEM) to serve HTTPS with HTTP/2, as the production hosts do, instead of
 * plain HTTP/1.1. Over HTTP/2 the response headers, the same long security set on every
 * response, are compressed across the responses of a page load (HPACK), so a page of several
 * files pays for them about once, as it does in production.
 */
export interface StaticHostTls {
  key: string;
  cert: string;
}

/** What the server reads of a request, which HTTP/1.1's and HTTP/2's compatible ones both give. */
type AnyRequest = Pick<IncomingMessage | Http2ServerRequest, 'url' | 'method' | 'headers'>;

/** What the server does with a response, which HTTP/1.1's and HTTP/2's compatible ones both allow. */
interface AnyResponse {
  writeHead(status: number, headers?: Record<string, string | number>): unknown;
  end(): unknown;
  end(body: Buffer | string): unknown;
}

/**
 * The site's `_headers`, read again whenever it changes: the server may start before the build
 * that writes it ends. A file the hosts would reject stops the response with its line number.
 */
function headerRulesOf(siteRoot: string): () => readonly HeaderRule[] {
  const headersFile = path.join(siteRoot, '_headers');
  let cached: { modified: number; rules: readonly HeaderRule[] } | undefined;
  return () => {
    if (!existsSync(headersFile)) return [];
    const modified = statSync(headersFile).mtimeMs;
    if (cached?.modified !== modified) {
      cached = { modified, rules: parseHeadersFile(readFileSync(headersFile, 'utf8'), '_headers') };
    }
    return cached.rules;
  };
}

/**
 * Serves a built site the way the production host (see the README's deploy section) does, so
 * people, the browser tests and the benchmark all meet it as readers will:
 * - a file is served at its exact path, extension or not (`/.well-known/api-catalog`);
 * - `/dir/` answers with `dir/index.html`, and `/dir` redirects there (301);
 * - anything else answers 404 with the site's `404.html`;
 * - the rules of the site's `_headers` file apply, values of a header set by several matching
 *   rules joined with commas as the hosts join them, a `! Name` line detaching what earlier
 *   rules set (Cloudflare Pages), and the file itself is not served;
 * - text goes out gzipped (level 9, as hosts pre-compress static files) when the browser
 *   accepts it, so byte counts compare like with like;
 * - a file goes out with a strong ETag, and a request whose `If-None-Match` names it gets 304;
 * - a CORS preflight (OPTIONS with `Origin` and `Access-Control-Request-Method`) on a path whose
 *   rules set `Access-Control-Allow-Origin` gets 204 and those rules' CORS headers; any other
 *   method than GET, HEAD and such a preflight gets 405.
 */
export async function serveLikeAStaticHost(root: string, port = 0, host = '127.0.0.1', tls?: StaticHostTls): Promise<StaticHost> {
  const siteRoot = path.resolve(root);
  const headerRules = headerRulesOf(siteRoot);
  const compressed = new Map<string, Buffer>();

  /** The file's strong tag, a hash of its bytes, computed once per version of the file. */
  const tags = new Map<string, string>();
  function entityTag(version: string, bytes: Buffer): string {
    const tag = tags.get(version) ?? `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
    tags.set(version, tag);
    return tag;
  }

  /** The headers the `_headers` rules give a path, replacing the defaults; `! Name` drops a default. */
  function withRules(defaults: Record<string, string | number>, pathname: string): Record<string, string | number> {
    const headers = { ...defaults };
    // Rules are matched on the path asked for, as the hosts match them.
    for (const name of detachedHeadersFor(headerRules(), pathname)) {
      const existing = Object.keys(headers).find((key) => key.toLowerCase() === name);
      if (existing !== undefined) delete headers[existing];
    }
    for (const [name, value] of joinedHeadersFor(headerRules(), pathname)) {
      const existing = Object.keys(headers).find((key) => key.toLowerCase() === name);
      if (existing !== undefined) delete headers[existing];
      headers[name] = value;
    }
    return headers;
  }

  function send(
    request: AnyRequest,
    response: AnyResponse,
    status: number,
    pathname: string,
    file: string | undefined,
    extraHeaders: Record<string, string> = {},
  ): void {
    const defaults: Record<string, string | number> = { 'Cache-Control': 'no-cache', ...extraHeaders };
    let body: Buffer = Buffer.alloc(0);
    // The caches are keyed by modification time too: a rebuild while the server runs must not serve old bytes.
    let version = '';
    if (file !== undefined) {
      body = readFileSync(file);
      version = `${file}\0${statSync(file).mtimeMs}`;
      defaults['Content-Type'] = contentTypes[path.extname(file)] ?? 'application/octet-stream';
    }
    const headers = withRules(defaults, pathname);
    const etag = status === 200 && file !== undefined ? entityTag(version, body) : undefined;
    const contentType = String(Object.entries(headers).find(([key]) => key.toLowerCase() === 'content-type')?.[1] ?? '');
    if (file !== undefined && isCompressible(contentType) && /\bgzip\b/.test(String(request.headers['accept-encoding']))) {
      const packed = compressed.get(version) ?? gzipSync(body, { level: 9 });
      compressed.set(version, packed);
      body = packed;
      headers['Content-Encoding'] = 'gzip';
      headers.Vary = 'Accept-Encoding';
    }
    if (etag !== undefined) {
      // The gzipped bytes are another representation, so a strong tag must differ from the plain one's.
      headers.ETag = headers['Content-Encoding'] === 'gzip' ? `${etag.slice(0, -1)}-gzip"` : etag;
      if (noneMatchHits(request.headers['if-none-match'], headers.ETag)) {
        response.writeHead(304, headers);
        response.end();
        return;
      }
    }
    headers['Content-Length'] = body.length;
    response.writeHead(status, headers);
    if (request.method === 'HEAD') response.end();
    else response.end(body);
  }

  /**
   * A CORS preflight on a path whose rules open it to other origins: 204 with the rules' CORS
   * headers, so a browser may then send what they allow (`If-None-Match`, for a revalidation).
   */
  function answerPreflight(request: AnyRequest, response: AnyResponse, pathname: string): boolean {
    if (request.headers.origin === undefined || request.headers['access-control-request-method'] === undefined) return false;
    const rules = joinedHeadersFor(headerRules(), pathname);
    if (!rules.has('access-control-allow-origin')) return false;
    const corsHeaders = Object.fromEntries([...rules].filter(([name]) => name.startsWith('access-control-')));
    response.writeHead(204, corsHeaders);
    response.end();
    return true;
  }

  function answer(request: AnyRequest, response: AnyResponse): void {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      response.writeHead(400);
      response.end();
      return;
    }
    if (request.method === 'OPTIONS' && answerPreflight(request, response, pathname)) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' });
      response.end();
      return;
    }
    try {
      const file = path.join(siteRoot, pathname);
      const inside = file === siteRoot || file.startsWith(siteRoot + path.sep);
      const notFound = path.join(siteRoot, '404.html');
      if (!inside || pathname === '/_headers' || !existsSync(file)) {
        send(request, response, 404, pathname, existsSync(notFound) ? notFound : undefined);
      } else if (!statSync(file).isDirectory()) {
        send(request, response, 200, pathname, file);
      } else if (!pathname.endsWith('/')) {
        const query = new URL(request.url ?? '/', 'http://127.0.0.1').search;
        send(request, response, 301, pathname, undefined, { Location: `${pathname}/${query}` });
      } else if (existsSync(path.join(file, 'index.html'))) {
        send(request, response, 200, pathname, path.join(file, 'index.html'));
      } else {
        send(request, response, 404, pathname, existsSync(notFound) ? notFound : undefined);
      }
    } catch (error) {
      // A `_headers` file the hosts would reject: say where, instead of serving without it.
      response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`${(error as Error).message}\n`);
    }
  }

  const sessions = new Set<Http2Session>();
  const server = tls === undefined ? createServer(answer) : createSecureServer({ ...tls, allowHTTP1: true }, answer);
  if (tls !== undefined) {
    server.on('session', (session: Http2Session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: boundPort } = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return {
    origin: `${tls === undefined ? 'http' : 'https'}://${shownHost}:${boundPort}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        for (const session of sessions) session.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
