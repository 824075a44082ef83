import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConformanceTester } from 'lighthouse/third-party/ard/ard.js';
import {
  aiCatalog,
  aiCatalogPath,
  aiCatalogType,
  apiCatalog,
  apiCatalogPath,
  catalogIdentifier,
  mcpCatalog,
  mcpCatalogPath,
  apiCatalogType,
  openApiJsonPath,
  arazzoYamlPath,
  arazzoYamlType,
  openApiJsonType,
  openApiYamlPath,
  openApiYamlType,
  robotsTxt,
  serverCardPath,
  serverCardType,
  serverCardBesideServer,
  serviceDescHeadEntry,
  sitemapPath,
} from '../../src/lib/site/discovery.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';
import { documentPolicyDirectives, hostPolicy } from '../../src/lib/site/content-security-policy.ts';
import { endpointPagePath } from '../../src/lib/site/navigation.ts';
import { HeadersFileError, headersFor, joinedHeadersFor, parseHeadersFile } from '../../src/lib/site/static-headers.ts';
import { siteConfig } from '../../src/site-config.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const headersText = readFileSync(path.join(projectDirectory, 'public/_headers'), 'utf8');
const rules = parseHeadersFile(headersText, 'public/_headers');
const docsOrigin = new URL(siteConfig.docsUrl).origin;

function header(pathname: string, name: string): string[] {
  return headersFor(rules, pathname).get(name.toLowerCase()) ?? [];
}

describe('public/_headers', () => {
  it('sends nosniff with every response', () => {
    for (const pathname of ['/', '/quickstart/', '/404.html', serverCardPath, apiCatalogPath, openApiJsonPath, '/_astro/x.css']) {
      assert.deepEqual(header(pathname, 'X-Content-Type-Options'), ['nosniff'], pathname);
    }
  });

  const machineReadable: [string, string][] = [
    [serverCardPath, serverCardType],
    [aiCatalogPath, aiCatalogType],
    [mcpCatalogPath, 'application/json'],
    [apiCatalogPath, apiCatalogType],
    [openApiJsonPath, openApiJsonType],
    [openApiYamlPath, openApiYamlType],
    [arazzoYamlPath, arazzoYamlType],
  ];
  for (const [pathname, type] of machineReadable) {
    it(`serves ${pathname} as ${type}, to any origin, cached`, () => {
      assert.deepEqual(header(pathname, 'Content-Type'), [type]);
      assert.deepEqual(header(pathname, 'Access-Control-Allow-Origin'), ['*']);
      assert.match(header(pathname, 'Cache-Control').join(), /^public, max-age=\d+/);
    });
  }

  it('sends the server-card draft’s CORS and cache headers with the card and both catalogs', () => {
    for (const pathname of [serverCardPath, aiCatalogPath, mcpCatalogPath]) {
      assert.deepEqual(header(pathname, 'Access-Control-Allow-Origin'), ['*'], pathname);
      assert.deepEqual(header(pathname, 'Access-Control-Allow-Methods'), ['GET'], pathname);
      assert.deepEqual(header(pathname, 'Access-Control-Allow-Headers'), ['Content-Type, If-None-Match'], pathname);
      assert.deepEqual(header(pathname, 'Access-Control-Expose-Headers'), ['ETag'], pathname);
      assert.deepEqual(header(pathname, 'Cache-Control'), ['public, max-age=3600'], pathname);
    }
  });

  it('announces the api-catalog with its link relation (RFC 9727, section 2)', () => {
    assert.deepEqual(header(apiCatalogPath, 'Link'), [`<${apiCatalogPath}>; rel="api-catalog"`]);
  });

  const everyKindOfPath = ['/', '/quickstart/', '/404.html', '/_astro/x.css', '/pagefind/pagefind.js', '/favicon.svg', '/robots.txt', '/sitemap-index.xml'];
  const fetchedByOtherOrigins = [serverCardPath, aiCatalogPath, mcpCatalogPath, apiCatalogPath, openApiJsonPath, openApiYamlPath, arazzoYamlPath, '/llms.txt', '/llms-full.txt'];

  it('sends the host half of the Content-Security-Policy, once, with every response', () => {
    for (const pathname of [...everyKindOfPath, ...fetchedByOtherOrigins]) {
      assert.deepEqual(header(pathname, 'Content-Security-Policy'), [hostPolicy], pathname);
    }
  });

  it('the header policy names no script or style source, so it never forbids what a page’s hashes allow', () => {
    const directives = hostPolicy.split(';').map((directive) => directive.trim().split(/\s+/)[0]);
    assert.ok(directives.includes('frame-ancestors'), 'a <meta> policy cannot forbid framing, so the header must');
    for (const directive of directives) assert.doesNotMatch(directive ?? '', /^(default|script|style)-src/);
    const metaDirectives = new Set<string>(documentPolicyDirectives);
    for (const directive of hostPolicy.split('; ').filter((entry) => !entry.startsWith('frame-ancestors'))) {
      assert.ok(metaDirectives.has(directive), `${directive} is in the header but not the same in the page's policy`);
    }
  });

  it('sends the other security headers with every response, one value each', () => {
    for (const pathname of [...everyKindOfPath, ...fetchedByOtherOrigins]) {
      const joined = joinedHeadersFor(rules, pathname);
      assert.equal(joined.get('referrer-policy'), 'strict-origin-when-cross-origin', pathname);
      assert.equal(joined.get('cross-origin-opener-policy'), 'same-origin', pathname);
      assert.equal(joined.get('x-content-type-options'), 'nosniff', pathname);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
        assert.match(joined.get('permissions-policy') ?? '', new RegExp(`(^|, )${feature}=\\(\\)`), `${pathname} ${feature}`);
      }
    }
  });

  it('keeps resources same-origin, except the files other origins fetch, which are cross-origin and open to CORS', () => {
    for (const pathname of everyKindOfPath) {
      assert.equal(joinedHeadersFor(rules, pathname).get('cross-origin-resource-policy'), 'same-origin', pathname);
    }
    for (const pathname of fetchedByOtherOrigins) {
      const joined = joinedHeadersFor(rules, pathname);
      assert.equal(joined.get('cross-origin-resource-policy'), 'cross-origin', pathname);
      assert.equal(joined.get('access-control-allow-origin'), '*', pathname);
    }
  });

  it('does not send CORS headers for ordinary pages', () => {
    assert.deepEqual(header('/quickstart/', 'Access-Control-Allow-Origin'), []);
  });

  it('is refused with its line when malformed', () => {
    assert.throws(() => parseHeadersFile('/a\n  no colon here\n'), (error: unknown) => {
      assert.ok(error instanceof HeadersFileError);
      assert.match(error.message, /_headers:2:/);
      return true;
    });
    assert.throws(() => parseHeadersFile('relative/path\n'), /_headers:1: a path must start with "\/"/);
  });

  it('lets a later rule detach a header an earlier one set, then set its own (Cloudflare Pages’ `! Name`)', () => {
    const detaching = parseHeadersFile('/*\n  X-A: outer\n  X-B: kept\n/inner\n  ! X-A\n  X-A: inner\n');
    assert.deepEqual([...joinedHeadersFor(detaching, '/inner')], [['x-b', 'kept'], ['x-a', 'inner']]);
    assert.deepEqual([...joinedHeadersFor(detaching, '/other')], [['x-a', 'outer'], ['x-b', 'kept']]);
  });
});

