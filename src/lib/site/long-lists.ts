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
