import { expect, test } from '@playwright/test';
import type { Element, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import { actions } from './support/contract.ts';
import { actionPath, sitemapPagePaths } from './support/site.ts';

/**
 * The words of every built page, read from the HTML as served: no space lost beside an inline
 * element ("whose`api_key`", "(seeVersioning)"), and no action page quoting an error body that
 * names another action.
 */

/** Elements that sit inside a sentence. */
const inlineElements = new Set(['a', 'code', 'em', 'strong']);
/** Where text is code or drawing, not prose: its spacing is its own. */
const notProse = new Set(['pre', 'script', 'style', 'svg', 'template', 'head']);

const endsWithWord = /[\p{L}\p{N}]$/u;
const startsWithWord = /^[\p{L}\p{N}]/u;

function isInline(node: RootContent | undefined): node is Element {
  return node?.type === 'element' && inlineElements.has(node.tagName);
}

/** The place a sentence runs into an inline element (or out of one) with no space between. */
function gluedSpots(root: Root): string[] {
  const spots: string[] = [];
  const visit = (node: Root | Element): void => {
    if (node.type === 'element' && notProse.has(node.tagName)) return;
    node.children.forEach((child, index) => {
      if (child.type !== 'element') return;
      if (isInline(child)) {
        const before = node.children[index - 1];
        const after = node.children[index + 1];
        const inner = toText(child);
        const glued =
          (before?.type === 'text' && endsWithWord.test(before.value) && startsWithWord.test(inner)) ||
          (after?.type === 'text' && startsWithWord.test(after.value) && endsWithWord.test(inner)) ||
          (isInline(before) && endsWithWord.test(toText(before)) && startsWithWord.test(inner));
        if (glued) {
          const context = [before, child, after].map((part) => (part === undefined ? '' : part.type === 'text' ? part.value : part.type === 'element' ? toText(part) : ''));
          spots.push(context.join('|').replace(/\s+/g, ' ').slice(-80));
        }
      }
      visit(child);
    });
  };
  visit(root);
  return spots;
}

test('no page glues a word to an inline code span or link', async ({ request }) => {
  for (const pagePath of await sitemapPagePaths(request)) {
    const html = await (await request.get(pagePath)).text();
    expect.soft(gluedSpots(fromHtml(html)), `words glued to inline elements on ${pagePath}`).toEqual([]);
  }
});

/** The strings of a JSON value that are sentences, not single words. */
function sentencesIn(value: unknown): string[] {
  if (typeof value === 'string') return /\s/.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(sentencesIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(sentencesIn);
  return [];
}

test('an action page quotes no error body that names another action', async ({ request }) => {
  const identifiers = actions.map((action) => action.identifier);
  const named = (text: string): string[] => identifiers.filter((identifier) => new RegExp(`(?<![\\w-])${identifier}(?![\\w-])`).test(text));
  for (const action of actions) {
    const html = await (await request.get(actionPath(action.identifier))).text();
    const bodies = selectAll('.error-bodies details', fromHtml(html));
    expect(bodies.length, `${action.identifier} shows its error bodies`).toBeGreaterThan(0);
    for (const body of bodies) {
      const code = select('pre', body);
      // The host's 429 shows header lines, not a JSON body.
      if (code === undefined || !toText(code).trimStart().startsWith('{')) continue;
      // A sentence of the body (a message) names an action; a bare identifier is a value, as in a
      // list of the actions a status allows.
      const sentences = sentencesIn(JSON.parse(toText(code)));
      const others = sentences.flatMap(named).filter((identifier) => identifier !== action.identifier);
      // The list of every action (the enumeration of `action`) is about none of them.
      if (new Set(others).size === identifiers.length - 1) continue;
      expect.soft(others, `${action.identifier}: an error body names another action: ${sentences.join(' / ')}`).toEqual([]);
    }
  }
});
