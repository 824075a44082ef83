import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { ReferenceModel } from '../lib/contract/model.ts';
import type { LlmsFullPage } from '../lib/site/llms-txt.ts';
import { actionPagePath, endpointPagePath, guidePaths, referenceIndexPath } from '../lib/site/navigation.ts';
import { publishedUrl } from '../lib/site/reference-markdown.ts';
import { blocksOf, passageCharacterLimit, passagesOf, type Passage } from './passages.ts';
import { Bm25Scorer, nextStamp, type ScoringOptions } from './search-scorer.ts';

/** Which part of the site a page belongs to, for search filters. */
export const pageKinds = ['guides', 'reference', 'product'] as const;
export type PageKind = (typeof pageKinds)[number];

/**
 * Words that say nothing about which passage is meant. The questions agents relay are full
 * sentences ("How do I get an API key?"); without this list "how", "do" and "I" would count.
 */
export const stopWords = new Set(
  'a against all an and answer answers any are as at be by can could do does for from happen happens has have how i if in is it its me my of on or our should so than that the their then there these this through to use using was we what when where which who why will with would you your'.split(' '),
);

/** Words the domain uses for the same thing: a query with one finds passages that use another. */
export const synonymGroups = [
  ['webhook', 'event', 'callback', 'notification', 'notify'],
  ['price', 'cost', 'pricing'],
  ['key', 'token', 'credential'],
  ['get', 'fetch', 'read', 'retrieve', 'lookup'],
  ['list', 'search', 'enumerate'],
  ['wrong', 'invalid', 'incorrect', 'bad'],
  ['batch', 'bulk', 'multiple', 'several', 'many', 'mass'],
];
/**
 * Phrases the domain says in its own words: the product has editions, and "version" is the
 * API's; a free or paid "version" is an edition. Undoing a cancellation is reactivating, and
 * acting on many at once is a batch.
 */
const phraseSynonyms: [RegExp, string][] = [
  [/\b(free|paid|premium|pro) versions?\b/gi, '$1 edition'],
  [/\b(?:undo|revert|reverse)(?: an?| the| my)? cancel(?:l?ations?|l?ed|l?ing)?\b/gi, 'reactivate cancelled'],
  [/\bun-?cancel\b/gi, 'reactivate'],
  [/\b(?:at once|at the same time|in one go|in one request)\b/gi, 'batch'],
];
/** Each group as the index keeps its words (stemmed), so a query's stemmed word finds its group. */
const stemmedGroups = synonymGroups.map((group) => group.map((word) => stem(word)));
const synonymsOf = new Map(stemmedGroups.flatMap((group) => group.map((word) => [word, group] as const)));
/** A synonym the query did not say counts half as much as a word it did. */
const synonymWeight = 0.5;

/**
 * How much a match counts in each part of a passage: its page's title, its headings, its prose
 * and its code. Code counts little: a sample names every word of the policy it follows, and the
 * question is usually answered by the sentence that says it.
 */
const fieldBoosts = { pageTitle: 0.5, headings: 2, leads: 2, prose: 1, code: 0.2 } as const;

/**
 * The bold words that open a paragraph or a list item ("**No read operation.**",
 * "**Authentication.**"): the headings of a passage's parts, counted as headings are.
 */
function leadsOf(prose: string): string {
  return [...prose.matchAll(/^(?:[-*] |\d+\. )?\*\*([^*\n]+)\*\*/gm)].map((match) => match[1] ?? '').join('\n');
}
/** A query that names an action, an error code or a field puts the passages of the page that defines it first. */
const canonicalBoost = 100;
/**
 * A query that names a page by its title ("With the TypeScript client, how do I catch a 409?")
 * asks within that page: its passages rank above those of the page that owns a term the query
 * names (the errors guide, for 409), whose boost they take twice over.
 */
const titleNamedBoost = canonicalBoost * canonicalBoost;
/**
 * How many of a page's title words a query must hold to name the page, one at least of them a word
 * no other title has: "PHP library" and "Python library" share "library", and each is named by it
 * together with its own word, never by "library" alone.
 */
const titleNamingWords = 2;
/** A term written as words ("API key" for `api_key`) may be meant as words: its page counts less. */
const inWordsBoost = 10;
/**
 * Passages whose text is mostly another passage's (an action page's table of errors, a row for
 * row copy of the errors guide's) stand for one answer: the lower-ranked one is left out.
 */
const nearDuplicateShare = 0.8;

