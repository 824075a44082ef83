import { markdownToHtml } from 'satteri';

/**
 * Renders a description from the contract. OpenAPI descriptions are CommonMark, and the
 * contract uses code spans, emphasis, lists and paragraphs in them. Satteri is the Markdown
 * engine Astro and Starlight already use, so descriptions look like the rest of the site.
 */
export function renderMarkdown(markdown: string): string {
  return markdownToHtml(markdown).html;
}

/**
 * Renders a description for a table cell or a sentence: a lone paragraph loses its `<p>`, so
 * it does not add a margin inside the cell.
 */
export function renderInlineMarkdown(markdown: string): string {
  const html = renderMarkdown(markdown).trim();
  const lone = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return lone?.[1] !== undefined && !lone[1].includes('<p>') ? lone[1] : html;
}
