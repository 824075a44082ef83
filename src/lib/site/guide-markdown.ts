import type { Element, ElementContent, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { matches, selectAll } from 'hast-util-select';
import { toMdast } from 'hast-util-to-mdast';
import { toText } from 'hast-util-to-text';
import GithubSlugger from 'github-slugger';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { flattenTableCells } from './flat-table-cells.ts';
import { renderedCodeText } from './rendered-code.ts';

/**
 * Elements of a rendered guide that say nothing in text: the heading anchors (whose hidden label
 * reads "Section titled …"), drawings (each has a text alternative beside it), and the scripts,
 * styles and controls that only work in a browser, among them whatever the page renders
 * `hidden` until its script shows it (the request builder's form, the sandbox's Try it): a reader
 * without JavaScript never sees it, and it is no answer to anything.
 */
const dropped = ['.sl-anchor-link', 'svg', 'script', 'style', 'link', 'button', 'template', '[hidden]'];

function element(tagName: string, children: ElementContent[], properties: Element['properties'] = {}): Element {
  return { type: 'element', tagName, properties, children };
}

function text(value: string): ElementContent {
  return { type: 'text', value };
}

/** Removes every descendant that matches one of the selectors. */
function removeMatching(node: Root | Element, selectors: string[]): void {
  node.children = node.children.filter((child) => child.type !== 'element' || !selectors.some((selector) => matches(selector, child)));
  for (const child of node.children) if (child.type === 'element') removeMatching(child, selectors);
}

/** Puts `replacement` where `target` stands in the tree. */
function replace(tree: Root, target: Element, replacement: Element): void {
  const visit = (node: Root | Element): boolean => {
    const index = node.children.indexOf(target);
    if (index >= 0) {
      node.children[index] = replacement;
      return true;
    }
    return node.children.some((child) => child.type === 'element' && visit(child));
  };
  visit(tree);
}

/**
 * An Expressive Code frame becomes a plain fenced block: its lines joined, its language from the
 * `data-language` Expressive Code writes, and its file name, when it has one, as a line above.
 */
function plainCodeBlock(frame: Element): Element {
  const pre = selectAll('pre', frame)[0];
  const language = pre?.properties.dataLanguage;
  const source = renderedCodeText(frame);
  const code = element('code', [text(source)], typeof language === 'string' ? { className: [`language-${language}`] } : {});
  const title = selectAll('figcaption .title', frame).map((node) => toText(node).trim()).find((value) => value.length > 0);
  return element('div', [...(title === undefined ? [] : [element('p', [element('code', [text(title)])])]), element('pre', [code])]);
}

/** Tabs become one labelled section per panel, so every panel is read, not only the first. */
function unfoldedTabs(tabs: Element): Element {
  const labels = selectAll('[role="tab"]', tabs).map((tab) => toText(tab).trim());
  const panels = selectAll('[role="tabpanel"]', tabs);
  return element(
    'div',
    panels.flatMap((panel, index) => [element('p', [element('strong', [text(labels[index] ?? '')])]), element('div', panel.children)]),
  );
}

/** An aside becomes a block quote that starts with its title ("Caution", "Note"). */
function quotedAside(aside: Element): Element {
  const title = selectAll('.starlight-aside__title', aside).map((node) => toText(node).trim())[0];
  const content = selectAll('.starlight-aside__content', aside)[0]?.children ?? aside.children;
  return element('blockquote', [...(title ? [element('p', [element('strong', [text(title)])])] : []), ...content]);
}

/** A link card becomes a paragraph: the link, a colon, its description. */
function linkParagraph(card: Element): Element {
  const link = selectAll('a[href]', card)[0];
  const description = selectAll('.description', card).map((node) => toText(node).trim())[0];
  if (link === undefined) return element('p', []);
  const title = toText(link).trim();
  return element('p', [element('a', [text(title)], { href: link.properties.href }), ...(description ? [text(`: ${description}`)] : [])]);
}

/**
 * A heading whose anchor is not the slug of its text (the reference pages name theirs, such as
 * `body-400`) keeps it as `{#anchor}` after its text, so a reader of the Markdown can link the
 * section as the page does. Slugs are counted in order, as the site counts them.
 */
function explicitAnchors(tree: Root): void {
  const slugger = new GithubSlugger();
  for (const heading of selectAll('h2, h3, h4, h5, h6', tree)) {
    const slug = slugger.slug(toText(heading).trim());
    const id = heading.properties.id;
    if (typeof id === 'string' && id !== '' && id !== slug) heading.children.push(text(` {#${id}}`));
  }
}

/**
 * Every link and image points at its absolute address, so the text can be read anywhere. A link
 * that is no address (Markdown makes one of a bare `http://…` in prose) is named with its page,
 * since URL's own error names neither.
 */
function absoluteAddresses(tree: Root, pageUrl: string): void {
  const absolute = (address: string): string => {
    try {
      return new URL(address, pageUrl).href;
    } catch {
      throw new Error(`${pageUrl} links to "${address}", which is not an address: put a URL meant as text in backticks.`);
    }
  };
  for (const link of selectAll('a[href]', tree)) link.properties.href = absolute(String(link.properties.href));
  for (const image of selectAll('img[src]', tree)) image.properties.src = absolute(String(image.properties.src));
}

/**
 * The rendered content of a hand-written page as Markdown, for readers that take text: the
 * components are rendered by Astro first, so a table or a fact a component draws from the model
 * is in the text as on the page. Headings keep their text and lose their anchors. Tables are
 * written without column padding: the padding was a quarter of llms-full.txt, read by every agent,
 * and their cells flattened to one line each, as GFM requires.
 */
export function renderedGuideMarkdown(html: string, pageUrl: string): string {
  const tree = fromHtml(html, { fragment: true });
  for (const frame of selectAll('.expressive-code', tree)) replace(tree, frame, plainCodeBlock(frame));
  for (const tabs of selectAll('starlight-tabs', tree)) replace(tree, tabs, unfoldedTabs(tabs));
  for (const aside of selectAll('aside.starlight-aside', tree)) replace(tree, aside, quotedAside(aside));
  for (const card of selectAll('.sl-link-card', tree)) replace(tree, card, linkParagraph(card));
  removeMatching(tree, dropped);
  explicitAnchors(tree);
  absoluteAddresses(tree, pageUrl);
  flattenTableCells(tree);
  const markdown = toMarkdown(toMdast(tree), { extensions: [gfmToMarkdown({ tablePipeAlign: false })], bullet: '-', rule: '-' }).trim();
  // GFM's writer escapes the colon of an address in prose (`https\://{site}/…`) so that a renderer
  // does not make it a link; agents read and copy the raw text, where the backslash is a wrong
  // character in the address, and a link made of an address template does no harm.
  return markdown.replace(/\b(https?)\\:\/\//g, '$1://');
}
