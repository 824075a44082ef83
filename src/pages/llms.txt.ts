import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { loadReferenceModel } from '../lib/contract/actions.ts';
import { llmsIndex, llmsTxt } from '../lib/site/llms-txt.ts';

/** The llms.txt proposal's index of this site: the guides, the reference pages and the downloads. */
export const GET: APIRoute = async () => {
  const guides = (await getCollection('docs', (entry) => entry.data.draft !== true)).map((entry) => ({
    id: entry.id,
    title: entry.data.title,
    description: entry.data.description ?? '',
  }));
  return new Response(llmsTxt(llmsIndex(guides, loadReferenceModel())), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
};
