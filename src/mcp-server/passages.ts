import GithubSlugger from 'github-slugger';
import type { Code, Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { LlmsFullPage } from '../lib/site/llms-txt.ts';

/**
 * The largest passage search returns whole. A section longer than this is split at blank lines
 * outside code into passages of at most this size (a single longer block is cut, and says so).
 * About 400 tokens, under the 500-token chunks Microsoft Learn's server returns.
 */
export const passageCharacterLimit = 1600;

/** A block of text found on this many pages or more is the site's furniture, not an answer. */
const repeatedOnPages = 3;

/** One heading of a page's Markdown: its level, its text, the anchor the site gives it, and where its line starts. */
export interface PageHeading {
  level: number;
  text: string;
  anchor: string;
  offset: number;
}

/** One passage: a section of a page, or a part of a long one, with the headings above it. */
export interface Passage {
  id: number;
  pageUrl: string;
  pageTitle: string;
  /** The headings that lead to it, the page's title first. */
  headingPath: string[];
  /** The anchor of its section, `''` for the page's opening. */
  anchor: string;
  /** Its text, without blocks that repeat across pages. */
  text: string;
  /** Its text was cut at the bound. */
  cut: boolean;
}

/** A page's Markdown as CommonMark reads it (the parser the site renders with): which lines are fenced code, and its headings. */
interface MarkdownStructure {
  /** The 1-based lines of fenced code blocks, their fences included, however long or deep the fence. */
  fencedLines: Set<number>;
  headings: PageHeading[];
}

/** The words of a heading: code, links and emphasis reduced to their text. */
function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  return 'children' in node ? node.children.map((child) => plainText(child)).join('') : '';
}

