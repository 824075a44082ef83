import type { ExpressiveCodePlugin } from '@astrojs/starlight/expressive-code';
import type { Element, ElementContent } from 'hast';

/**
 * Expressive Code writes every code block twice: once as the highlighted lines, once more in its
 * copy button's `data-code`. This plugin drops the second copy wherever it equals the lines as
 * shown, and the copy button reads the shown lines when clicked, so a page carries each sample
 * once and the copy takes whatever is on screen, values filled in by the request builder included.
 * A copy that differs from the lines (a terminal block copied without its comments) keeps its
 * `data-code`.
 */

const lineSeparator = '\u007f';

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function* elementsOf(node: Element): Generator<Element> {
  yield node;
  for (const child of node.children) if (child.type === 'element') yield* elementsOf(child);
}

const hasClass = (element: Element, name: string): boolean => {
  const classes = element.properties.className;
  return Array.isArray(classes) && classes.includes(name);
};

/** An empty line is rendered holding a line break, so that it keeps its height; its text is empty. */
const shownLine = (text: string): string => (text === '\n' ? '' : text);

/**
 * The lines of a rendered block as the browser's `textContent` reads them, joined as `data-code`
 * joins them. A block rendered as one text (single-text-blocks.ts) is read after this hook ran,
 * while its lines are still elements; the script below reads its text split at line breaks.
 */
function shownCode(block: Element): string | undefined {
  const code = [...elementsOf(block)].find((element) => element.tagName === 'code');
  if (code === undefined) return undefined;
  return code.children
    .filter((line): line is Element => line.type === 'element' && hasClass(line, 'ec-line'))
    .map((line) => shownLine(textOf(line)))
    .join(lineSeparator);
}

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
        const button = [...elementsOf(block)].find((element) => element.tagName === 'button' && typeof element.properties.dataCode === 'string');
        if (button !== undefined && button.properties.dataCode === shownCode(block)) delete button.properties.dataCode;
      },
    },
  };
}
