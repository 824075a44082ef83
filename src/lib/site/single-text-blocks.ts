import type { ExpressiveCodeBlock, ExpressiveCodePlugin } from '@astrojs/starlight/expressive-code';
import type { Element, ElementContent } from 'hast';

/**
 * A code block whose meta says `single-text` is rendered as one text inside its `<code>`, not as
 * an element per line: the retrying clients are 150 lines each, three to a page, and an element
 * per line (two, and a third for an indent) put the errors guide over the 1,500 elements a phone
 * handles well; an action page's eight samples and its examples were half of its elements. Its
 * lines still wrap; a wrapped line starts at the block's edge instead of under its own
 * indentation, the one thing given up. Whatever reads such a block reads its text split at the
 * line breaks: the copy button (copy-rendered-code.ts), the page's Markdown (guide-markdown.ts),
 * the request builder, and the end-to-end tests (tests/e2e/support/code-block.ts).
 */
export const singleTextMeta = 'single-text';

export const isSingleTextBlock = (codeBlock: ExpressiveCodeBlock): boolean => codeBlock.metaOptions.getBoolean(singleTextMeta) === true;

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function findCode(node: Element): Element | undefined {
  if (node.tagName === 'code') return node;
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    const found = findCode(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function singleTextBlocks(): ExpressiveCodePlugin {
  return {
    name: 'single-text-blocks',
    // The lines' own rules (`.ec-line .code`) wrap them and keep the first clear of the copy
    // button; a block without lines needs both on `<code>`, for all its lines.
    // Expressive Code gives `<code>` the block's full width, so the padding goes inside it; and it
    // lays `<pre>` out so that `<code>` is never narrower than its longest word, unless told.
    baseStyles: `pre.wrap > code.single-text {
      display: block;
      box-sizing: border-box;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      min-width: 0;
      padding-inline: var(--ec-codePadInl) calc(2rem + var(--ec-codePadInl));
    }`,
    hooks: {
      postprocessRenderedBlock: ({ codeBlock, renderData }) => {
        if (!isSingleTextBlock(codeBlock)) return;
        const code = findCode(renderData.blockAst);
        if (code === undefined) return;
        const lines = code.children.filter((line): line is Element => line.type === 'element').map((line) => textOf(line).replace(/\n$/, ''));
        code.properties.className = ['single-text'];
        code.children = [{ type: 'text', value: lines.join('\n') }];
      },
    },
  };
}
