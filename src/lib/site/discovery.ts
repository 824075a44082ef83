/**
 * What the discovery files say: the OpenAPI downloads every page links to (RFC 8631), the
 * RFC 9727 api-catalog, `robots.txt` and the server card's address. Built from the site
 * configuration, so changing a URL there changes every file that names it.
 */
import { downloadPaths, endpointPagePath } from './navigation.ts';

export interface DiscoveryConfig {
  docsUrl: string;
  mcpUrl: string;
}

/** Where the bundled OpenAPI document is published, in both serialisations. */
export const openApiJsonPath = downloadPaths.json;
export const openApiYamlPath = downloadPaths.yaml;
export const openApiJsonType = 'application/openapi+json';
export const openApiYamlType = 'application/openapi+yaml';

export const serverCardPath = '/.well-known/mcp/server-card.json';
export const serverCardType = 'application/mcp-server-card+json';

export const apiCatalogPath = '/.well-known/api-catalog';
/** RFC 9727, section 4.2: a linkset with the api-catalog profile. */
export const apiCatalogProfile = 'https://www.rfc-editor.org/info/rfc9727';
export const apiCatalogType = `application/linkset+json; profile="${apiCatalogProfile}"`;

export const sitemapPath = '/sitemap-index.xml';

/** The `<link rel="service-desc">` every page carries (RFC 8631). */
export const serviceDescHeadEntry = {
  tag: 'link',
  attrs: { rel: 'service-desc', href: openApiJsonPath, type: openApiJsonType },
} as const;

function absolute(path: string, config: DiscoveryConfig): string {
  return new URL(path, config.docsUrl).href;
}

interface LinkTarget {
  href: string;
  type: string;
  title?: string;
}

export interface ApiCatalog {
  linkset: { anchor: string; 'service-desc': LinkTarget[]; 'service-doc': LinkTarget[] }[];
}

/**
 * The RFC 9727 catalog. The endpoint itself lives on every operator's own host, so no single URL
 * of it exists; the catalog anchors the API at its reference page on this domain instead.
 */
export function apiCatalog(config: DiscoveryConfig): ApiCatalog {
  return {
    linkset: [
      {
        anchor: absolute(endpointPagePath, config),
        'service-desc': [
          { href: absolute(openApiJsonPath, config), type: openApiJsonType },
          { href: absolute(openApiYamlPath, config), type: openApiYamlType },
        ],
        'service-doc': [{ href: absolute('/', config), type: 'text/html', title: 'Subscription Lifecycle Action Service documentation' }],
      },
    ],
  };
}

/** `robots.txt`: everything may be crawled; the sitemap is named with the configured origin. */
export function robotsTxt(config: DiscoveryConfig): string {
  return ['User-agent: *', 'Allow: /', '', `Sitemap: ${absolute(sitemapPath, config)}`, ''].join('\n');
}
