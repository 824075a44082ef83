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
