import type { APIRoute } from 'astro';
import { readServerIdentity } from '../../../mcp-server/identity.ts';
import { mcpCatalog } from '../../../lib/site/discovery.ts';
import { siteConfig } from '../../../site-config.ts';

/**
 * The MCP catalog of the server-card draft, where a client discovering the domain looks first: the
 * product-information server's card, at the place the draft reserves beside the server.
 */
export const GET: APIRoute = () => {
  const { card } = readServerIdentity(process.cwd());
  return new Response(`${JSON.stringify(mcpCatalog(card, siteConfig), null, 2)}\n`, { headers: { 'Content-Type': 'application/json' } });
};
