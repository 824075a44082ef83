import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';

/** A page of the built site, read as a reader sees its text, without a browser. */
export interface BuiltPage {
  route: string;
  /** The text of the page's main content, whitespace collapsed. */
  text: string;
  /** The page's sentences, for checks that look for a statement anywhere on the page. */
  sentences: string[];
  /** The text of every element marked `<Rule id>` for this rule, in page order. */
  ruleStatements(ruleId: string): string[];
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Splits prose into sentences; list items and table cells end a sentence too. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?:;])\s+(?=[A-Z`<“"(])|\n+/)
    .map(collapse)
    .filter((sentence) => sentence.length > 0);
}

/** The file a static host serves for a route ending in `/`, or for a file route. */
export function builtFileFor(siteDirectory: string, route: string): string {
  return path.join(siteDirectory, route.endsWith('/') ? `${route}index.html` : route);
}

export function readBuiltPage(siteDirectory: string, route: string): BuiltPage {
  const file = builtFileFor(siteDirectory, route);
  if (!existsSync(file)) throw new Error(`the built site has no page at ${route} (${path.relative(process.cwd(), file)})`);
  return parseBuiltPage(route, readFileSync(file, 'utf8'));
}

export function parseBuiltPage(route: string, html: string): BuiltPage {
  const tree: Root = fromHtml(html);
  const main: Element | Root = select('main', tree) ?? tree;
  // Block elements end sentences; toText keeps their line breaks, which sentencesOf splits on.
  const blockText = toText(main, { whitespace: 'normal' });
  return {
    route,
    text: collapse(blockText),
    sentences: blockText.split(/\n+/).flatMap(sentencesOf),
    ruleStatements: (ruleId) => selectAll(`[data-rule="${ruleId}"]`, main).map((element) => collapse(toText(element))),
  };
}
