import type { APIRoute } from 'astro';
import { readServerIdentity } from '../../mcp-server/identity.ts';
import { serverCardPath } from '../../lib/site/discovery.ts';
import { siteConfig } from '../../site-config.ts';

/**
 * The AI catalog of the documentation domain: one entry, the product-information server, by its
 * card. The server's name and description are the card's own, read from the same file.
 */
export const GET: APIRoute = () => {
  const { card } = readServerIdentity(process.cwd());
  const catalog = {
    version: '1.0',
    entries: [
      {
        type: 'mcp-server',
        name: card.name,
        title: card.title,
        description: card.description,
        url: siteConfig.mcpUrl,
        card: new URL(serverCardPath, siteConfig.docsUrl).href,
      },
    ],
  };
  return new Response(`${JSON.stringify(catalog, null, 2)}\n`, { headers: { 'Content-Type': 'application/json' } });
};
