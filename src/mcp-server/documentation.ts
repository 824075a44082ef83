import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReferenceModel } from '../lib/actions.ts';
import { factsOf, type Facts } from '../lib/facts.ts';
import { listInWords } from '../lib/prose.ts';
import { publishedUrl, referenceMarkdownPages, type MarkdownPage } from '../lib/reference-markdown.ts';

/** One page of the documentation, as Markdown, with its published address. */
export type DocumentationPage = MarkdownPage;

/** A fact as a guide shows it: a list in words, a number, or the value itself. */
function factText(facts: Facts, name: string): string {
  if (!(name in facts)) return '';
  const value = facts[name as keyof Facts];
  if (Array.isArray(value)) return listInWords(value.map((item) => `\`${item}\``), 'and');
  return typeof value === 'number' ? String(value) : `\`${value}\``;
}

/**
 * A hand-written guide as plain Markdown: front matter, imports and components dropped, every
 * `<Fact>` replaced by the value the site shows for it, so the text says what the page says.
 */
export function guideMarkdown(source: string, facts: Facts): { title: string; markdown: string } {
  const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(source);
  const title = /^title:\s*(.+)$/m.exec(frontMatter?.[1] ?? '')?.[1]?.trim().replace(/^['"]|['"]$/g, '') ?? '';
  const body = source
    .slice(frontMatter?.[0].length ?? 0)
    .replace(/^(?:import|export) [\s\S]*?;\s*$/gm, '')
    .replace(/<Fact\s+name="([^"]+)"[^>]*\/>/g, (_, name: string) => factText(facts, name))
    .replace(/<\/?[A-Z][\w.]*(?:\s[^>]*)?\/?>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown: `# ${title}\n\n${body}\n` };
}

/**
 * Every page the documentation site publishes that an agent may ask about: the hand-written
 * guides from `src/content/docs/` and the generated reference pages, read the way the site builds
 * them (the same sources, the same model).
 */
export function documentationPages(projectDirectory: string, model: ReferenceModel): DocumentationPage[] {
  const facts = factsOf(model);
  const docs = path.join(projectDirectory, 'src/content/docs');
  const guides = readdirSync(docs)
    .filter((file) => /\.mdx?$/.test(file) && !file.startsWith('404'))
    .sort()
    .map((file) => {
      const slug = file.replace(/\.mdx?$/, '');
      const { title, markdown } = guideMarkdown(readFileSync(path.join(docs, file), 'utf8'), facts);
      return { title, url: publishedUrl(slug === 'index' ? '/' : `/${slug}/`), markdown };
    });
  return [...guides, ...referenceMarkdownPages(model)];
}

/** The lines of a page around the first place the query's words appear, for a search result. */
export function snippet(markdown: string, words: string[], length = 240): string {
  const flat = markdown.replace(/\s+/g, ' ');
  const lower = flat.toLowerCase();
  const at = Math.max(0, Math.min(...words.map((word) => lower.indexOf(word)).filter((index) => index >= 0), flat.length));
  const start = Math.max(0, at - 60);
  return `${start > 0 ? '…' : ''}${flat.slice(start, start + length).trim()}${start + length < flat.length ? '…' : ''}`;
}

/** Pages ranked by how many times the query's words occur, title matches counting more. */
export function searchDocumentation(pages: DocumentationPage[], query: string, limit: number): { title: string; url: string; snippet: string }[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}_-]+/u).filter((word) => word.length > 1);
  if (words.length === 0) return [];
  return pages
    .map((page) => {
      const text = page.markdown.toLowerCase();
      const title = page.title.toLowerCase();
      const score = words.reduce((sum, word) => sum + text.split(word).length - 1 + (title.includes(word) ? 5 : 0), 0);
      return { page, score };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.page.url.localeCompare(b.page.url))
    .slice(0, limit)
    .map(({ page }) => ({ title: page.title, url: page.url, snippet: snippet(page.markdown, words) }));
}
