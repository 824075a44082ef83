/** How generated sentences write counts and lists, the same on every page and in every sample. */

const smallNumbers = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** A count as prose reads it: words up to twelve, digits beyond. */
export function countInWords(count: number): string {
  return smallNumbers[count] ?? String(count);
}

// British English joins a list without a serial comma, as the pages always have: `a, b and c`.
const listFormats = {
  and: new Intl.ListFormat('en-GB', { type: 'conjunction' }),
  or: new Intl.ListFormat('en-GB', { type: 'disjunction' }),
};

/** A list as a sentence writes it, without a serial comma: `a, b and c`. */
export function listInWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  return listFormats[conjunction].format(items);
}

/** The same list in parts, for markup that wraps each item (`<code>`) and not the words between. */
export function listInParts(items: readonly string[], conjunction: 'and' | 'or'): { type: 'element' | 'literal'; value: string }[] {
  return listFormats[conjunction].formatToParts(items);
}

/**
 * The first sentence of a paragraph of Markdown, for a place that links to the whole text
 * instead of repeating it. A full stop inside code (`v1.json`) does not end a sentence.
 */
export function firstSentence(markdown: string): string {
  const text = markdown.trim();
  let inCode = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '`') inCode = !inCode;
    if (!inCode && character === '.' && /\s/.test(text[index + 1] ?? '')) return text.slice(0, index + 1);
  }
  return text;
}
