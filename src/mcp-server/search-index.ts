import type { ReferenceModel } from '../lib/contract/actions.ts';
import type { LlmsFullPage } from '../lib/site/llms-txt.ts';
import { actionPagePath, endpointPagePath, guidePaths, referenceIndexPath } from '../lib/site/navigation.ts';
import { publishedUrl } from '../lib/site/reference-markdown.ts';

/** Which part of the site a page belongs to, for search filters. */
export const pageKinds = ['guides', 'reference', 'product'] as const;
export type PageKind = (typeof pageKinds)[number];

/**
 * Words that say nothing about which page is meant. The questions agents relay are full
 * sentences ("How do I get an API key?"); without this list "how", "do" and "I" would count.
 */
const stopWords = new Set(
  'a an and are as at be by can could do does for from get has have how i if in is it its me my of on or our should so than that the their then there these this to use using was we what when where which who why will with would you your'.split(' '),
);

/** Words the domain uses for the same thing: a query with one finds pages that use another. */
const synonymGroups = [
  ['webhook', 'event', 'callback', 'notification', 'notify'],
  ['price', 'cost', 'pricing'],
  ['key', 'token', 'credential'],
];
const synonymsOf = new Map(synonymGroups.flatMap((group) => group.map((word) => [word, group] as const)));

/** How much a match counts in each part of a page: its title, its headings, its text. */
const fieldWeights = { title: 4, headings: 2, body: 1 } as const;
type FieldName = keyof typeof fieldWeights;
const fieldNames = Object.keys(fieldWeights) as FieldName[];
// The usual BM25 settings (Robertson and Zaragoza, "The Probabilistic Relevance Framework").
const k1 = 1.2;
const b = 0.75;
/** A query that names an action, an error code or a field puts the page that defines it first. */
const canonicalBoost = 1000;

/** One word as the index keeps it: lower case, a plural's `s` dropped, so "keys" finds "key". */
function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The words of a text; an identifier such as `pause_subscription` counts whole and by its parts. */
export function words(text: string): string[] {
  const found: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    const parts = word.includes('_') ? [word, ...word.split('_').filter((part) => part.length > 0)] : [word];
    for (const part of parts) if (!stopWords.has(part)) found.push(stem(part));
  }
  return found;
}

interface IndexedPage {
  page: LlmsFullPage;
  kind: PageKind;
  counts: Record<FieldName, Map<string, number>>;
  lengths: Record<FieldName, number>;
}

export interface SearchIndex {
  pages: IndexedPage[];
  averageLengths: Record<FieldName, number>;
  /** In how many pages each word occurs. */
  documentFrequency: Map<string, number>;
  /** The page that defines a term: an action, an error code, a field. */
  canonicalPages: Map<string, string>;
}

function kindOf(url: string): PageKind {
  const pathname = new URL(url).pathname;
  if (pathname.startsWith(referenceIndexPath)) return 'reference';
  return pathname === guidePaths.product || pathname === guidePaths.productInformationServer ? 'product' : 'guides';
}

function countWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The headings of a page's Markdown, fenced code left out (a shell comment is not a heading). */
function headingsOf(markdown: string): string {
  let fenced = false;
  const headings: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && /^#{2,6} /.test(line)) headings.push(line.replace(/^#+ /, ''));
  }
  return headings.join('\n');
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

export function buildSearchIndex(model: ReferenceModel, pages: LlmsFullPage[]): SearchIndex {
  const indexed = pages.map((page): IndexedPage => {
    const texts: Record<FieldName, string> = { title: page.title, headings: headingsOf(page.markdown), body: page.markdown };
    const counts = { title: countWords(texts.title), headings: countWords(texts.headings), body: countWords(texts.body) };
    const lengths = { title: 0, headings: 0, body: 0 };
    for (const field of fieldNames) for (const count of counts[field].values()) lengths[field] += count;
    return { page, kind: kindOf(page.url), counts, lengths };
  });
  const averageLengths = { title: 0, headings: 0, body: 0 };
  for (const field of fieldNames) averageLengths[field] = indexed.reduce((sum, page) => sum + page.lengths[field], 0) / Math.max(1, indexed.length) || 1;
  const documentFrequency = new Map<string, number>();
  for (const page of indexed) {
    const seen = new Set(fieldNames.flatMap((field) => [...page.counts[field].keys()]));
    for (const word of seen) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  return { pages: indexed, averageLengths, documentFrequency, canonicalPages: canonicalPagesOf(model) };
}

export interface SearchHit {
  page: LlmsFullPage;
  kind: PageKind;
  score: number;
  /** The query's words as the index matched them, synonyms included. */
  matched: string[];
}

/** A query's words, each with the weight it counts for: its own 1, a synonym's one half. */
function queryTerms(query: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const word of words(query)) {
    terms.set(word, 1);
    for (const synonym of synonymsOf.get(word) ?? []) if (!terms.has(synonym)) terms.set(synonym, 0.5);
  }
  return terms;
}

/** Pages ranked by BM25F over title, headings and text, the canonical page of a named term first. */
export function searchPages(index: SearchIndex, query: string, kinds: readonly PageKind[] = pageKinds): SearchHit[] {
  const terms = queryTerms(query);
  const named = new Set(
    [...query.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)].map((match) => index.canonicalPages.get(match[0])).filter((url): url is string => url !== undefined),
  );
  const total = index.pages.length;
  return index.pages
    .filter((page) => kinds.includes(page.kind))
    .map((page): SearchHit => {
      let score = 0;
      const matched: string[] = [];
      for (const [term, weight] of terms) {
        let frequency = 0;
        for (const field of fieldNames) {
          const count = page.counts[field].get(term) ?? 0;
          frequency += (fieldWeights[field] * count) / (1 - b + (b * page.lengths[field]) / index.averageLengths[field]);
        }
        if (frequency === 0) continue;
        const documents = index.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (total - documents + 0.5) / (documents + 0.5));
        score += weight * idf * ((frequency * (k1 + 1)) / (frequency + k1));
        matched.push(term);
      }
      if (named.has(page.page.url)) score += canonicalBoost;
      return { page: page.page, kind: page.kind, score, matched };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, c) => c.score - a.score || a.page.url.localeCompare(c.page.url));
}

/** The paragraph of a page where most of the matched words stand, cut to `length` characters. */
export function snippet(markdown: string, matched: string[], length = 280): string {
  const wanted = new Set(matched);
  const paragraphs = markdown.split(/\n{2,}/).slice(2);
  let best = paragraphs[0] ?? '';
  let bestCount = -1;
  for (const paragraph of paragraphs) {
    const count = words(paragraph).filter((word) => wanted.has(word)).length;
    if (count > bestCount) {
      best = paragraph;
      bestCount = count;
    }
  }
  const flat = best.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length).trimEnd()}…` : flat;
}