/** Whether a code node is fenced (``` or ~~~ of any length) rather than indented. */
function isFenced(markdown: string, node: Code): boolean {
  const start = node.position?.start.offset ?? 0;
  return /^(`{3,}|~{3,})/.test(markdown.slice(start, start + 3));
}

/**
 * The constructs inside a paragraph or a heading: a page's blocks do not depend on them, so the
 * page is parsed without them (most of the parser's time), and a heading's own text with them.
 */
const inlineConstructs = ['attention', 'autolink', 'characterEscape', 'characterReference', 'codeText', 'hardBreakEscape', 'htmlText', 'labelEnd', 'labelStartImage', 'labelStartLink'];

/** Texts parsed lately: a page is read for its headings, its blocks and its repeated rows in turn. */
const parsedTexts = new Map<string, MarkdownStructure>();
const parsedTextsKept = 64;

/**
 * Parses the Markdown with mdast-util-from-markdown: fenced code ends at a fence of its own kind
 * and at least its length, so a ```` block that shows ``` stays one block, as the pages render it.
 * Only ATX headings (`## Title`) of levels 2 to 6 open sections, with the `{#anchor}` the Markdown
 * names, else GitHub's slug of their text, as the site makes them, numbered when one repeats.
 */
function structureOf(markdown: string): MarkdownStructure {
  const known = parsedTexts.get(markdown);
  if (known !== undefined) return known;
  const structure: MarkdownStructure = { fencedLines: new Set(), headings: [] };
  // Without a fence or a heading's mark there is nothing to find, and no need to pay for a parse.
  if (!markdown.includes('#') && !markdown.includes('```') && !markdown.includes('~~~')) return structure;
  const slugger = new GithubSlugger();
  const visit = (node: Nodes): void => {
    if (node.type === 'code' && isFenced(markdown, node)) {
      for (let line = node.position?.start.line ?? 0; line <= (node.position?.end.line ?? -1); line += 1) structure.fencedLines.add(line);
      return;
    }
    const start = node.position?.start.offset ?? 0;
    if (node.type === 'heading' && node.depth >= 2 && markdown[start] === '#') {
      const written = plainText(fromMarkdown(markdown.slice(start, node.position?.end.offset))).trim();
      const named = /^(.*?)\s*\{#([^}\s]+)\}$/.exec(written);
      const text = named?.[1] ?? written;
      const slug = slugger.slug(text);
      structure.headings.push({ level: node.depth, text, anchor: named?.[2] ?? slug, offset: start - ((node.position?.start.column ?? 1) - 1) });
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(markdown, { extensions: [{ disable: { null: inlineConstructs } }] }));
  if (parsedTexts.size >= parsedTextsKept) parsedTexts.clear();
  parsedTexts.set(markdown, structure);
  return structure;
}

interface MarkedLine {
  line: string;
  offset: number;
  fenced: boolean;
}

/** The lines of a Markdown text, each marked when it is inside fenced code. */
function linesWithFences(markdown: string): MarkedLine[] {
  const { fencedLines } = structureOf(markdown);
  let offset = 0;
  return markdown.split('\n').map((line, index) => {
    const entry = { line, offset, fenced: fencedLines.has(index + 1) };
    offset += line.length + 1;
    return entry;
  });
}

/** The headings of a page below its title, never inside code, each with the anchor the site's pages give it. */
export function pageHeadings(markdown: string): PageHeading[] {
  return structureOf(markdown).headings;
}

/** Where a page's opening ends: after its H1, its address and its description. */
function openingStart(markdown: string): number {
  const match = /^# .+\n\n\S+\n\n(?:> .+\n\n)?/.exec(markdown);
  return match?.[0].length ?? 0;
}

/** The section a heading opens: from its line to the next heading of its level or above. */
export function sectionBounds(markdown: string, headings: PageHeading[], index: number): { start: number; end: number } {
  const heading = headings[index];
  if (heading === undefined) return { start: 0, end: markdown.length };
  const next = headings.slice(index + 1).find((candidate) => candidate.level <= heading.level);
  return { start: heading.offset, end: next?.offset ?? markdown.length };
}

/** The blocks of a text, split at blank lines outside fenced code. */
export function blocksOf(text: string): string[] {
  return blocksOfLines(linesWithFences(text));
}

function blocksOfLines(lines: MarkedLine[]): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  for (const { line, fenced } of lines) {
    if (!fenced && line.trim() === '') {
      if (current.length > 0) blocks.push(current.join('\n'));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

/** Where each block of `blocksOf` starts in the text, as an offset. */
export function blockOffsets(text: string): number[] {
  const offsets: number[] = [];
  let inBlock = false;
  for (const { line, offset, fenced } of linesWithFences(text)) {
    const blank = !fenced && line.trim() === '';
    if (!blank && !inBlock) offsets.push(offset);
    inBlock = !blank;
  }
  return offsets;
}

/** Blocks that stand on `repeatedOnPages` pages or more, as their whitespace-folded text. */
function repeatedBlocks(pages: LlmsFullPage[]): Set<string> {
  const count = new Map<string, number>();
  for (const page of pages) {
    for (const block of new Set(labelledBlocks(blocksOf(page.markdown)).map(folded))) count.set(block, (count.get(block) ?? 0) + 1);
  }
  return new Set([...count].filter(([, pagesWithIt]) => pagesWithIt >= repeatedOnPages).map(([block]) => block));
}

const isCodeBlock = (block: string) => /^\s*(```|~~~)/.test(block);
/** A line of bold words that names what follows: "**400** A field this shop's release does not know", "**curl**". */
const isLabel = (block: string) => !block.includes('\n') && block.startsWith('**');
/** A code sample's file name on a line of its own: `` `retrying-client.php` ``. */
const isFileName = (block: string) => /^`[^`\n]+`$/.test(block);

/**
 * Blocks with each label joined to the code it names (through a file name between them), as one
 * block: the label of an error body or a sample is the same on every action page, and left alone
 * it would be dropped as furniture while its body stays, a bare code block that says nothing of
 * what it is.
 */
function labelledBlocks(blocks: string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < blocks.length; index += 1) {
    const block = blocks[index] ?? '';
    let end = index + 1;
    while (isLabel(block) && end < blocks.length && isFileName(blocks[end] ?? '')) end += 1;
    if (isLabel(block) && isCodeBlock(blocks[end] ?? '')) {
      joined.push(blocks.slice(index, end + 1).join('\n\n'));
      index = end;
    } else joined.push(block);
  }
  return joined;
}

function folded(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A table's body rows (not its header or its separator row). */
function isTableBlock(block: string): boolean {
  const lines = block.split('\n');
  return lines.length >= 3 && lines.every((line) => line.startsWith('|')) && /^\|[\s|:-]+\|$/.test(lines[1] ?? '');
}

/** Table rows that stand on `repeatedOnPages` pages or more, as their whitespace-folded text. */
function repeatedRows(pages: LlmsFullPage[]): Set<string> {
  const count = new Map<string, number>();
  for (const page of pages) {
    const rows = blocksOf(page.markdown)
      .filter(isTableBlock)
      .flatMap((block) => block.split('\n').slice(2));
    for (const row of new Set(rows.map(folded))) count.set(row, (count.get(row) ?? 0) + 1);
  }
  return new Set([...count].filter(([, pagesWithIt]) => pagesWithIt >= repeatedOnPages).map(([row]) => row));
}

/**
 * Which page owns a table row (the page that defines the term of its first cell), when one does;
 * a row repeated across pages is kept on its owner's page only.
 */
export type RowOwner = (row: string) => string | undefined;

/**
 * A table without the rows repeated on other pages that another page owns: an action page's table
 * of errors, a near-copy of the errors guide's, keeps only the rows it says for itself. A table
 * left without rows is no block.
 */
function ownRows(block: string, pageUrl: string, repeated: Set<string>, ownerOf: RowOwner): string | undefined {
  if (!isTableBlock(block)) return block;
  const [header = '', separator = '', ...rows] = block.split('\n');
  const kept = rows.filter((row) => {
    if (!repeated.has(folded(row))) return true;
    const owner = ownerOf(row);
    return owner === undefined || owner === pageUrl;
  });
  if (kept.length === rows.length) return block;
  return kept.length === 0 ? undefined : [header, separator, ...kept].join('\n');
}

/** Below this, a block (a sample's file name, a label) is kept with the block after it, whatever that costs. */
const captionLength = 200;

const isTable = (block: string) => {
  const lines = block.split('\n');
  return lines.length >= 3 && lines.every((line) => line.startsWith('|'));
};

/**
 * A table longer than the bound as several tables of whole rows, each under its header row, so a
 * row is found with the header that says what its cells are. The first part holds at most
 * `firstLimit` characters, the room a caption before it leaves.
 */
function tableParts(block: string, limit: number, firstLimit = limit): string[] {
  const lines = block.split('\n');
  if (block.length <= firstLimit || !isTable(block)) return [block];
  const header = lines.slice(0, 2).join('\n');
  const parts: string[] = [];
  let current = header;
  for (const row of lines.slice(2)) {
    if (current !== header && current.length + 1 + row.length > (parts.length === 0 ? firstLimit : limit)) {
      parts.push(current);
      current = header;
    }
    current = `${current}\n${row}`;
  }
  parts.push(current);
  return parts;
}

/**
 * Blocks gathered into pieces of at most `limit` characters; a longer block is cut, and marked.
 * A caption (a short block) stays with the block after it; a table after a caption is split with
 * the room the caption leaves, so every piece holds whole rows.
 */
function bounded(blocks: string[], limit: number): { text: string; cut: boolean }[] {
  const pieces: { text: string; cut: boolean }[] = [];
  let current = '';
  for (const block of blocks) {
    const captioned = current !== '' && current.length <= captionLength;
    for (const part of tableParts(block, limit, captioned ? limit - current.length - 2 : limit)) {
      // A table part goes on its own when it does not fit beside what is gathered, a caption too.
      if (current !== '' && current.length + 2 + part.length > limit && (current.length > captionLength || isTable(part))) {
        pieces.push({ text: current, cut: false });
        current = '';
      }
      current = current === '' ? part : `${current}\n\n${part}`;
    }
  }
  if (current !== '') pieces.push({ text: current, cut: false });
  return pieces.map((piece) => (piece.text.length > limit ? { text: `${piece.text.slice(0, limit).trimEnd()}…`, cut: true } : piece));
}

/**
 * Every page cut into passages: its opening, then each section's own text (up to its first
 * subsection), bounded, with the path of headings that leads to it. Blocks that repeat across
 * pages (shared samples' notes, the same error bodies on every action page) are left out, so they
 * neither rank nor stand for a passage, and so are the table rows repeated across pages everywhere
 * but on the page that owns them (`ownerOf`); a section left with nothing is no passage.
 */
export function passagesOf(pages: LlmsFullPage[], limit = passageCharacterLimit, ownerOf: RowOwner = () => undefined): Passage[] {
  const repeated = repeatedBlocks(pages);
  const rowsRepeated = repeatedRows(pages);
  const passages: Passage[] = [];
  for (const page of pages) {
    const headings = pageHeadings(page.markdown);
    const lines = linesWithFences(page.markdown);
    const path: PageHeading[] = [];
    const sections = [{ heading: undefined as PageHeading | undefined, start: openingStart(page.markdown), end: headings[0]?.offset ?? page.markdown.length }];
    headings.forEach((heading, index) => sections.push({ heading, start: heading.offset, end: headings[index + 1]?.offset ?? page.markdown.length }));
    for (const { heading, start, end } of sections) {
      if (heading !== undefined) {
        while ((path.at(-1)?.level ?? 0) >= heading.level) path.pop();
        path.push(heading);
      }
      // A section's own text: its lines after the heading's, as the page's parse marked them.
      const body = lines.filter(({ offset }) => offset >= start && offset < end).slice(heading === undefined ? 0 : 1);
      const blocks = labelledBlocks(blocksOfLines(body))
        .filter((block) => !repeated.has(folded(block)))
        .flatMap((block) => ownRows(block, page.url, rowsRepeated, ownerOf) ?? []);
      for (const piece of bounded(blocks, limit)) {
        passages.push({
          id: passages.length,
          pageUrl: page.url,
          pageTitle: page.title,
          headingPath: [page.title, ...path.map((entry) => entry.text)],
          anchor: heading?.anchor ?? '',
          ...piece,
        });
      }
    }
  }
  return passages;
}

/** A passage's address: its page, and its section's anchor when it has one. */
export function passageUrl(passage: Pick<Passage, 'pageUrl' | 'anchor'>): string {
  return passage.anchor === '' ? passage.pageUrl : `${passage.pageUrl}#${passage.anchor}`;
}

/**
 * Passages as a search shows them, with the parts of one long section that follow each other in it
 * (its first part and its second) as one run, at the place of the best ranked of them and in the
 * section's order, so that the section's heading and URL are given once and its text reads straight
 * through. Parts with a part between them that is not shown stay apart: a run is always a stretch
 * of its section.
 */
export function partsJoined<Shown extends Passage>(passages: readonly Shown[]): Shown[][] {
  const runs: Shown[][] = [];
  for (const passage of passages) {
    const sameSection = (other: Shown | undefined) => other !== undefined && other.pageUrl === passage.pageUrl && other.anchor === passage.anchor;
    const before = runs.findIndex((run) => sameSection(run[0]) && run[0]?.id === passage.id + 1);
    const after = runs.findIndex((run) => sameSection(run.at(-1)) && run.at(-1)?.id === passage.id - 1);
    if (before >= 0 && after >= 0) {
      // The part between two runs of its section joins them, where the first of the two stood.
      const joined = [...(runs[after] ?? []), passage, ...(runs[before] ?? [])];
      runs[Math.min(before, after)] = joined;
      runs.splice(Math.max(before, after), 1);
    } else if (before >= 0) runs[before]?.unshift(passage);
    else if (after >= 0) runs[after]?.push(passage);
    else runs.push([passage]);
  }
  return runs;
}
