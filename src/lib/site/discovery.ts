/**
 * What the discovery files say: the OpenAPI downloads every page links to (RFC 8631), the
 * RFC 9727 api-catalog, `robots.txt`, the server card's addresses and the two catalogs that list
 * it. Built from the site configuration, so changing a URL there changes every file that names it.
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
/** The lifecycle as Arazzo workflows, beside the OpenAPI document it runs against. */
export const arazzoYamlPath = downloadPaths.arazzo;
/** The media type the Arazzo Specification 1.0.1 proposes for its YAML documents (section 6.3). */
export const arazzoYamlType = 'application/vnd.oai.workflows+yaml';

export const serverCardPath = '/.well-known/mcp/server-card.json';
export const serverCardType = 'application/mcp-server-card+json';

/**
 * The AI catalog, where the server-card draft (modelcontextprotocol's experimental-ext-server-card,
 * docs/discovery.md, since 1491bd2 of 2026-07-20) sends clients and which Lighthouse's
 * agentic-browsing audit reads; and the MCP catalog of the draft's earlier revision (3b2d974), kept
 * for the clients written against it (issue 27).
 */
export const aiCatalogPath = '/.well-known/ai-catalog.json';
export const aiCatalogType = 'application/ai-catalog+json';
export const mcpCatalogPath = '/.well-known/mcp/catalog.json';

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
          { href: absolute(arazzoYamlPath, config), type: arazzoYamlType, title: 'The lifecycle as Arazzo workflows' },
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

/** The fields of the server card a catalog entry is made of. */
export interface CardIdentity {
  /** Reverse-DNS name with a suffix, as the card has it: `com.example/weather`. */
  name: string;
  title: string;
  description: string;
}

/** Where the server-card draft reserves a card beside its server: `{mcp_url}/server-card`. */
export function serverCardBesideServer(config: DiscoveryConfig): string {
  return `${config.mcpUrl.replace(/\/$/, '')}/server-card`;
}

/** The namespace the draft's examples give an MCP server's identifier. */
export const catalogNamespace = 'mcp';

/**
 * The draft's logical name of a server, `urn:air:{publisher}:{namespace}:{name}`: the publisher's
 * domain written forwards, the `mcp` namespace, then the card's suffix, so `com.example/weather` is
 * `urn:air:example.com:mcp:weather`.
 */
export function catalogIdentifier(cardName: string): string {
  const [reversedDomain, suffix, ...rest] = cardName.split('/');
  if (reversedDomain === undefined || suffix === undefined || suffix === '' || rest.length > 0 || !reversedDomain.includes('.')) {
    throw new Error(`The server card's name "${cardName}" is not a reverse-DNS name with one "/" and a suffix, such as com.example/weather.`);
  }
  return `urn:air:${reversedDomain.split('.').reverse().join('.')}:${catalogNamespace}:${suffix}`;
}

/** An entry as the draft defines it: no name of its own, since the card's `title` is the name. */
export interface McpCatalogEntry {
  identifier: string;
  type: typeof serverCardType;
  url: string;
}

/** The one entry both catalogs carry: the card where the draft looks for it, beside the server. */
export function serverCardEntry(card: CardIdentity, config: DiscoveryConfig): McpCatalogEntry {
  return { identifier: catalogIdentifier(card.name), type: serverCardType, url: serverCardBesideServer(config) };
}

/**
 * The MCP catalog of the draft's revision 3b2d974: its version string `draft`, and entries of
 * `identifier`, `type` and `url` only (that revision dropped `displayName` in 72793bb).
 */
export function mcpCatalog(card: CardIdentity, config: DiscoveryConfig): { specVersion: 'draft'; entries: McpCatalogEntry[] } {
  return { specVersion: 'draft', entries: [serverCardEntry(card, config)] };
}

/**
 * Questions the server is there to answer, in a reader's words: an ARD search service indexes an
 * entry by two to five of them. They name topics of the card's description, never an answer.
 */
export function representativeQueries(serviceName: string): string[] {
  return [
    `How much does the ${serviceName} cost?`,
    `Which payment gateways does the ${serviceName} work with?`,
    `What do the editions of the ${serviceName} include?`,
    `Which actions does the ${serviceName} API offer?`,
  ];
}

export interface AiCatalog {
  specVersion: '1.0';
  host: { displayName: string; documentationUrl: string };
  entries: (McpCatalogEntry & { displayName: string; description: string; representativeQueries: string[] })[];
}

/**
 * The AI catalog: the same entry, with the card's title and description and the queries ARD
 * recommends. The AI Catalog makes `displayName` optional; Lighthouse's audit wants it.
 */
export function aiCatalog(card: CardIdentity, config: DiscoveryConfig & { title: string }): AiCatalog {
  return {
    specVersion: '1.0',
    host: { displayName: config.title, documentationUrl: absolute('/', config) },
    entries: [{ ...serverCardEntry(card, config), displayName: card.title, description: card.description, representativeQueries: representativeQueries(config.title) }],
  };
}
