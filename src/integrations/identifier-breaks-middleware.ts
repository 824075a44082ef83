import { defineMiddleware } from 'astro:middleware';
import { markIdentifierBreaks } from '../lib/site/identifier-breaks.ts';

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
  const html = await response.text();
  return new Response(markIdentifierBreaks(html), { status: response.status, statusText: response.statusText, headers: response.headers });
});