/**
 * One word as the index keeps it: lower case, folded to its stem by the Porter algorithm
 * (`stemmer`), so "keys" finds "key", "expiration" finds "expire", "reactivation" finds
 * "reactivate" and "cancellation" finds "cancelled". Identifiers and codes are folded the same way
 * in the index and in the query, so they still meet.
 */
function stem(word: string): string {
  return stemmer(word);
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

/** What the index reads of a passage: its parts by kind, each a field of its own. */
interface PassageFields {
  id: number;
  pageTitle: string;
  headings: string;
  leads: string;
  prose: string;
  code: string;
}

/** A passage as a search returns it, with what a query needs of it worked out when the index is built. */
export interface IndexedPassage extends Passage {
  kind: PageKind;
  /** The words of its headings below the page's title, as `tokens` splits them. */
  headingTerms: string[];
  /** The terms its tables define: those written as code in the first cell of a row (`| \`409\` |`), lower case. */
  definedTerms: string[];
  /** The passages that hold most of its lines (`nearDuplicateShare`): ranked below any of them, it is left out. */
  repeats: number[];
}

export interface SearchIndex {
  passages: IndexedPassage[];
  /** BM25 over the postings MiniSearch wrote, ranking as MiniSearch would (`search-scorer.ts`). */
  scorer: Bm25Scorer;
  /** The page that defines a term: an action, an error code, a field. */
  canonicalPages: Map<string, string>;
  /** The words of each guide's title that can name it (`titleNamingWords`): all of them, and those no other title has. */
  titleWords: Map<string, TitleWords>;
  /** Scratch space of one search: the passages it has kept, to leave out near-copies of them. */
  keptPassages: KeptPassages;
}

/** The passages a search has kept so far: those whose stamp is its own. */
interface KeptPassages {
  stamp: number;
  stamps: Uint32Array;
}

/** A title's words as the index keeps them, and those of them no other page's title has. */
export interface TitleWords {
  all: string[];
  own: string[];
}

/**
 * The index as plain data, written when the site is built (`src/integrations/mcp-search-index.ts`)
 * and loaded by `loadSearchIndex`, which only turns MiniSearch's tables into the scorer's typed
 * arrays: MiniSearch's own serialization of its tables, the passages with what a query needs of
 * them, and the pages that define terms.
 */
export interface SearchIndexData {
  format: typeof searchIndexFormat;
  passages: IndexedPassage[];
  engine: ReturnType<MiniSearch['toJSON']>;
  canonicalPages: [string, string][];
  titleWords: [string, TitleWords][];
}

/** Changes when the data's shape does, so that an index written by another version is refused rather than misread. */
export const searchIndexFormat = 'subscription-lifecycle-search/3';

/** Where the site's build writes the index, beside llms-full.txt. */
export const searchIndexPath = '/mcp/search-index.json';

/** MiniSearch's options when the index is built; its fields, in this order, are those the scorer reads. */
export const searchEngineOptions = {
  fields: ['pageTitle', 'headings', 'leads', 'prose', 'code'],
  storeFields: [],
  tokenize: tokens,
  processTerm: indexTerm,
};

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

/** A text's lines, trimmed, without blank ones. */
function nonBlankLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/**
 * For each passage, the others that hold at least `nearDuplicateShare` of its lines: found once
 * here, through the passages each line stands in, rather than by comparing every hit of a query
 * with those above it.
 */
function repeatsOf(passages: readonly Passage[]): number[][] {
  const holders = new Map<string, Set<number>>();
  const linesOf = passages.map((passage) => nonBlankLines(passage.text));
  linesOf.forEach((lines, id) => {
    for (const line of lines) {
      const holding = holders.get(line) ?? new Set<number>();
      holding.add(id);
      holders.set(line, holding);
    }
  });
  return linesOf.map((lines, id) => {
    const shared = new Map<number, number>();
    for (const line of lines) for (const other of holders.get(line) ?? []) if (other !== id) shared.set(other, (shared.get(other) ?? 0) + 1);
    return [...shared].filter(([, count]) => lines.length > 0 && count / lines.length >= nearDuplicateShare).map(([other]) => other);
  });
}

/**
 * The words of each guide's title (as the index keeps them), and which of them no other page's title
 * has, for the guides whose title has two or more words and one at least of its own: "TypeScript
 * client", "PHP library" (whose "library" the Python library's title shares), "conformance suite"
 * and "check install", "run workflows". A title of one word ("Versioning", "Quickstart") is left
 * out: one word of a question is too often the plain word rather than the page's name. So are
 * the reference's pages, which a query names by their terms (`canonicalPages`), and the home page,
 * whose title is the service's name, which every page is about.
 */
function titleWordsOf(pages: readonly LlmsFullPage[]): Map<string, TitleWords> {
  const wordsOfTitle = new Map(pages.map((page) => [page.url, [...new Set(words(page.title))]] as const));
  const named = (url: string) => kindOf(url) !== 'reference' && new URL(url).pathname !== '/';
  const titlesWith = new Map<string, number>();
  for (const titleWords of wordsOfTitle.values()) for (const word of titleWords) titlesWith.set(word, (titlesWith.get(word) ?? 0) + 1);
  const split = [...wordsOfTitle].map(([url, all]): [string, TitleWords] => [url, { all: [...all], own: all.filter((word) => titlesWith.get(word) === 1) }]);
  return new Map(split.filter(([url, { all, own }]) => named(url) && all.length >= titleNamingWords && own.length > 0));
}

/**
 * Every passage of every page indexed with MiniSearch (BM25 over page title, headings and text),
 * as plain data: the work a search must not repeat, done once when the site is built.
 */
export function searchIndexData(model: ReferenceModel, pages: LlmsFullPage[]): SearchIndexData {
  const canonicalPages = canonicalPagesOf(model);
  // A row's owner: the page that defines the first term its first cell names.
  const ownerOf = (row: string) => {
    const firstCell = row.split('|')[1] ?? '';
    return tokens(firstCell).flatMap((token) => canonicalPages.get(token) ?? [])[0];
  };
  const passages = passagesOf(pages, passageCharacterLimit, ownerOf);
  const isCode = (block: string) => /^\s*(```|~~~)/.test(block);
  const fields = passages.map((passage): PassageFields => {
    const blocks = blocksOf(passage.text);
    const prose = blocks.filter((block) => !isCode(block)).join('\n\n');
    return { id: passage.id, pageTitle: passage.pageTitle, headings: passage.headingPath.slice(1).join('\n'), leads: leadsOf(prose), prose, code: blocks.filter(isCode).join('\n\n') };
  });
  const engine = new MiniSearch<PassageFields>(searchEngineOptions);
  engine.addAll(fields);
  const repeats = repeatsOf(passages);
  return {
    format: searchIndexFormat,
    passages: passages.map((passage, id) => ({
      ...passage,
      kind: kindOf(passage.pageUrl),
      headingTerms: [...new Set(tokens(fields[id]?.headings ?? ''))],
      definedTerms: [...new Set([...(fields[id]?.prose ?? '').matchAll(/^\| `([^`\n]+)`/gm)].map((match) => (match[1] ?? '').toLowerCase()))],
      repeats: repeats[id] ?? [],
    })),
    engine: engine.toJSON(),
    canonicalPages: [...canonicalPages],
    titleWords: [...titleWordsOf(pages)],
  };
}

