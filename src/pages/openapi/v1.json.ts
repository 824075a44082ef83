import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRoute } from 'astro';
import { bundleDirectory } from '../../lib/contract/bundle.ts';

/** The bundled contract as Redocly wrote it, published unchanged. */
export const GET: APIRoute = () =>
  new Response(readFileSync(path.resolve(bundleDirectory, 'v1.json')), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
