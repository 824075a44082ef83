import type { APIRoute } from 'astro';
import { redirectPageHtml } from '../../../lib/site/redirect-page.ts';
import { referenceIndexPath } from '../../../lib/site/navigation.ts';
import { siteConfig } from '../../../site-config.ts';

/** The actions have no index of their own: `/reference/actions/` sends the reader to the reference's index. */
export const GET: APIRoute = () =>
  new Response(redirectPageHtml({ to: referenceIndexPath, label: 'the API reference', siteUrl: siteConfig.docsUrl }), {
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
  });
