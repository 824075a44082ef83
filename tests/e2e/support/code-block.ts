import type { Locator } from '@playwright/test';

/**
 * The lines of a rendered code block (its `<pre>` or a frame around it) as a reader sees them.
 * Expressive Code renders a line as an element (`.ec-line`) unless the block is one text
 * (src/lib/site/single-text-blocks.ts), the form of the action pages' samples and examples: then
 * the lines are its `<code>`'s text split at the line breaks. Every test reads code through this,
 * so a change of form is met in one place.
 */
export async function codeLines(block: Locator): Promise<string[]> {
  return block.evaluate((element) => {
    const lines = [...element.querySelectorAll('.ec-line')];
    // An empty line is rendered holding a line break, so that it keeps its height.
    if (lines.length > 0) return lines.map((line) => (line.textContent === '\n' ? '' : (line.textContent ?? '')));
    const code = element.querySelector('code') ?? element;
    return (code.textContent ?? '').replace(/\n$/, '').split('\n');
  });
}

/** A rendered code block's text, its lines joined with line breaks. */
export async function codeText(block: Locator): Promise<string> {
  return (await codeLines(block)).join('\n');
}
