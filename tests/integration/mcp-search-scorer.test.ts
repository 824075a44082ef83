/**
 * search_docs's scorer (src/mcp-server/search-scorer.ts) ranks as MiniSearch does: for every
 * question of both evaluation sets and for queries made of the index's own terms, the stop words,
 * the synonyms and the model's identifiers and codes, it returns the same passages in the same
 * order with the same scores (`===`) as MiniSearch loaded from the same data and searched with the
 * same options; and so it does on small indexes of random documents, where ties, a term said twice,
 * a document boost of 0 and a filter are common.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { heldOutQuestions } from '../../src/mcp-server/evaluation/held-out-questions.ts';
import { evaluationQuestions } from '../../src/mcp-server/evaluation/questions.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';
import { knowledgeFrom, type KnowledgeSource, type ProductKnowledge } from '../../src/mcp-server/knowledge.ts';
import { readKnowledgeSource } from '../../src/mcp-server/load-knowledge.ts';
import { Bm25Scorer, type ScoringOptions } from '../../src/mcp-server/search-scorer.ts';
import { pageKinds, searchEngineOptions, searchPassages, searchPlan, stopWords, synonymGroups, type PageKind } from '../../src/mcp-server/search-index.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
let source: KnowledgeSource;
let knowledge: ProductKnowledge;
let reference: MiniSearch;

before(async () => {
  ensureBuiltSite(projectDirectory);
  source = await readKnowledgeSource(projectDirectory);
  knowledge = knowledgeFrom(source);
  reference = MiniSearch.loadJS(source.searchIndex.engine, searchEngineOptions);
});

/** MiniSearch's ranking of `terms` with the options search_docs gives the scorer, as [id, score] pairs. */
function referenceRanking(engine: MiniSearch, terms: readonly string[], options: ScoringOptions): [number, number][] {
  return engine
    .search(terms.join(' '), {
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      boost: options.fieldBoosts,
      prefix: false,
      fuzzy: false,
      boostTerm: options.termBoost,
      boostDocument: (id: number) => options.documentBoost(id),
      filter: (result) => options.accept(result.id as number),
    })
    .map((result) => [result.id as number, result.score]);
}

function scorerRanking(scorer: Bm25Scorer, terms: readonly string[], options: ScoringOptions): [number, number][] {
  const count = scorer.rank(terms, options);
  return Array.from({ length: count }, (_, rank) => [scorer.idAt(rank), scorer.scoreAt(rank)]);
}

/** Asserts that the scorer and MiniSearch rank a query alike, and that search_docs's hits are that ranking less near-copies. */
function assertSameRanking(query: string, kinds: readonly PageKind[] = pageKinds): void {
  const { terms, options } = searchPlan(knowledge.search, query, kinds);
  const expected = referenceRanking(reference, terms, options);
  const actual = scorerRanking(knowledge.search.scorer, terms, options);
  assert.equal(actual.length, expected.length, `${JSON.stringify(query)} in ${kinds.join(', ')}: ${actual.length} hits, MiniSearch ${expected.length}`);
  actual.forEach(([id, score], rank) => {
    const [expectedId, expectedScore] = expected[rank] ?? [];
    assert.ok(id === expectedId && score === expectedScore, `${JSON.stringify(query)} in ${kinds.join(', ')}, rank ${rank}: passage ${id} scoring ${score}, MiniSearch passage ${expectedId} scoring ${expectedScore}`);
  });
  // search_docs's hits keep that order and those scores; only near-copies of a passage above are left out.
  const ranks = new Map(expected.map(([id, score], rank) => [id, { rank, score }]));
  let lastRank = -1;
  for (const hit of searchPassages(knowledge.search, query, kinds)) {
    const expectedHit = ranks.get(hit.passage.id);
    assert.ok(expectedHit !== undefined && expectedHit.rank > lastRank && expectedHit.score === hit.score, `${JSON.stringify(query)}: hit ${hit.passage.id} out of MiniSearch's order`);
    lastRank = expectedHit.rank;
  }
}

describe('the scorer ranks as MiniSearch does', () => {
  test('every question of the published evaluation, in every kind of page and each kind alone', () => {
    const questions = evaluationQuestions(knowledge.model, knowledge.facts, readServerIdentity(projectDirectory));
    assert.ok(questions.length > 20);
    for (const { question } of questions) for (const kinds of [pageKinds, ...pageKinds.map((kind) => [kind])]) assertSameRanking(question, kinds);
  });

  test('every held-out question', () => {
    const questions = heldOutQuestions(knowledge.model);
    assert.ok(questions.length > 5);
    for (const { question } of questions) assertSameRanking(question);
  });

  test("queries made of the index's terms, stop words, synonyms, identifiers and codes", () => {
    const indexTerms = source.searchIndex.engine.index.map(([term]) => term);
    const vocabulary = [...new Set([...indexTerms, ...stopWords, ...synonymGroups.flat(), ...knowledge.search.canonicalPages.keys(), ...knowledge.pages.map((page) => page.title)])];
    const separators = [' ', ' ', ', ', '? ', ' the ', '_', '-', ' at once '];
    const query = fc
      .array(fc.tuple(fc.constantFrom(...vocabulary), fc.constantFrom(...separators)), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.map(([word, separator]) => `${word}${separator}`).join('').trim());
    fc.assert(
      fc.property(query, fc.subarray([...pageKinds], { minLength: 1 }), (text, kinds) => assertSameRanking(text, kinds)),
      { numRuns: 400 },
    );
  });
});

describe('the scorer on small indexes of random documents', () => {
  const fields = ['title', 'body'];
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const text = fc.array(fc.constantFrom(...words), { maxLength: 6 }).map((list) => list.join(' '));
  const documents = fc.array(fc.record({ title: text, body: text }), { minLength: 1, maxLength: 12 });
  const boosts = fc.constantFrom(0, 0.5, 1, 2, 100);

  test('same hits, order and scores, ties and repeated terms included', () => {
    fc.assert(
      fc.property(
        documents,
        fc.array(fc.constantFrom(...words, 'zeta'), { minLength: 1, maxLength: 5 }),
        fc.record({ title: fc.constantFrom(0.5, 1, 2), body: fc.constantFrom(0.2, 1, 3) }),
        fc.func(boosts),
        fc.func(boosts),
        fc.func(fc.boolean()),
        (list, terms, fieldBoosts, termBoost, documentBoost, accept) => {
          const engine = new MiniSearch({ fields, storeFields: [] });
          engine.addAll(list.map((document, id) => ({ id, ...document })));
          const data = engine.toJSON();
          const options: ScoringOptions = { fieldBoosts, termBoost: (term) => termBoost(term), documentBoost: (id) => documentBoost(id), accept: (id) => accept(id) };
          const scorer = new Bm25Scorer(data, fields);
          assert.deepStrictEqual(scorerRanking(scorer, terms, options), referenceRanking(MiniSearch.loadJS(data, { fields }), terms, options));
          // The scratch space of one query leaves nothing behind for the next.
          assert.deepStrictEqual(scorerRanking(scorer, [...terms].reverse(), options), referenceRanking(MiniSearch.loadJS(data, { fields }), [...terms].reverse(), options));
        },
      ),
      { numRuns: 500 },
    );
  });

  test('an index of another serialization is refused with a sentence', () => {
    const data = new MiniSearch({ fields }).toJSON();
    assert.throws(() => new Bm25Scorer({ ...data, serializationVersion: 1 }, fields), /serialization version 1, not 2: rebuild the site/);
  });
});
