/**
 * The Markdown agents read (llms-full.txt, and the pages read_page returns from it) is GFM a parser
 * reads back as the site shows it: no line break escaped into an entity, and every table with one
 * row per row of the table the built HTML page holds, counted from that page, never typed here.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import type { Root as MdastRoot, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfmTable } from 'micromark-extension-gfm-table';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { llmsFullSections, llmsFullTxtPath } from '../../src/lib/site/llms-txt.ts';
import { actionPagePath, endpointPagePath } from '../../src/lib/site/navigation.ts';
import { actionReferencePages } from '../../src/lib/site/reference-pages.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { useInProcessServer } from '../support/in-process-server.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
const distDirectory = path.join(projectDirectory, 'dist');

/** A character reference the Markdown writer falls back on when GFM cannot hold what it was given. */
const escapedEntity = /&#x?[0-9a-f]+;/i;

function gfm(markdown: string): MdastRoot {
  return fromMarkdown(markdown, { extensions: [gfmTable()], mdastExtensions: [gfmFromMarkdown()] });
}

function tables(node: MdastRoot | MdastRoot['children'][number]): Table[] {
  if (node.type === 'table') return [node];
  return 'children' in node ? node.children.flatMap((child) => tables(child as MdastRoot['children'][number])) : [];
}

/** Rows of each table of the page's content, a table inside a cell counted as part of its cell. */
function htmlTableRows(html: string): number[] {
  const content = selectAll('.sl-markdown-content', fromHtml(html))[0];
  assert.ok(content, 'the page has a content area');
  const nested = new Set<Element>(selectAll('td table, th table', content));
  const outer = selectAll('table', content).filter((table) => !nested.has(table));
  return outer.map((table) => {
    const inner = new Set<Element>(selectAll('table tr', { type: 'root', children: selectAll('td table, th table', table) }));
    return selectAll('tr', table).filter((row) => !inner.has(row)).length;
  });
}

function assertReadableGfm(markdown: string, where: string): Table[] {
  const match = escapedEntity.exec(markdown);
  assert.equal(match, null, `${where} escapes a character: …${markdown.slice(Math.max(0, (match?.index ?? 0) - 80), (match?.index ?? 0) + 20)}`);
  return tables(gfm(markdown));
}

before(() => ensureBuiltSite(projectDirectory));

describe('llms-full.txt as GFM', () => {
  test('every page parses with each table as its HTML page has it, and no escaped character', () => {
    const pages = llmsFullSections(readFileSync(path.join(distDirectory, llmsFullTxtPath), 'utf8'));
    assert.ok(pages.length > 0);
    let compared = 0;
    for (const page of pages) {
      const found = assertReadableGfm(page.markdown, page.url);
      const htmlFile = path.join(distDirectory, new URL(page.url).pathname, 'index.html');
      if (!existsSync(htmlFile)) continue;
      const expected = htmlTableRows(readFileSync(htmlFile, 'utf8'));
      assert.deepEqual(found.map((table) => table.children.length), expected, `${page.url}: rows of each table`);
      compared += expected.length;
    }
    assert.ok(compared > 0, 'some tables were compared');
  });

  test('holds nothing a page renders hidden until its script shows it (the request builder, Try it)', () => {
    const pages = llmsFullSections(readFileSync(path.join(distDirectory, llmsFullTxtPath), 'utf8'));
    const folded = (text: string) => text.replace(/\s+/g, ' ').trim();
    let hiddenTexts = 0;
    for (const page of pages) {
      const htmlFile = path.join(distDirectory, new URL(page.url).pathname, 'index.html');
      if (!existsSync(htmlFile)) continue;
      const content = selectAll('.sl-markdown-content', fromHtml(readFileSync(htmlFile, 'utf8')))[0];
      if (content === undefined) continue;
      // A tab panel is hidden until chosen, but each is read as its own labelled section.
      const hidden = selectAll('[hidden]:not([role="tabpanel"])', content);
      const markdown = folded(page.markdown.replace(/[`*]/g, ''));
      for (const element of hidden) {
        for (const paragraph of selectAll('p', element).map((node) => folded(toText(node))).filter((text) => text.length > 20)) {
          hiddenTexts += 1;
          assert.ok(!markdown.includes(paragraph), `${page.url} holds hidden text: ${paragraph}`);
        }
      }
    }
    assert.ok(hiddenTexts > 0, 'some page renders hidden text to check');
  });

  // The action pages render each sample and example as one text (src/lib/site/single-text-blocks.ts),
  // the other pages' blocks as an element per line, an empty line holding a line break: either
  // way the Markdown carries the code as written, no line lost and no empty line doubled.
  test('every action page carries each of its code samples and examples whole, as fenced code', () => {
    const pages = llmsFullSections(readFileSync(path.join(distDirectory, llmsFullTxtPath), 'utf8'));
    const actionPages = actionReferencePages(readReferenceModel(bundledDocument()));
    assert.ok(actionPages.length > 0, 'the contract has actions');
    for (const { action, samples } of actionPages) {
      const page = pages.find((candidate) => new URL(candidate.url).pathname === actionPagePath(action.identifier));
      assert.ok(page !== undefined, `llms-full.txt has the ${action.identifier} page`);
      const fenced = [...page.markdown.matchAll(/^```[\w-]*\n([\s\S]*?)\n```$/gm)].map((match) => match[1]);
      const expected = [...samples.map((sample) => sample.code.replace(/\n$/, '')), JSON.stringify(action.requestExample.value, null, 2), JSON.stringify(action.successExample.value, null, 2)];
      for (const code of expected) assert.ok(fenced.includes(code), `${action.identifier}: a fenced block holds exactly\n${code}`);
    }
  });

  test('the parser used here sees the fault it looks for: a list in a cell breaks the table', () => {
    const broken = '| A | B |\n| - | - |\n| one | - first\n\n- second |\n| two | x |\n';
    assert.equal(tables(gfm(broken))[0]?.children.length, 2);
  });
});

describe('read_page as GFM', () => {
  const server = useInProcessServer('gfm-check');

  test('every part of the endpoint reference parses with the tables of its HTML page', async () => {
    const parts: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await server.client.callTool({ name: 'read_page', arguments: cursor === undefined ? { url: endpointPagePath } : { url: endpointPagePath, cursor } });
      const structured = result.structuredContent as { markdown?: string; nextCursor?: string } | undefined;
      assert.ok(structured?.markdown !== undefined, JSON.stringify(result.content));
      parts.push(structured.markdown);
      cursor = structured.nextCursor;
    } while (cursor !== undefined);
    const found = parts.flatMap((part, index) => assertReadableGfm(part, `${endpointPagePath} part ${index + 1}`));
    const expected = htmlTableRows(readFileSync(path.join(distDirectory, endpointPagePath, 'index.html'), 'utf8'));
    assert.deepEqual(found.map((table) => table.children.length), expected);
  });
});
