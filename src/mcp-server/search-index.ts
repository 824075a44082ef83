import MiniSearch from 'minisearch';
import type { ReferenceModel } from '../lib/contract/actions.ts';
import type { LlmsFullPage } from '../lib/site/llms-txt.ts';
import { actionPagePath, endpointPagePath, guidePaths, referenceIndexPath } from '../lib/site/navigation.ts';
import { publishedUrl } from '../lib/site/reference-markdown.ts';
import { blocksOf, passagesOf, type Passage } from './passages.ts';

/** Which part of the site a page belongs to, for search filters. */
export const pageKinds = ['guides', 'reference', 'product'] as const;
export type PageKind = (typeof pageKinds)[number];

/**
 * Words that say nothing about which passage is meant. The questions agents relay are full
 * sentences ("How do I get an API key?"); without this list "how", "do" and "I" would count.
 */
const stopWords = new Set(
  'a an and answer answers are as at be by can could do does for from get happen happens has have how i if in is it its me my of on or our should so than that the their then there these this to use using was we what when where which who why will with would you your'.split(' '),
);

/** Words the domain uses for the same thing: a query with one finds passages that use another. */
const synonymGroups = [
  ['webhook', 'event', 'callback', 'notification', 'notify'],
  ['price', 'cost', 'pricing'],
  ['key', 'token', 'credential'],
];
const synonymsOf = new Map(synonymGroups.flatMap((group) => group.map((word) => [word, group] as const)));
/** A synonym the query did not say counts half as much as a word it did. */
const synonymWeight = 0.5;

/**
 * How much a match counts in each part of a passage: its page's title, its headings, its prose
 * and its code. Code counts little: a sample names every word of the policy it follows, and the
 * question is usually answered by the sentence that says it.
 */
const fieldBoosts = { pageTitle: 1, headings: 2, prose: 1, code: 0.2 } as const;
/** A query that names an action, an error code or a field puts the passages of the page that defines it first. */
const canonicalBoost = 100;

/** One word as the index keeps it: lower case, a plural's `s` dropped, so "keys" finds "key". */
function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The tokens of a text; an identifier such as `pause_subscription` counts whole and by its parts. */
function tokens(text: string): string[] {
  return [...text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)].flatMap((match) => {
    const word = match[0];
    return word.includes('_') ? [word, ...word.split('_').filter((part) => part.length > 0)] : [word];
  });
}

function indexTerm(term: string): string | null {
  return stopWords.has(term) ? null : stem(term);
}

/** The words of a text as the index keeps them. */
export function words(text: string): string[] {
  return tokens(text).flatMap((token) => indexTerm(token) ?? []);
}

interface IndexedPassage extends Passage {
  kind: PageKind;
  headings: string;
  prose: string;
  code: string;
}

export interface SearchIndex {
  passages: IndexedPassage[];
  engine: MiniSearch<IndexedPassage>;
  /** The page that defines a term: an action, an error code, a field. */
  canonicalPages: Map<string, string>;
}

function kindOf(url: string): PageKind {
  const pathname = new URL(url).pathname;
  if (pathname.startsWith(referenceIndexPath)) return 'reference';
  return pathname === guidePaths.product || pathname === guidePaths.productInformationServer ? 'product' : 'guides';
}

/** Every term with a page of its own in the model, and that page. */
function canonicalPagesOf(model: ReferenceModel): Map<string, string> {
  const canonical = new Map<string, string>();
  const errorsGuide = publishedUrl(guidePaths.errors);
  for (const response of model.responses) {
    if (response.isError) canonical.set(response.status, errorsGuide);
    for (const error of response.errorCodes) canonical.set(error.code.toLowerCase(), errorsGuide);
  }
  for (const field of model.envelope.sharedFields) canonical.set(field.name.toLowerCase(), publishedUrl(endpointPagePath));
  canonical.set(model.envelope.credential.toLowerCase(), publishedUrl(guidePaths.authentication));
  for (const action of model.actions) {
    for (const field of action.fields) if (!canonical.has(field.name.toLowerCase())) canonical.set(field.name.toLowerCase(), publishedUrl(actionPagePath(action.identifier)));
  }
  for (const action of model.actions) canonical.set(action.identifier.toLowerCase(), publishedUrl(actionPagePath(action.identifier)));
  return canonical;
}

/** Every passage of every page in one MiniSearch index (BM25 over page title, headings and text). */
export function buildSearchIndex(model: ReferenceModel, pages: LlmsFullPage[]): SearchIndex {
  const passages = passagesOf(pages).map((passage): IndexedPassage => {
    const blocks = blocksOf(passage.text);
    const isCode = (block: string) => /^\s*(```|~~~)/.test(block);
    return {
      ...passage,
      kind: kindOf(passage.pageUrl),
      headings: passage.headingPath.slice(1).join('\n'),
      prose: blocks.filter((block) => !isCode(block)).join('\n\n'),
      code: blocks.filter(isCode).join('\n\n'),
    };
  });
  const engine = new MiniSearch<IndexedPassage>({
    fields: ['pageTitle', 'headings', 'prose', 'code'],
    storeFields: [],
    tokenize: tokens,
    processTerm: indexTerm,
  });
  engine.addAll(passages);
  return { passages, engine, canonicalPages: canonicalPagesOf(model) };
}

export interface SearchHit {
  passage: IndexedPassage;
  score: number;
}

/**
 * Passages ranked across every page: MiniSearch's BM25 with field boosts and prefix matching for
 * longer words, the domain's synonyms added at half weight, and the passages of the page that
 * defines a term the query names (an action, an error code, a field) first.
 */
export function searchPassages(index: SearchIndex, query: string, kinds: readonly PageKind[] = pageKinds): SearchHit[] {
  const asked = new Set(words(query));
  const synonyms = new Set([...asked].flatMap((word) => synonymsOf.get(word) ?? []).filter((word) => !asked.has(word)));
  const named = new Set(tokens(query).flatMap((token) => index.canonicalPages.get(token) ?? []));
  const allowed = new Set(kinds);
  const results = index.engine.search([...asked, ...synonyms].join(' '), {
    boost: fieldBoosts,
    prefix: (term) => term.length >= 5,
    boostTerm: (term) => (synonyms.has(term) ? synonymWeight : 1),
    boostDocument: (id: number) => (named.has(index.passages[id]?.pageUrl ?? '') ? canonicalBoost : 1),
    filter: (result) => allowed.has(index.passages[result.id as number]?.kind ?? 'guides'),
  });
  return results.flatMap((result) => {
    const passage = index.passages[result.id as number];
    return passage === undefined ? [] : [{ passage, score: result.score }];
  });
}
