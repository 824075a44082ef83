import type { APIRoute } from 'astro';
import { bundleTryPanel } from '../sandbox/in-browser/bundle.ts';

/** The "Try it" panel of the action pages, imported by the request builder on the reader's first click only. */
export const GET: APIRoute = async () =>
  new Response(await bundleTryPanel(), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
