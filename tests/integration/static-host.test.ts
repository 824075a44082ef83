/**
 * The host-like server behind `npm run preview`, the browser tests and the benchmark, over real
 * HTTP: a small built site with the project's own `public/_headers` and its server card.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveLikeAStaticHost, type StaticHost } from '../../src/host/static-host.ts';
import { projectDirectory } from '../support/contract-copy.ts';

let site: StaticHost;
let siteDirectory: string;

before(async () => {
  siteDirectory = mkdtempSync(path.join(tmpdir(), 'static-host-'));
  cpSync(path.join(projectDirectory, 'public'), siteDirectory, { recursive: true });
  // Two rules that both set Link on one page: hosts join the values. A third detaches a header.
  const headers = readFileSync(path.join(projectDirectory, 'public/_headers'), 'utf8');
  writeFileSync(path.join(siteDirectory, '_headers'), `${headers}\n/guide/*\n  Link: </a>; rel="first"\n/guide/\n  Link: </b>; rel="second"\n/uncached/\n  ! Cache-Control\n`);
  writeFileSync(path.join(siteDirectory, '.well-known/api-catalog'), '{"linkset":[]}');
  writeFileSync(path.join(siteDirectory, '404.html'), '<!doctype html><title>Page not found</title>');
  mkdirSync(path.join(siteDirectory, 'guide'));
  mkdirSync(path.join(siteDirectory, 'uncached'));
  writeFileSync(path.join(siteDirectory, 'uncached/index.html'), '<!doctype html><title>Uncached</title>');
  writeFileSync(path.join(siteDirectory, 'guide/index.html'), '<!doctype html><title>Guide</title>');
  site = await serveLikeAStaticHost(siteDirectory);
});

after(async () => {
  await site.close();
  rmSync(siteDirectory, { recursive: true, force: true });
});

function get(pathname: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${site.origin}${pathname}`, { redirect: 'manual', ...init });
}

describe('the host-like server', () => {
  test('serves the server card with the media type of _headers, CORS open', async () => {
    const response = await get('/.well-known/mcp/server-card.json');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/mcp-server-card+json');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(await response.json(), JSON.parse(readFileSync(path.join(projectDirectory, 'public/.well-known/mcp/server-card.json'), 'utf8')));
  });

  test('serves a file without an extension, the API catalog, with its linkset type', async () => {
    const response = await get('/.well-known/api-catalog');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"$/);
    assert.match(response.headers.get('link') ?? '', /rel="api-catalog"/);
  });

  test('sends the security headers, one Cross-Origin-Resource-Policy each: same-origin on pages, cross-origin on the server card', async () => {
    const page = await get('/guide/');
    assert.equal(page.headers.get('cross-origin-resource-policy'), 'same-origin');
    assert.equal(page.headers.get('cross-origin-opener-policy'), 'same-origin');
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(page.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    const card = await get('/.well-known/mcp/server-card.json');
    assert.equal(card.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(card.headers.get('access-control-allow-origin'), '*');
  });

  test('a detached header loses the host’s own default too', async () => {
    const response = await get('/uncached/');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), null);
  });

  test('joins the values of a header that several matching rules set', async () => {
    const response = await get('/guide/');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('link'), '</a>; rel="first", </b>; rel="second"');
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  test('redirects a folder without its trailing slash, keeping the query', async () => {
    const response = await get('/guide?from=test');
    assert.equal(response.status, 301);
    assert.equal(response.headers.get('location'), '/guide/?from=test');
  });

  test('answers 404 with the 404 page for a missing path, the _headers file and a path outside the site', async () => {
    for (const pathname of ['/missing/', '/_headers', '/%2e%2e/%2e%2e/etc/passwd']) {
      const response = await get(pathname);
      assert.equal(response.status, 404, pathname);
      assert.match(await response.text(), /Page not found/, pathname);
    }
  });

  test('compresses text for a browser that accepts gzip, and answers HEAD without a body', async () => {
    const compressed = await get('/guide/', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(compressed.headers.get('content-encoding'), 'gzip');
    const head = await get('/guide/', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  test('sends a strong ETag for a file, and answers its If-None-Match with 304, no body and the same headers', async () => {
    const cardPath = '/.well-known/mcp/server-card.json';
    const first = await get(cardPath, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.headers.get('etag') ?? '';
    assert.match(etag, /^"[\w-]{20,}"$/, 'a strong tag, not W/');
    assert.equal((await get(cardPath, { headers: { 'accept-encoding': 'identity' } })).headers.get('etag'), etag, 'the same bytes, the same tag');
    assert.notEqual((await get('/guide/')).headers.get('etag'), etag, 'other bytes, another tag');
    const again = await get(cardPath, { headers: { 'accept-encoding': 'identity', 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    assert.equal(again.headers.get('etag'), etag);
    for (const name of ['content-type', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'cross-origin-resource-policy']) {
      assert.equal(again.headers.get(name), first.headers.get(name), name);
    }
    const stale = await get(cardPath, { headers: { 'accept-encoding': 'identity', 'if-none-match': '"not-this-one"' } });
    assert.equal(stale.status, 200);
    assert.ok((await stale.text()).length > 0);
  });

  test('gives the gzipped representation its own tag, which revalidates too', async () => {
    const plain = await get('/guide/', { headers: { 'accept-encoding': 'identity' } });
    const packed = await get('/guide/', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(packed.headers.get('content-encoding'), 'gzip');
    assert.notEqual(packed.headers.get('etag'), plain.headers.get('etag'));
    const again = await get('/guide/', { headers: { 'accept-encoding': 'gzip', 'if-none-match': packed.headers.get('etag') ?? '' } });
    assert.equal(again.status, 304);
  });

  test('tags a file anew when it changes', async () => {
    const file = path.join(siteDirectory, 'uncached/index.html');
    const before = (await get('/uncached/')).headers.get('etag');
    writeFileSync(file, '<!doctype html><title>Uncached, changed</title>');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const changed = await get('/uncached/', { headers: { 'if-none-match': before ?? '' } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), before);
  });

  test('answers a CORS preflight on the card and the catalogs with 204 and their rules’ CORS headers', async () => {
    for (const pathname of ['/.well-known/mcp/server-card.json', '/.well-known/mcp/catalog.json', '/.well-known/ai-catalog.json']) {
      const response = await get(pathname, {
        method: 'OPTIONS',
        headers: { origin: 'https://client.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
      });
      assert.equal(response.status, 204, pathname);
      assert.equal(response.headers.get('access-control-allow-origin'), '*', pathname);
      assert.equal(response.headers.get('access-control-allow-methods'), 'GET', pathname);
      assert.match(response.headers.get('access-control-allow-headers') ?? '', /\bIf-None-Match\b/, pathname);
      assert.equal(response.headers.get('access-control-expose-headers'), 'ETag', pathname);
      assert.equal(await response.text(), '', pathname);
    }
  });

  test('refuses OPTIONS that is not a preflight, or on a path not open to other origins', async () => {
    const preflight = { origin: 'https://client.example', 'access-control-request-method': 'GET' };
    for (const [pathname, headers] of [
      ['/guide/', preflight],
      ['/.well-known/mcp/server-card.json', { origin: 'https://client.example' }],
      ['/.well-known/mcp/server-card.json', {}],
    ] as const) {
      const response = await get(pathname, { method: 'OPTIONS', headers });
      assert.equal(response.status, 405, `${pathname} ${JSON.stringify(headers)}`);
      assert.equal(response.headers.get('allow'), 'GET, HEAD');
    }
  });

  test('refuses methods a static host does not take', async () => {
    const response = await get('/guide/', { method: 'POST', body: '{}' });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'GET, HEAD');
  });
});

describe('the host-like server over HTTPS with HTTP/2, as the bench serves pages', () => {
  // The certificate is made with openssl; where it is missing the test is skipped and says why.
  const opensslMissing = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0 ? false : 'openssl is not installed';
  test('answers with the same files and headers over HTTP/2', { skip: opensslMissing }, async () => {
    const certificates = mkdtempSync(path.join(tmpdir(), 'static-host-tls-'));
    const key = path.join(certificates, 'key.pem');
    const cert = path.join(certificates, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const secure = await serveLikeAStaticHost(siteDirectory, 0, '127.0.0.1', { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') });
    const session = http2.connect(secure.origin, { ca: readFileSync(cert, 'utf8') });
    try {
      assert.match(secure.origin, /^https:\/\//);
      const answer = await new Promise<{ headers: http2.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const stream = session.request({ ':path': '/guide/', 'accept-encoding': 'identity' });
        let headers: http2.IncomingHttpHeaders = {};
        let body = '';
        stream.on('response', (received) => (headers = received));
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (body += chunk));
        stream.on('end', () => resolve({ headers, body }));
        stream.on('error', reject);
      });
      assert.equal(answer.headers[':status'], 200);
      assert.match(String(answer.headers['content-type']), /^text\/html/);
      assert.match(String(answer.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.match(answer.body, /<title>Guide<\/title>/);
    } finally {
      session.close();
      await secure.close();
      rmSync(certificates, { recursive: true, force: true });
    }
  });
});
