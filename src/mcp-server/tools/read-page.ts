import { z } from 'zod';
import type { LlmsFullPage } from '../../lib/site/llms-txt.ts';
import { siteConfig } from '../../site-config.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineTool, ToolRefusal } from './tool.ts';

/** About as much text as one answer carries; a longer page comes in parts. */
export const partCharacterLimit = 8000;

/**
 * Where a page's parts start: at a blank line outside fenced code, each part as long as fits
 * under the limit, so a table or a code sample is never cut in two unless it alone is longer.
 */
export function partStarts(markdown: string, limit = partCharacterLimit): number[] {
  const breaks: number[] = [];
  let fenced = false;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    offset += line.length + 1;
    if (!fenced && line.trim() === '' && offset < markdown.length) breaks.push(offset);
  }
  const starts = [0];
  let last = 0;
  for (let index = 0; index < breaks.length; index += 1) {
    const next = breaks[index + 1] ?? markdown.length;
    const candidate = breaks[index] ?? 0;
    if (next - last > limit && candidate > last) {
      starts.push(candidate);
      last = candidate;
    }
  }
  return starts;
}

function findPage(pages: LlmsFullPage[], address: string): LlmsFullPage {
  let pathname: string;
  try {
    pathname = new URL(address, siteConfig.docsUrl).pathname;
  } catch {
    throw new ToolRefusal(`"${address}" is not a page address`);
  }
  const wanted = pathname.endsWith('/') ? pathname : `${pathname}/`;
  const page = pages.find((candidate) => new URL(candidate.url).pathname === wanted);
  if (page === undefined) throw new ToolRefusal(`No documentation page at ${wanted}; search_docs finds pages by their words`);
  return page;
}

/** One page exactly as llms-full.txt has it, in parts when it is long. */
export function readPageTool({ pages }: ProductKnowledge) {
  const startsByUrl = new Map(pages.map((page) => [page.url, partStarts(page.markdown)]));
  return defineTool({
    inputSchema: z.object({
      url: z.string().min(1).max(500).describe('The page address or path, for example /quickstart/'),
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
    run: ({ url, cursor }) => {
      const page = findPage(pages, url);
      const starts = startsByUrl.get(page.url) ?? [0];
      const part = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isInteger(part) || part < 0 || part >= starts.length) throw new ToolRefusal(`"${cursor ?? ''}" is not a cursor of this page; start without one`);
      const next = starts[part + 1];
      return {
        title: page.title,
        url: page.url,
        markdown: page.markdown.slice(starts[part] ?? 0, next ?? page.markdown.length),
        part: part + 1,
        parts: starts.length,
        ...(next === undefined ? {} : { nextCursor: String(part + 1) }),
      };
    },
  });
}
