/**
 * The facts an answer of the evaluation must carry, and how they are checked. A fact is bound to
 * its subject, so that an answer that does not depend on the question (an overview, a whole
 * lifecycle, the start of llms-full.txt) does not pass by holding the same words elsewhere:
 * - `says`: a phrase distinctive enough on its own (a quoted sentence of the contract, an address);
 * - `near`: terms that must stand together, each at most `within` characters from the first
 *   one (a number next to its name and unit, a code next to when it happens);
 * - `list`: a list after one of its labels (`"acceptedFrom":[`, "Refused, … for a subscription
 *   that is"), up to the end of that list, holding every item and none of `without` (a refused
 *   status among the accepted ones makes the answer wrong).
 * Text is compared as `comparable` writes it: one case, no Markdown marks, no JSON escapes.
 */
export type Fact =
  | { kind: 'says'; text: string }
  | { kind: 'near'; terms: string[]; within: number }
  | { kind: 'list'; after: string[]; items: string[]; without: string[] };

export function says(text: string): Fact {
  return { kind: 'says', text };
}

export function near(within: number, ...terms: string[]): Fact {
  return { kind: 'near', terms, within };
}

export function listed(after: string[], items: readonly string[], without: readonly string[]): Fact {
  return { kind: 'list', after, items: [...items], without: [...without] };
}

/** Text as compared for facts: one case, no Markdown emphasis or code marks, no JSON escapes, single spaces. */
export function comparable(text: string): string {
  return text
    .replace(/\\n/g, ' ')
    .replace(/\\"/g, '"')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** The fact as the results name a missing one. */
export function factLabel(fact: Fact): string {
  if (fact.kind === 'says') return fact.text;
  if (fact.kind === 'near') return fact.terms.map((term) => `"${term}"`).join(' near ');
  return `${fact.items.join(', ')} after "${fact.after[0] ?? ''}"${fact.without.length > 0 ? `, without ${fact.without.join(', ')}` : ''}`;
}

/** Every index at which `term` starts in `text`. */
function positions(text: string, term: string): number[] {
  const found: number[] = [];
  if (term === '') return found;
  for (let index = text.indexOf(term); index >= 0; index = text.indexOf(term, index + 1)) found.push(index);
  return found;
}

function escaped(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `item` as a whole value: `pending` is not found in `pending-cancel`. */
function holdsValue(stretch: string, item: string): boolean {
  return new RegExp(`(^|[^a-z0-9_-])${escaped(item)}($|[^a-z0-9_-])`).test(stretch);
}

/** Where a list ends: the end of a JSON array, of a sentence, of a table cell, or before what a list of statuses leads to. */
const listEnds = [']', '. ', '|', ';', ' leaves ', ' and leads '];

/** Where `end` next closes a list after `from`; a Markdown link's `](` closes its text, not the list. */
function endOfList(read: string, end: string, from: number): number {
  let index = read.indexOf(end, from);
  while (end === ']' && index >= 0 && read[index + 1] === '(') index = read.indexOf(end, index + 1);
  return index;
}

function listHolds(read: string, fact: Extract<Fact, { kind: 'list' }>): boolean {
  const items = fact.items.map(comparable);
  const without = fact.without.map(comparable);
  return fact.after.some((label) =>
    positions(read, comparable(label)).some((start) => {
      const from = start + comparable(label).length;
      const ends = listEnds.map((end) => endOfList(read, end, from)).filter((index) => index >= 0);
      const stretch = read.slice(from, ends.length > 0 ? Math.min(...ends) : undefined);
      return items.every((item) => holdsValue(stretch, item)) && !without.some((item) => holdsValue(stretch, item));
    }),
  );
}

/** Whether `text` (as the tools returned it) carries the fact. */
export function holds(fact: Fact, text: string): boolean {
  const read = comparable(text);
  if (fact.kind === 'says') return read.includes(comparable(fact.text));
  if (fact.kind === 'list') return listHolds(read, fact);
  const [first = '', ...others] = fact.terms.map(comparable);
  // Each other term starts at most `within` characters after the first ends, or ends at most that before it starts.
  const found = others.map((term) => ({ term, at: positions(read, term) }));
  return positions(read, first).some((start) => {
    const end = start + first.length;
    return found.every(({ term, at }) => at.some((index) => index <= end + fact.within && index + term.length >= start - fact.within));
  });
}

/** The facts of a question that `text` does not carry. */
export function missingFacts(facts: readonly Fact[], text: string): Fact[] {
  return facts.filter((fact) => !holds(fact, text));
}
