import type { APIRoute } from 'astro';
import { apiCatalog, apiCatalogType } from '../../lib/site/discovery.ts';
import { siteConfig } from '../../site-config.ts';

// Static hosts serve this file without an extension; `public/_headers` gives it its media type.
export const GET: APIRoute = () =>
  new Response(`${JSON.stringify(apiCatalog(siteConfig), null, 2)}\n`, {
    headers: { 'Content-Type': apiCatalogType },
  });
