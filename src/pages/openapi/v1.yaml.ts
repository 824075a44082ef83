import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRoute } from 'astro';
import { bundleDirectory } from '../../lib/contract/bundle.ts';

/** The bundled contract as YAML; `application/yaml` is its registered media type (RFC 9512). */
export const GET: APIRoute = () =>
  new Response(readFileSync(path.resolve(bundleDirectory, 'v1.yaml')), {
    headers: { 'Content-Type': 'application/yaml; charset=utf-8' },
  });
