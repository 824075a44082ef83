import { z } from 'zod';
import type { ProductKnowledge } from '../knowledge.ts';
import { partsJoined, passageUrl } from '../passages.ts';
import { pageKinds, searchPassages } from '../search-index.ts';
import { defineAnswer, defineTool, readOnly } from './tool.ts';

export const searchDocsTool = defineTool({
  name: 'search_docs',
  title: 'Search the documentation',
  description:
    'Finds the passages of the documentation (guides, reference, product) that answer a question, best first across pages: each a whole section or part of one, with its headings and a URL to its anchor; filter by kind and page on with offset.',
  annotations: readOnly,
  answer: searchDocsAnswer,
});

/**
 * Passages ranked across every page, each whole up to its bound, with filters and an offset. The
 * answer does not repeat the query: the agent that sent it has it, and pays for every character.
 */
function searchDocsAnswer({ search }: ProductKnowledge) {
  return defineAnswer({
    inputSchema: z.object({
      query: z.string().min(1).max(200),
      limit: z.number().int().min(1).max(20).default(4),
      offset: z.number().int().min(0).default(0).describe('How many results to skip, to read on'),
      kinds: z.array(z.enum(pageKinds)).min(1).optional().describe('Only these parts of the site: guides, reference (the endpoint and action pages), product'),
    }),
    outputSchema: z.object({
      total: z.number().int(),
      results: z.array(
        z.object({
          section: z.string().describe('The page and the headings that lead to the passage'),
          url: z.string().describe('The passage’s address, its section’s anchor included: read_page takes it'),
          kind: z.enum(pageKinds),
          text: z.string().describe('The passage, whole unless cut is true; parts of one section that follow each other come as one'),
          cut: z.boolean().optional(),
        }),
      ),
      nextOffset: z.number().int().optional(),
    }),
    run: ({ query, limit, offset, kinds }) => {
      const hits = searchPassages(search, query, kinds);
      const shown = hits.slice(offset, offset + limit).map((hit) => hit.passage);
      return {
        total: hits.length,
        results: partsJoined(shown).flatMap(([first, ...rest]) => {
          if (first === undefined) return [];
          const parts = [first, ...rest];
          return [
            {
              section: first.headingPath.join(' › '),
              url: passageUrl(first),
              kind: first.kind,
              text: parts.map((part) => part.text).join('\n\n'),
              ...(parts.some((part) => part.cut) ? { cut: true } : {}),
            },
          ];
        }),
        ...(offset + limit < hits.length ? { nextOffset: offset + limit } : {}),
      };
    },
  });
}
