import type { APIRoute } from 'astro';
import { loadExecutableContract } from '../../lib/contract/executable-contract.ts';
import { arazzoYaml } from '../../lib/workflows/arazzo-document.ts';
import { arazzoYamlType } from '../../lib/site/discovery.ts';

/**
 * The lifecycle as Arazzo workflows, generated from the gated bundle beside it (`v1.yaml`), the
 * same text `npm run lint` wrote and linted. Static hosts send the media type `public/_headers` gives.
 */
export const GET: APIRoute = () =>
  new Response(arazzoYaml(loadExecutableContract()), {
    headers: { 'Content-Type': `${arazzoYamlType}; charset=utf-8` },
  });
