/** How generated sentences write counts and lists, the same on every page and in every sample. */

const smallNumbers = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** A count as prose reads it: words up to twelve, digits beyond. */
export function countInWords(count: number): string {
  return smallNumbers[count] ?? String(count);
}

/** A list as a sentence writes it, without a serial comma: `a, b and c`. */
export function listInWords(items: string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
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