describe('the api-catalog (RFC 9727)', () => {
  const catalog = apiCatalog(siteConfig);
  const entry = catalog.linkset[0];

  it('is a linkset with one API', () => {
    assert.equal(catalog.linkset.length, 1);
    assert.ok(entry);
  });

  it('anchors the API at its reference page on the configured documentation site', () => {
    assert.equal(entry?.anchor, new URL(endpointPagePath, docsOrigin).href);
  });

  it('names the OpenAPI downloads as service-desc and the docs as service-doc', () => {
    assert.deepEqual(entry?.['service-desc'], [
      { href: new URL(openApiJsonPath, docsOrigin).href, type: openApiJsonType },
      { href: new URL(openApiYamlPath, docsOrigin).href, type: openApiYamlType },
      { href: new URL(arazzoYamlPath, docsOrigin).href, type: arazzoYamlType, title: 'The lifecycle as Arazzo workflows' },
    ]);
    assert.equal(entry?.['service-doc'][0]?.href, `${docsOrigin}/`);
    assert.equal(entry?.['service-doc'][0]?.type, 'text/html');
  });

  it('follows the configuration when the documentation moves', () => {
    const moved = apiCatalog({ ...siteConfig, docsUrl: 'https://api-docs.shop.example' });
    const hrefs = JSON.stringify(moved).match(/https?:\/\/[^"]+/g) ?? [];
    assert.ok(hrefs.length > 0);
    assert.ok(hrefs.every((href) => href.startsWith('https://api-docs.shop.example/')), hrefs.join(', '));
  });
});

describe('the catalogs that list the server card', () => {
  const { card } = readServerIdentity(projectDirectory);
  const cardBesideServer = `${siteConfig.mcpUrl}/server-card`;

  /** Lighthouse's own check (its agentic-browsing audit `ard-schema`), run on the catalog as served. */
  function lighthouseFindings(catalog: unknown): string[] {
    const tester = new ConformanceTester();
    tester.validate_manifest(JSON.stringify(catalog), 'ai-catalog.json');
    return [...tester.errors, ...tester.warnings].map(({ element, message }) => `${element}: ${message}`);
  }

  it('the AI catalog passes Lighthouse’s agentic-browsing audit without an error or a warning', () => {
    assert.deepEqual(lighthouseFindings(aiCatalog(card, siteConfig)), []);
  });

  it('the check can fail: an entry without its identifier, or of a type it does not know, is reported', () => {
    const catalog = aiCatalog(card, siteConfig);
    const [entry] = catalog.entries;
    assert.ok(entry);
    const { identifier: _dropped, ...withoutIdentifier } = entry;
    assert.ok(lighthouseFindings({ ...catalog, entries: [withoutIdentifier] }).some((finding) => /identifier/.test(finding)));
    assert.ok(lighthouseFindings({ ...catalog, entries: [{ ...entry, type: 'mcp-server' }] }).some((finding) => /mcp-server/.test(finding)));
    assert.ok(lighthouseFindings({ entries: catalog.entries }).some((finding) => /specVersion/.test(finding)));
  });

  it('both list the card with its media type, at {mcp_url}/server-card, where the MCP server answers with it', () => {
    for (const catalog of [mcpCatalog(card, siteConfig), aiCatalog(card, siteConfig)]) {
      assert.equal(catalog.entries.length, 1);
      assert.equal(catalog.entries[0]?.type, serverCardType);
      assert.equal(catalog.entries[0]?.url, cardBesideServer);
    }
    assert.equal(serverCardBesideServer({ ...siteConfig, mcpUrl: 'https://tools.example/v2/mcp/' }), 'https://tools.example/v2/mcp/server-card');
  });

  it('the MCP catalog is the draft revision 3b2d974’s: its version and the three members an entry has, no displayName', () => {
    assert.deepEqual(mcpCatalog(card, siteConfig), {
      specVersion: 'draft',
      entries: [{ identifier: catalogIdentifier(card.name), type: serverCardType, url: cardBesideServer }],
    });
  });

  it('the AI catalog’s entry carries the card’s title as its displayName, and the same identifier', () => {
    const [entry] = aiCatalog(card, siteConfig).entries;
    assert.equal(entry?.displayName, card.title);
    assert.equal(entry?.identifier, mcpCatalog(card, siteConfig).entries[0]?.identifier);
  });

  it('an identifier is the card’s domain written forwards, the mcp namespace and its suffix, as the draft’s example', () => {
    assert.equal(catalogIdentifier('com.example/weather'), 'urn:air:example.com:mcp:weather');
    assert.equal(catalogIdentifier('example.subscription-lifecycle/product-information'), 'urn:air:subscription-lifecycle.example:mcp:product-information');
    assert.throws(() => catalogIdentifier('weather'), /reverse-DNS name/);
    assert.throws(() => catalogIdentifier('com.example/a/b'), /reverse-DNS name/);
  });
});

describe('other discovery files', () => {
  it('robots.txt names the sitemap with the configured origin', () => {
    const lines = robotsTxt(siteConfig).split('\n');
    assert.ok(lines.includes(`Sitemap: ${docsOrigin}${sitemapPath}`), lines.join('\n'));
    assert.ok(lines.includes('User-agent: *'));
    assert.ok(!lines.includes('Disallow: /'), 'the documentation may be crawled');
  });

  it('every page links to the JSON download as its service description (RFC 8631)', () => {
    assert.deepEqual(serviceDescHeadEntry, {
      tag: 'link',
      attrs: { rel: 'service-desc', href: openApiJsonPath, type: openApiJsonType },
    });
    const config = readFileSync(path.join(projectDirectory, 'astro.config.mjs'), 'utf8');
    assert.match(config, /head: \[\{ \.\.\.serviceDescHeadEntry/, 'astro.config.mjs passes the entry to Starlight’s head');
  });

  it('the server card file is where the discovery settings say', () => {
    assert.ok(existsSync(path.join(projectDirectory, 'public', serverCardPath)));
  });
});
