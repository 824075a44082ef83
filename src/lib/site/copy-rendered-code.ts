import type { ExpressiveCodePlugin } from '@astrojs/starlight/expressive-code';
import type { Element } from 'hast';
import { select } from 'hast-util-select';
import { renderedCodeText } from './rendered-code.ts';

/**
 * Expressive Code writes every code block twice: once as the highlighted lines, once more in its
 * copy button's `data-code`. This plugin drops the second copy wherever it equals the lines as
 * shown, and the copy button reads the shown lines when clicked, so a page carries each sample
 * once and the copy takes whatever is on screen, values filled in by the request builder included.
 * A copy that differs from the lines (a terminal block copied without its comments) keeps its
 * `data-code`.
 */

const lineSeparator = '\u007f';

/**
 * The lines of a rendered block as the browser's `textContent` reads them, joined as `data-code`
 * joins them: the one reading of a block's lines (rendered-code.ts). A block rendered as one text
 * (single-text-blocks.ts) is read after this hook ran, while its lines are still elements; the
 * script below reads its text split at line breaks.
 */
const shownCode = (block: Element): string => renderedCodeText(block).split('\n').join(lineSeparator);

/**
 * In the browser, before Expressive Code's own click handler reads `data-code` (the listener
 * captures), a button without one gets the lines shown; it is taken away again once the click
 * is handled, so the next click reads the lines anew.
 */
const copyShownLines = `document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('.expressive-code .copy button') : null;
  if (!(button instanceof HTMLElement) || button.dataset.code !== undefined) return;
  const code = button.closest('.expressive-code')?.querySelector('pre > code');
  const lines = code?.querySelectorAll(':scope > .ec-line') ?? [];
  const shown = lines.length > 0 ? Array.from(lines, (line) => (line.textContent === '\\n' ? '' : line.textContent)) : (code?.textContent ?? '').split('\\n');
  button.dataset.code = shown.join('\\u007f');
  setTimeout(() => delete button.dataset.code);
}, true);`;

export function copyRenderedCode(): ExpressiveCodePlugin {
  return {
    name: 'copy-rendered-code',
    jsModules: [copyShownLines],
    hooks: {
      postprocessRenderedBlock: ({ renderData }) => {
        const block = renderData.blockAst;
        const button = select('button[data-code]', block);
        if (button !== undefined && button.properties.dataCode === shownCode(block)) delete button.properties.dataCode;
      },
    },
  };
}
