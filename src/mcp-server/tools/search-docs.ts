import { z } from 'zod';
import type { ProductKnowledge } from '../knowledge.ts';
import { pageKinds, searchPages, snippet } from '../search-index.ts';
import { defineTool } from './tool.ts';

/** Pages ranked by their words (BM25F over title, headings and text), with filters and an offset. */
export function searchDocsTool({ search }: ProductKnowledge) {
  return defineTool({
    inputSchema: z.object({
      query: z.string().min(1).max(200),
      limit: z.number().int().min(1).max(20).default(5),
      offset: z.number().int().min(0).default(0).describe('How many results to skip, to read on'),
      kinds: z.array(z.enum(pageKinds)).min(1).optional().describe('Only these parts of the site: guides, reference (the endpoint and action pages), product'),
    }),
    outputSchema: z.object({
      query: z.string(),
      total: z.number().int(),
      offset: z.number().int(),
      results: z.array(z.object({ title: z.string(), url: z.string(), kind: z.enum(pageKinds), snippet: z.string() })),
      nextOffset: z.number().int().optional(),
    }),
    run: ({ query, limit, offset, kinds }) => {
      const hits = searchPages(search, query, kinds);
      const shown = hits.slice(offset, offset + limit);
      return {
        query,
        total: hits.length,
        offset,
        results: shown.map((hit) => ({ title: hit.page.title, url: hit.page.url, kind: hit.kind, snippet: snippet(hit.page.markdown, hit.matched) })),
        ...(offset + limit < hits.length ? { nextOffset: offset + limit } : {}),
      };
    },
  });
}
