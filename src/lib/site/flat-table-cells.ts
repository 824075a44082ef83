import type { Element, ElementContent, Root } from 'hast';
import { selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';

/**
 * A GFM table cell holds one line of inline text. The cells of the rendered reference hold blocks
 * (paragraphs, the list of a field's constraints, the definition list of a response's codes, the
 * member table of an error's `data` in a disclosure), which `hast-util-to-mdast` would write with
 * their line breaks escaped as `&#xA;`, breaking the table for every reader. So each cell's content
 * is flattened to one line first: paragraphs joined by a space (by `; ` after one that ends
 * without a full stop), list items and definitions by
 * `; `, a nested table as `member (type, presence): description; …`. Two blocks are never glued
 * without a space between them.
 */

const blockTags = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'ul',
]);

type Inline = ElementContent[];

function text(value: string): ElementContent {
  return { type: 'text', value };
}

function isBlock(node: ElementContent): node is Element {
  return node.type === 'element' && blockTags.has(node.tagName);
}

function isEmpty(run: Inline): boolean {
  return run.every((node) => node.type === 'comment' || (node.type === 'text' && node.value.trim() === '') || (node.type === 'element' && toText(node).trim() === '' && node.tagName !== 'img'));
}

/** A run without white space at its ends, so a separator stands right after its last word. */
function trimmed(run: Inline): Inline {
  const copy = [...run];
  const first = copy[0];
  if (first?.type === 'text') copy[0] = text(first.value.trimStart());
  const last = copy.at(-1);
  if (last?.type === 'text') copy[copy.length - 1] = text(last.value.trimEnd());
  return copy;
}

/** Runs of inline content joined by `separator`, empty runs left out. */
function joined(runs: Inline[], separator: string): Inline {
  return runs
    .filter((run) => !isEmpty(run))
    .map(trimmed)
    .flatMap((run, index) => (index === 0 ? run : [text(separator), ...run]));
}

/**
 * The children of an element as one line: a block that ends a sentence is followed by a space, one
 * that does not (a label such as "Body: none in the contract") by `; `, so the next does not read as its end.
 */
function flatChildren(nodes: ElementContent[]): Inline {
  const runs = blockRuns(nodes)
    .filter((run) => !isEmpty(run))
    .map(trimmed);
  return runs.flatMap((run, index) => {
    if (index === 0) return run;
    const before = toText({ type: 'root', children: runs[index - 1] ?? [] }).trimEnd();
    return [text(/[.!?:;,]$/.test(before) ? ' ' : '; '), ...run];
  });
}

/** A row's heading cell: the name, then its badges (type, presence) in parentheses. */
function rowHeading(cell: Element): Inline {
  const badges = selectAll('.badges > *', cell).map((badge) => toText(badge).trim()).filter((value) => value !== '');
  if (badges.length === 0) return flatChildren(cell.children);
  const rest = cell.children.filter((child) => !(child.type === 'element' && selectAll('.badges', { type: 'root', children: [child] }).length > 0));
  return [...flatChildren(rest), text(` (${badges.join(', ')})`)];
}

/** A table inside a cell: each body row as `first cell: the other cells`, rows joined by `; `. */
function flatTable(table: Element): Inline {
  const rows = selectAll('tr', table).filter((row) => selectAll('td', row).length > 0);
  return joined(
    rows.map((row) => {
      const cells = row.children.filter((child): child is Element => child.type === 'element' && (child.tagName === 'td' || child.tagName === 'th'));
      const [first, ...others] = cells;
      if (first === undefined) return [];
      return joined([rowHeading(first), joined(others.map((cell) => flatChildren(cell.children)), ' ')], ': ');
    }),
    '; ',
  );
}

/** A definition list: each term and its definitions as `term: definition`, joined by `; `. */
function flatDefinitions(list: Element): Inline {
  const entries: { term: Inline[]; definitions: Inline[] }[] = [];
  for (const child of list.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'dt') {
      const last = entries.at(-1);
      if (last !== undefined && last.definitions.length === 0) last.term.push(flatChildren(child.children));
      else entries.push({ term: [flatChildren(child.children)], definitions: [] });
    } else if (child.tagName === 'dd') {
      const last = entries.at(-1) ?? { term: [], definitions: [] };
      if (entries.length === 0) entries.push(last);
      last.definitions.push(flatChildren(child.children));
    } else entries.push({ term: [flatChildren(child.children)], definitions: [] });
  }
  return joined(entries.map((entry) => joined([joined(entry.term, ', '), joined(entry.definitions, ' ')], ': ')), '; ');
}

/** One block as one line. */
function flatBlock(block: Element): Inline {
  switch (block.tagName) {
    case 'ul':
    case 'ol':
      return joined(block.children.filter((child): child is Element => child.type === 'element').map((item) => flatChildren(item.children)), '; ');
    case 'dl':
      return flatDefinitions(block);
    case 'table':
      return flatTable(block);
    case 'details': {
      const summary = block.children.find((child): child is Element => child.type === 'element' && child.tagName === 'summary');
      const rest = block.children.filter((child) => child !== summary);
      return joined([summary === undefined ? [] : flatChildren(summary.children), flatChildren(rest)], ': ');
    }
    case 'hr':
      return [];
    default:
      return flatChildren(block.children);
  }
}

/** The content of `nodes` cut into runs: each block its own run, inline content between blocks a run. */
function blockRuns(nodes: ElementContent[]): Inline[] {
  const runs: Inline[] = [];
  let current: Inline = [];
  for (const node of nodes) {
    if (node.type === 'element' && node.tagName === 'br') {
      runs.push(current);
      current = [];
    } else if (isBlock(node)) {
      runs.push(current, flatBlock(node));
      current = [];
    } else current.push(node);
  }
  runs.push(current);
  return runs;
}

/** Every cell of every table in `tree` holds one line of inline content, nested tables included. */
export function flattenTableCells(tree: Root): void {
  // The outermost tables only: a nested table is flattened as part of the cell that holds it.
  for (const cell of selectAll('table td, table th', tree)) {
    if (cell.children.some(isBlock) || cell.children.some((child) => child.type === 'element' && child.tagName === 'br')) {
      cell.children = flatChildren(cell.children);
    }
  }
}
