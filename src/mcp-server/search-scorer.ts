import type { AsPlainObject } from 'minisearch';

/**
 * BM25 over the index MiniSearch writes (`toJSON()`), scored with MiniSearch's own arithmetic for
 * the options search_docs uses: terms joined by OR, each matched whole (no prefix, no fuzzy), a
 * boost per field, per term and per document, and a filter. A query through MiniSearch builds an
 * object for every passage each term meets and another for every result; this one works in typed
 * arrays made once when the index is loaded and reused by every query (a query runs to its end
 * without yielding, so one set per index is never shared by two).
 *
 * Scores and ties come out as MiniSearch's do because the sums are taken in its order: a term's
 * score for a passage is the sum over the fields, in `fields` order, of `1 * termBoost *
 * fieldBoost * documentBoost * bm25`; a passage's score is the sum of its terms' scores in query
 * order, times the number of the query's terms it holds; the ranking is by score, a tie going to
 * the passage met first (in term order, then field order, then posting order).
 */

/** MiniSearch's default BM25 parameters, which search_docs keeps. */
const bm25 = { k: 1.2, b: 0.7, d: 0.5 } as const;

/** How a query weighs and filters what it meets. */
export interface ScoringOptions {
  /** Each field's boost; a field not named counts 1, as in MiniSearch. */
  fieldBoosts: Readonly<Record<string, number>>;
  termBoost: (term: string) => number;
  /** A pure function of the document within one query: it is asked once per document a query meets. */
  documentBoost: (id: number) => number;
  /** Whether a document may be returned; asked once per document a query meets. */
  accept: (id: number) => boolean;
}

/**
 * The next stamp for slots stamped rather than cleared (a slot is current when its stamp is the
 * current one); when the stamps run out, the slots are cleared and they start again.
 */
export function nextStamp(stamp: number, stamps: Uint32Array): number {
  if (stamp < 0xffffffff) return stamp + 1;
  stamps.fill(0);
  return 1;
}

export class Bm25Scorer {
  private readonly fields: readonly string[];
  private readonly termNumbers = new Map<string, number>();
  /** The postings of term `t` in the field at position `f` of `fields` are at [starts[t * F + f], starts[t * F + f + 1]). */
  private readonly starts: Uint32Array;
  /** Each posting's document, as MiniSearch's short id, in the order MiniSearch keeps them. */
  private readonly postingDocuments: Uint32Array;
  private readonly postingFrequencies: Uint32Array;
  /** BM25's inverse document frequency of each term in each field (by `t * F + f`). */
  private readonly inverseFrequencies: Float64Array;
  /** BM25's length normalization, `k * (1 - b + b * length / averageLength)`, of each field (by `f * slots + shortId`). */
  private readonly lengthNorms: Float64Array;
  /** The id each short id was indexed with. */
  private readonly documentIds: Float64Array;
  private readonly slots: number;

  // Scratch space of one query, stamped rather than cleared: a slot is current when its stamp is the query's (or the term's).
  private queryStamp = 0;
  private termStamp = 0;
  private readonly metStamps: Uint32Array;
  private readonly termStamps: Uint32Array;
  private readonly boosts: Float64Array;
  private readonly accepted: Uint8Array;
  private readonly termScores: Float64Array;
  private readonly termDocuments: Uint32Array;
  private readonly totals: Float64Array;
  private readonly matchedTerms: Uint32Array;
  /** The documents a query met, in the order it first met them, then ranked in place. */
  private readonly ranked: Uint32Array;
  private readonly sortBuffer: Uint32Array;
  private readonly fieldWeights: Float64Array;

