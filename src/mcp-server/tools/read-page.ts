import { z } from 'zod';
import type { LlmsFullPage } from '../../lib/site/llms-txt.ts';
import { siteConfig } from '../../site-config.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { blockOffsets, pageHeadings, sectionBounds, type PageHeading } from '../passages.ts';
import { defineAnswer, defineTool, ToolRefusal, readOnly } from './tool.ts';

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

/** What separates the headings of a heading path, as search_docs writes it ("Page › Heading › Subheading"). */
const headingPathSeparator = /\s*[›»]\s*|\s+>\s+/;

/**
 * The heading a section names, in any letter case: its anchor, its text, or a heading path as
 * search_docs gives it ("Errors and rate limits › Rate limits › The retry policy"). Of a path the
 * last heading must match; where its text repeats on the page, the one whose headings above match
 * the path's other parts (the page's title may lead it) is meant.
 */
function findHeading(headings: PageHeading[], section: string, pageTitle: string): number {
  const wanted = section.trim().replace(/^#+\s*/, '').toLowerCase();
  const exact = headings.findIndex((heading) => heading.anchor === wanted || heading.text.toLowerCase() === wanted);
  if (exact >= 0) return exact;
  const parts = wanted.split(headingPathSeparator).filter((part) => part.length > 0);
  if (parts.length < 2) return -1;
  const path = parts[0] === pageTitle.toLowerCase() ? parts.slice(1) : parts;
  const last = path.at(-1) ?? '';
  const candidates = headings.flatMap((heading, index) => (heading.text.toLowerCase() === last || heading.anchor === last ? [index] : []));
  const ancestorsOf = (index: number) => {
    const ancestors: string[] = [];
    let level = headings[index]?.level ?? 0;
    for (let above = index - 1; above >= 0; above -= 1) {
      const heading = headings[above];
      if (heading !== undefined && heading.level < level) {
        ancestors.unshift(heading.text.toLowerCase());
        level = heading.level;
      }
    }
    return ancestors;
  };
  const matchesPath = (index: number) => path.slice(0, -1).every((part) => ancestorsOf(index).includes(part));
  return candidates.find(matchesPath) ?? (candidates.length === 1 ? (candidates[0] ?? -1) : -1);
}

export const readPageTool = defineTool({
  name: 'read_page',
  title: 'Read a documentation page',
  description:
    'One documentation page as Markdown, exactly as llms-full.txt has it (tables, code, numbers), by its URL or path (for example /errors-and-rate-limits/), or only one section of it by anchor or heading; long pages come in parts, cut at sections, with a cursor.',
  annotations: readOnly,
  answer: readPageAnswer,
});

/** One page exactly as llms-full.txt has it, or one section of it, in parts when it is long. */
function readPageAnswer({ pages }: ProductKnowledge) {
  const headingsByUrl = new Map(pages.map((page) => [page.url, pageHeadings(page.markdown)]));
  // A page's or section's text and where its parts start, worked out on its first reading: the
  // pages do not change, and splitting a page on every call made this tool allocate the most after search.
  const partsByAddress = new Map<string, { text: string; starts: number[] }>();
  const partsOf = (address: string, textOf: () => string) => {
    let parts = partsByAddress.get(address);
    if (parts === undefined) {
      const text = textOf();
      parts = { text, starts: partStarts(text) };
      partsByAddress.set(address, parts);
    }
    return parts;
  };
  return defineAnswer({
    inputSchema: z.object({
      url: z.string().min(1).max(500).describe('The page address or path, for example /errors-and-rate-limits/; an anchor (#rate-limits) reads only that section'),
      section: z.string().max(200).optional().describe('Only this section: its anchor, its heading, or the section path search_docs gives'),
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
      // The section search_docs gives a page's opening is the page's title: the whole page.
      const wanted = section !== undefined && section.trim().toLowerCase() === page.title.toLowerCase() ? '' : (section ?? anchor);
      let address = page.url;
      let textOf = () => page.markdown;
      if (wanted !== '') {
        const index = findHeading(headings, wanted, page.title);
        if (index < 0) throw new ToolRefusal(`No section "${wanted}" on ${page.url}; its sections: ${headings.map((heading) => `#${heading.anchor}`).join(', ')}`);
        address = `${page.url}#${headings[index]?.anchor ?? ''}`;
        textOf = () => {
          const { start, end } = sectionBounds(page.markdown, headings, index);
          return page.markdown.slice(start, end).replace(/\n+$/, '');
        };
      }
      const { text, starts } = partsOf(address, textOf);
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