/** The index from its data, as the site's build wrote it; data of another format is refused. */
export function loadSearchIndex(data: SearchIndexData): SearchIndex {
  if (data.format !== searchIndexFormat) throw new Error(`The search index is of format ${String(data.format)}, not ${searchIndexFormat}: rebuild the site (npm run build).`);
  return {
    passages: data.passages,
    scorer: new Bm25Scorer(data.engine, searchEngineOptions.fields),
    canonicalPages: new Map(data.canonicalPages),
    titleWords: new Map(data.titleWords),
    keptPassages: { stamp: 0, stamps: new Uint32Array(data.passages.reduce((slots, passage) => Math.max(slots, passage.id + 1), 0)) },
  };
}


export interface SearchHit {
  passage: IndexedPassage;
  score: number;
}

/**
 * The terms of the model a query names. An identifier (`pause_subscription`, `api_key`) or a code
 * (`409`) names its term even when written as words ("API key", "subscription id"); a plain word
 * that is also a field's name ("status", "note") names the field only when the query says so
 * ("the note field"), since it is more often the plain word.
 */
function namedTerms(index: SearchIndex, query: string): { written: string[]; inWords: string[] } {
  const said = tokens(query).filter((token) => index.canonicalPages.has(token));
  const plain = [...query.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((match) => match[0]);
  const written = said.filter((term) => {
    if (/[_\d]/.test(term)) return true;
    const at = plain.indexOf(term);
    return at >= 0 && plain[at + 1] === 'field';
  });
  return { written: [...new Set(written)], inWords: [...new Set(wordsJoined(query).filter((term) => index.canonicalPages.has(term) && !said.includes(term)))] };
}

/**
 * Neighbouring words of a query joined as an identifier would be ("subscription id" for
 * `subscription_id`), but only words the query separates by whitespace or an underscore: a word
 * that is part of a hyphenated one ("pending-cancel") is that word's, so "pending-cancel
 * subscription" names a status, not `cancel_subscription`.
 */
export function wordsJoined(query: string): string[] {
  // A whitespace-separated word, with its punctuation at either end dropped; `null` when it holds other marks than letters, digits and underscores.
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, ''))
    .filter((word) => word.length > 0)
    .map((word) => (/^[\p{L}\p{N}_]+$/u.test(word) ? word.split('_').filter((part) => part.length > 0) : null));
  const joined: string[] = [];
  let run: string[] = [];
  for (const word of [...words, null]) {
    if (word === null) {
      joined.push(...run.slice(1).map((part, position) => `${run[position] ?? ''}_${part}`));
      run = [];
    } else run.push(...word);
  }
  return joined;
}

