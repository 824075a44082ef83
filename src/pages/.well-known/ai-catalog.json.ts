import type { APIRoute } from 'astro';
import { readServerIdentity } from '../../mcp-server/identity.ts';
import { aiCatalog, aiCatalogType } from '../../lib/site/discovery.ts';
import { siteConfig } from '../../site-config.ts';

/**
 * The AI catalog of the documentation domain (ARD 1.0): one entry, the product-information server,
 * by its card. The entry's name, title and description are the card's own, read from the same file.
 */
export const GET: APIRoute = () => {
  const { card } = readServerIdentity(process.cwd());
  return new Response(`${JSON.stringify(aiCatalog(card, siteConfig), null, 2)}\n`, { headers: { 'Content-Type': aiCatalogType } });
};
