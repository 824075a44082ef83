import type { Element } from 'hast';
import { selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';

/**
 * The code a rendered Expressive Code block shows, from its `<code>` or any element around it (its
 * `<pre>`, its frame). Expressive Code renders a line as an element (`.ec-line`), an empty one
 * holding a line break so that it keeps its height; a `single-text` block
 * (src/lib/site/single-text-blocks.ts) is one text instead. Whatever reads a built page's code
 * (the Markdown of the pages, the tests that run a page's commands) reads it through this, so that
 * the two forms are met in one place.
 */
export function renderedCodeText(block: Element): string {
  const lines = selectAll('.ec-line', block).map((line) => toText(line, { whitespace: 'pre' }).replace(/^\n$/, ''));
  if (lines.length > 0) return lines.join('\n');
  const code = block.tagName === 'code' ? block : selectAll('pre > code', block)[0];
  return code === undefined ? '' : toText(code, { whitespace: 'pre' }).replace(/\n$/, '');
}