/** What a query asks the scorer: its terms as the index keeps them, in order, and how it weighs and filters them. */
export interface SearchPlan {
  terms: string[];
  options: ScoringOptions;
}

/**
 * How a query is scored: BM25 with field boosts, the domain's synonyms added at half weight, first
 * the passages of a guide the query names by its title ("the PHP library"), then those of the page
 * that defines a term the query names (an action, an error code, a field), or of a section whose
 * heading names it ("409 body").
 */
export function searchPlan(index: SearchIndex, query: string, kinds: readonly PageKind[] = pageKinds): SearchPlan {
  const phrased = phraseSynonyms.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), query);
  const asked = new Set(words(phrased));
  const synonyms = new Set([...asked].flatMap((word) => synonymsOf.get(word) ?? []).filter((word) => !asked.has(word)));
  const { written: named, inWords } = namedTerms(index, query);
  const terms = [...named, ...inWords];
  const pagesOf = (names: string[]) => new Set(names.flatMap((term) => index.canonicalPages.get(term) ?? []));
  const ownersOfWritten = pagesOf(named);
  const ownersInWords = pagesOf(inWords);
  // The section that owns a term: its heading names it ("409 body"), or a table row of it starts with the term written.
  const headingNames = (id: number) => {
    const passage = index.passages[id];
    if (passage === undefined) return false;
    return terms.some((term) => passage.headingTerms.includes(term)) || named.some((term) => passage.definedTerms.includes(term));
  };
  const titleNamed = new Set(
    [...index.titleWords].filter(([, { all, own }]) => all.filter((word) => asked.has(word)).length >= titleNamingWords && own.some((word) => asked.has(word))).map(([url]) => url),
  );
  const pageBoost = (pageUrl: string) => (titleNamed.has(pageUrl) ? titleNamedBoost : ownersOfWritten.has(pageUrl) ? canonicalBoost : ownersInWords.has(pageUrl) ? inWordsBoost : 1);
  const allowed = new Set(kinds);
  return {
    terms: [...asked, ...synonyms],
    options: {
      fieldBoosts,
      termBoost: (term) => (synonyms.has(term) ? synonymWeight : 1),
      documentBoost: (id) => pageBoost(index.passages[id]?.pageUrl ?? '') * (headingNames(id) ? canonicalBoost : 1),
      accept: (id) => allowed.has(index.passages[id]?.kind ?? 'guides'),
    },
  };
}

/**
 * Passages ranked across every page as `searchPlan` weighs the query. A passage that mostly
 * repeats one ranked above it is left out.
 */
export function searchPassages(index: SearchIndex, query: string, kinds: readonly PageKind[] = pageKinds): SearchHit[] {
  const { terms, options } = searchPlan(index, query, kinds);
  const ranked = index.scorer.rank(terms, options);
  const hits: SearchHit[] = [];
  // The passages kept so far are those whose stamp is this search's: nothing to clear, nothing to allocate.
  const kept = index.keptPassages;
  kept.stamp = nextStamp(kept.stamp, kept.stamps);
  for (let rank = 0; rank < ranked; rank++) {
    const passage = index.passages[index.scorer.idAt(rank)];
    if (passage === undefined || repeatsOneOf(passage, kept)) continue;
    kept.stamps[passage.id] = kept.stamp;
    hits.push({ passage, score: index.scorer.scoreAt(rank) });
  }
  return hits;
}

/** Whether a passage mostly repeats one kept above it. */
function repeatsOneOf(passage: IndexedPassage, kept: KeptPassages): boolean {
  const { repeats } = passage;
  for (let at = 0; at < repeats.length; at++) if (kept.stamps[repeats[at] ?? 0] === kept.stamp) return true;
  return false;
}