  constructor(data: AsPlainObject, fields: readonly string[]) {
    if (data.serializationVersion !== 2) throw new Error(`The search index's engine data is of serialization version ${String(data.serializationVersion)}, not 2: rebuild the site (npm run build).`);
    this.fields = fields;
    const fieldCount = fields.length;
    const shortIds = Object.keys(data.documentIds).map((key) => Number.parseInt(key, 10));
    this.slots = shortIds.reduce((slots, shortId) => Math.max(slots, shortId + 1), Math.max(data.nextId, 0));
    this.documentIds = new Float64Array(this.slots).fill(Number.NaN);
    for (const shortId of shortIds) {
      const id: unknown = data.documentIds[shortId];
      if (typeof id !== 'number') throw new Error(`The search index names document ${String(shortId)} by ${JSON.stringify(id)}, not by a number.`);
      this.documentIds[shortId] = id;
    }
    const fieldIdsInOrder = fields.map((field) => (Object.hasOwn(data.fieldIds, field) ? data.fieldIds[field] : undefined));
    this.lengthNorms = new Float64Array(fieldCount * this.slots);
    for (const shortId of shortIds) {
      const lengths = data.fieldLength[shortId] ?? [];
      fieldIdsInOrder.forEach((fieldId, position) => {
        if (fieldId === undefined) return;
        const averageLength = data.averageFieldLength[fieldId] ?? Number.NaN;
        this.lengthNorms[position * this.slots + shortId] = bm25.k * (1 - bm25.b + (bm25.b * (lengths[fieldId] ?? Number.NaN)) / averageLength);
      });
    }
    // The postings in MiniSearch's order: a field's documents as `Object.keys` lists them, which is how `loadJS` reads them.
    const postingsOf = (entries: AsPlainObject['index'][number][1], position: number) => {
      const fieldId = fieldIdsInOrder[position];
      if (fieldId === undefined || !Object.hasOwn(entries, fieldId)) return undefined;
      return entries[fieldId];
    };
    let postingCount = 0;
    for (const [, entries] of data.index) for (let position = 0; position < fieldCount; position++) postingCount += Object.keys(postingsOf(entries, position) ?? {}).length;
    this.starts = new Uint32Array(data.index.length * fieldCount + 1);
    this.postingDocuments = new Uint32Array(postingCount);
    this.postingFrequencies = new Uint32Array(postingCount);
    this.inverseFrequencies = new Float64Array(data.index.length * fieldCount);
    let at = 0;
    data.index.forEach(([term, entries], termNumber) => {
      this.termNumbers.set(term, termNumber);
      for (let position = 0; position < fieldCount; position++) {
        const slot = termNumber * fieldCount + position;
        this.starts[slot] = at;
        const frequencies = postingsOf(entries, position) ?? {};
        const documents = Object.keys(frequencies);
        for (const key of documents) {
          const shortId = Number.parseInt(key, 10);
          if (!(shortId < this.slots) || Number.isNaN(this.documentIds[shortId] ?? Number.NaN)) throw new Error(`The search index's term "${term}" names document ${key}, which it does not hold: rebuild the site (npm run build).`);
          this.postingDocuments[at] = shortId;
          this.postingFrequencies[at] = frequencies[key] ?? 0;
          at++;
        }
        const matching = documents.length;
        this.inverseFrequencies[slot] = Math.log(1 + (data.documentCount - matching + 0.5) / (matching + 0.5));
      }
    });
    this.starts[data.index.length * fieldCount] = at;

    this.metStamps = new Uint32Array(this.slots);
    this.termStamps = new Uint32Array(this.slots);
    this.boosts = new Float64Array(this.slots);
    this.accepted = new Uint8Array(this.slots);
    this.termScores = new Float64Array(this.slots);
    this.termDocuments = new Uint32Array(this.slots);
    this.totals = new Float64Array(this.slots);
    this.matchedTerms = new Uint32Array(this.slots);
    this.ranked = new Uint32Array(this.slots);
    this.sortBuffer = new Uint32Array(this.slots);
    this.fieldWeights = new Float64Array(fieldCount);
  }

