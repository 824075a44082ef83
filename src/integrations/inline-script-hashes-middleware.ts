import { defineMiddleware } from 'astro:middleware';
import { withInlineHashes } from '../lib/site/content-security-policy.ts';

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
  const html = await response.text();
  return new Response(withInlineHashes(html), { status: response.status, statusText: response.statusText, headers: response.headers });
});
