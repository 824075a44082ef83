/**
 * Version 1 may add actions (rule 9.4), and every page must keep under 1,500 elements
 * (src/lib/site/page-elements.ts) at 200 of them. A list of actions, or of a field's allowed
 * values, is shown item by item, each in its own code element with its own link and badge, up
 * to `itemsShownApart` items: today's eight actions keep the look they have. A longer list is
 * written compactly: the names in one run of text, each action still a link where the list
 * links them (one element a name, where `<code>` with its break marks costs three or four).
 */
export const itemsShownApart = 12;

export function isLongList(count: number): boolean {
  return count > itemsShownApart;
}

/** A value of a field's `enum` or `const` as the reference writes it: a string bare, any other value as JSON. */
export function literalText(value: string | number | boolean | null): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * A JSON body as a page's code block shows it: indented by two spaces, as `JSON.stringify(value,
 * null, 2)` writes it, except that a long list of plain values (a refusal's allowed actions, once
 * the contract has many) is written on one line. A code block costs elements a line, so a list of
 * 200 actions one a line would pass a page's bound on its own. The text parses back to the same value.
 */
export function pageJson(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (isLongList(value.length) && value.every(isScalar)) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    const inner = `${indent}  `;
    return `[\n${value.map((item: unknown) => `${inner}${pageJson(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    return `{\n${entries.map(([name, item]) => `${inner}${JSON.stringify(name)}: ${pageJson(item, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