  /**
   * Ranks the documents that hold one at least of `terms`, exactly as MiniSearch's `search` of the
   * same terms with the same options (OR, no prefix, no fuzzy) does, and says how many there are:
   * the one at each rank is read with `idAt` and `scoreAt` until the next query.
   */
  rank(terms: readonly string[], options: ScoringOptions): number {
    const fieldCount = this.fields.length;
    const { k, d } = bm25;
    const kPlusOne = k + 1;
    this.queryStamp = nextStamp(this.queryStamp, this.metStamps);
    const queryStamp = this.queryStamp;
    for (let position = 0; position < fieldCount; position++) {
      const field = this.fields[position] ?? '';
      this.fieldWeights[position] = (Object.hasOwn(options.fieldBoosts, field) ? options.fieldBoosts[field] : undefined) || 1;
    }
    let metCount = 0;
    for (let termPosition = 0; termPosition < terms.length; termPosition++) {
      const term = terms[termPosition] ?? '';
      const termNumber = this.termNumbers.get(term);
      if (termNumber === undefined) continue;
      // A term said twice is scored twice, as MiniSearch does, but counts once among the terms a document holds.
      const repeated = terms.indexOf(term) < termPosition;
      const termBoost = options.termBoost(term);
      this.termStamp = nextStamp(this.termStamp, this.termStamps);
      const termStamp = this.termStamp;
      let termMetCount = 0;
      for (let position = 0; position < fieldCount; position++) {
        const slot = termNumber * fieldCount + position;
        const start = this.starts[slot] ?? 0;
        const end = this.starts[slot + 1] ?? 0;
        if (start === end) continue;
        const inverseFrequency = this.inverseFrequencies[slot] ?? 0;
        const weight = 1 * termBoost * (this.fieldWeights[position] ?? 1);
        const normsAt = position * this.slots;
        for (let posting = start; posting < end; posting++) {
          const shortId = this.postingDocuments[posting] ?? 0;
          if (this.metStamps[shortId] !== queryStamp) {
            // First met in this query: its boost and whether it is accepted, asked once.
            this.metStamps[shortId] = queryStamp;
            const id = this.documentIds[shortId] ?? 0;
            this.boosts[shortId] = options.documentBoost(id);
            this.accepted[shortId] = options.accept(id) ? 1 : 0;
            this.matchedTerms[shortId] = 0;
          }
          if (this.accepted[shortId] === 0) continue;
          const documentBoost = this.boosts[shortId] ?? 0;
          if (!documentBoost) continue;
          const frequency = this.postingFrequencies[posting] ?? 0;
          const score = inverseFrequency * (d + (frequency * kPlusOne) / (frequency + (this.lengthNorms[normsAt + shortId] ?? 0)));
          const weighted = weight * documentBoost * score;
          if (this.termStamps[shortId] === termStamp) this.termScores[shortId] = (this.termScores[shortId] ?? 0) + weighted;
          else {
            this.termStamps[shortId] = termStamp;
            this.termScores[shortId] = weighted;
            this.termDocuments[termMetCount++] = shortId;
          }
        }
      }
      for (let at = 0; at < termMetCount; at++) {
        const shortId = this.termDocuments[at] ?? 0;
        if (this.matchedTerms[shortId] === 0) {
          this.totals[shortId] = this.termScores[shortId] ?? 0;
          this.matchedTerms[shortId] = 1;
          this.ranked[metCount++] = shortId;
        } else {
          this.totals[shortId] = (this.totals[shortId] ?? 0) + (this.termScores[shortId] ?? 0);
          if (!repeated) this.matchedTerms[shortId] = (this.matchedTerms[shortId] ?? 0) + 1;
        }
      }
    }
    for (let at = 0; at < metCount; at++) {
      const shortId = this.ranked[at] ?? 0;
      this.totals[shortId] = (this.totals[shortId] ?? 0) * (this.matchedTerms[shortId] ?? 1);
    }
    this.sortRanked(metCount);
    return metCount;
  }

  /**
   * Sorts the first `count` documents of `ranked` by score, highest first, a tie kept in the order
   * they were met: what MiniSearch's stable sort by `b.score - a.score` gives. A merge sort through
   * a buffer of the index's size, since the built-in sort with a comparator allocates a number for
   * each comparison and copies of the array.
   */
  private sortRanked(count: number): void {
    const totals = this.totals;
    let from = this.ranked;
    let to = this.sortBuffer;
    for (let width = 1; width < count; width *= 2) {
      for (let left = 0; left < count; left += 2 * width) {
        const middle = Math.min(left + width, count);
        const right = Math.min(left + 2 * width, count);
        let fromLeft = left;
        let fromRight = middle;
        let out = left;
        while (fromLeft < middle && fromRight < right) {
          const leftDocument = from[fromLeft] ?? 0;
          const rightDocument = from[fromRight] ?? 0;
          // Only a strictly higher score passes one met earlier: a tie keeps the left run's first.
          if ((totals[rightDocument] ?? 0) > (totals[leftDocument] ?? 0)) {
            to[out++] = rightDocument;
            fromRight++;
          } else {
            to[out++] = leftDocument;
            fromLeft++;
          }
        }
        while (fromLeft < middle) to[out++] = from[fromLeft++] ?? 0;
        while (fromRight < right) to[out++] = from[fromRight++] ?? 0;
      }
      const sorted = to;
      to = from;
      from = sorted;
    }
    if (from !== this.ranked) for (let at = 0; at < count; at++) this.ranked[at] = from[at] ?? 0;
  }

  /** The id, as it was indexed, of the document at a rank of the last query. */
  idAt(rank: number): number {
    return this.documentIds[this.ranked[rank] ?? 0] ?? Number.NaN;
  }

  /** The score of the document at a rank of the last query. */
  scoreAt(rank: number): number {
    return this.totals[this.ranked[rank] ?? 0] ?? Number.NaN;
  }
}
