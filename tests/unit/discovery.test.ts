import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  apiCatalog,
  apiCatalogPath,
  apiCatalogType,
  openApiJsonPath,
  openApiJsonType,
  openApiYamlPath,
  openApiYamlType,
  robotsTxt,
  serverCardPath,
  serverCardType,
  serviceDescHeadEntry,
  sitemapPath,
} from '../../src/lib/site/discovery.ts';
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
    [apiCatalogPath, apiCatalogType],
    [openApiJsonPath, openApiJsonType],
    [openApiYamlPath, openApiYamlType],
  ];
  for (const [pathname, type] of machineReadable) {
    it(`serves ${pathname} as ${type}, to any origin, cached`, () => {
      assert.deepEqual(header(pathname, 'Content-Type'), [type]);
      assert.deepEqual(header(pathname, 'Access-Control-Allow-Origin'), ['*']);
      assert.match(header(pathname, 'Cache-Control').join(), /^public, max-age=\d+/);
    });
  }

  it('announces the api-catalog with its link relation (RFC 9727, section 2)', () => {
    assert.deepEqual(header(apiCatalogPath, 'Link'), [`<${apiCatalogPath}>; rel="api-catalog"`]);
  });

  const everyKindOfPath = ['/', '/quickstart/', '/404.html', '/_astro/x.css', '/pagefind/pagefind.js', '/favicon.svg', '/robots.txt', '/sitemap-index.xml'];
  const fetchedByOtherOrigins = [serverCardPath, apiCatalogPath, openApiJsonPath, openApiYamlPath, '/llms.txt', '/llms-full.txt'];

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
