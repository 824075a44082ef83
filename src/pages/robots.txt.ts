import type { APIRoute } from 'astro';
import { robotsTxt } from '../lib/site/discovery.ts';
import { siteConfig } from '../site-config.ts';

export const GET: APIRoute = () =>
  new Response(robotsTxt(siteConfig), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
