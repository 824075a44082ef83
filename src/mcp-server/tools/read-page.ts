import { z } from 'zod';
import type { LlmsFullPage } from '../../lib/site/llms-txt.ts';
import { siteConfig } from '../../site-config.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { blockOffsets, pageHeadings, sectionBounds, type PageHeading } from '../passages.ts';
import { defineTool, ToolRefusal } from './tool.ts';

/** About as much text as one answer carries; a longer page or section comes in parts. */
export const partCharacterLimit = 8000;

/**
 * Where a text's parts start: at a heading where one fits under the limit, else at a blank line
 * outside fenced code, so a section, a table or a code sample is cut only when it alone is longer.
 */
export function partStarts(markdown: string, limit = partCharacterLimit): number[] {
  const headingBreaks = pageHeadings(markdown).map((heading) => heading.offset).filter((offset) => offset > 0);
  // Where a block starts: after a blank line outside fenced code.
  const blanks = blockOffsets(markdown).filter((offset) => offset > 0);
  const starts = [0];
  let start = 0;
  while (markdown.length - start > limit) {
    const within = (offset: number) => offset > start && offset - start <= limit;
    const next = headingBreaks.filter(within).at(-1) ?? blanks.filter(within).at(-1) ?? blanks.find((offset) => offset > start);
    if (next === undefined) break;
    starts.push(next);
    start = next;
  }
  return starts;
}

function findPage(pages: LlmsFullPage[], address: string): { page: LlmsFullPage; anchor: string } {
  let url: URL;
  try {
    url = new URL(address, siteConfig.docsUrl);
  } catch {
    throw new ToolRefusal(`"${address}" is not a page address`);
  }
  const wanted = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const page = pages.find((candidate) => new URL(candidate.url).pathname === wanted);
  if (page === undefined) throw new ToolRefusal(`No documentation page at ${wanted}; search_docs finds pages by their words`);
  return { page, anchor: decodeURIComponent(url.hash.slice(1)) };
}

/** The heading a section names, by its anchor or its text, in any letter case. */
function findHeading(headings: PageHeading[], section: string): number {
  const wanted = section.trim().replace(/^#+\s*/, '').toLowerCase();
  return headings.findIndex((heading) => heading.anchor === wanted || heading.text.toLowerCase() === wanted);
}

/** One page exactly as llms-full.txt has it, or one section of it, in parts when it is long. */
export function readPageTool({ pages }: ProductKnowledge) {
  const headingsByUrl = new Map(pages.map((page) => [page.url, pageHeadings(page.markdown)]));
  return defineTool({
    inputSchema: z.object({
      url: z.string().min(1).max(500).describe('The page address or path, for example /errors-and-rate-limits/; an anchor (#rate-limits) reads only that section'),
      section: z.string().max(200).optional().describe('Only this section: its anchor or its heading'),
      cursor: z.string().max(20).optional().describe('The nextCursor of the previous part, to read on'),
    }),
    outputSchema: z.object({
      title: z.string(),
      url: z.string(),
      markdown: z.string(),
      part: z.number().int(),
      parts: z.number().int(),
      nextCursor: z.string().optional().describe('Pass it back as cursor for the next part'),
    }),
    run: ({ url, section, cursor }) => {
      const { page, anchor } = findPage(pages, url);
      const headings = headingsByUrl.get(page.url) ?? [];
      const wanted = section ?? anchor;
      let text = page.markdown;
      let address = page.url;
      if (wanted !== '') {
        const index = findHeading(headings, wanted);
        if (index < 0) throw new ToolRefusal(`No section "${wanted}" on ${page.url}; its sections: ${headings.map((heading) => `#${heading.anchor}`).join(', ')}`);
        const { start, end } = sectionBounds(page.markdown, headings, index);
        text = page.markdown.slice(start, end).replace(/\n+$/, '');
        address = `${page.url}#${headings[index]?.anchor ?? ''}`;
      }
      const starts = partStarts(text);
      const part = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isInteger(part) || part < 0 || part >= starts.length) throw new ToolRefusal(`"${cursor ?? ''}" is not a cursor of this page; start without one`);
      const next = starts[part + 1];
      return {
        title: page.title,
        url: address,
        markdown: text.slice(starts[part] ?? 0, next ?? text.length),
        part: part + 1,
        parts: starts.length,
        ...(next === undefined ? {} : { nextCursor: String(part + 1) }),
      };
    },
  });
}
