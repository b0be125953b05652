import type MiniSearch from 'minisearch';

/** The matches of one query word: positions in the catalog and their scores. */
export interface TermHits {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
}

/** Per field, per document, how often a term occurs (MiniSearch's own index entry). */
type FieldTermData = ReadonlyMap<number, ReadonlyMap<number, number>>;

/** The parts of a MiniSearch instance (7.x) a word's scores are computed from. */
interface MiniSearchInternals {
  readonly _index: {
    get(term: string): FieldTermData | undefined;
    atPrefix(term: string): Iterable<[string, FieldTermData]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
    entries(): Iterable<[string, FieldTermData]>;
  };
  readonly _fieldIds: Readonly<Record<string, number>>;
  readonly _fieldLength: ReadonlyMap<number, readonly number[]>;
  readonly _avgFieldLength: readonly number[];
  readonly _documentCount: number;
  readonly _documentIds: ReadonlyMap<number, unknown>;
}

/** How {@link termScorer} searches a word; the same settings the MiniSearch was made with. */
export interface TermScorerOptions {
  /** Boost of each field, in the order MiniSearch scores them (its `fields`). */
  readonly boosts: Readonly<Record<string, number>>;
  /** Whether a term also matches the longer terms it begins. */
  readonly prefix: (term: string) => boolean;
  /** Fuzzy matching: a fraction of the term's length (rounded), or false. */
  readonly fuzzy: (term: string) => number | false;
}

// MiniSearch 7's defaults: BM25 parameters, derived-term weights, largest fuzzy distance.
const K = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

/** One term's postings, field by field: document position, field boost, BM25 score. */
interface Postings {
  readonly ids: Int32Array;
  /** Position of the field in `boosts`. */
  readonly fields: Uint8Array;
  readonly raw: Float64Array;
}

/** Whether `miniSearch` has the parts {@link termScorer} reads (MiniSearch 7.x). */
function internalsOf<T>(miniSearch: MiniSearch<T>): MiniSearchInternals | undefined {
  const inner = miniSearch as unknown as Partial<MiniSearchInternals>;
  const index = inner._index;
  return index !== undefined &&
    typeof index.get === 'function' &&
    typeof index.atPrefix === 'function' &&
    typeof index.fuzzyGet === 'function' &&
    typeof index.entries === 'function' &&
    typeof inner._fieldIds === 'object' &&
    inner._fieldLength instanceof Map &&
    Array.isArray(inner._avgFieldLength) &&
    typeof inner._documentCount === 'number' &&
    inner._documentIds instanceof Map
    ? (inner as MiniSearchInternals)
    : undefined;
}

/**
 * Scores of one processed query word as `miniSearch.search(word)` gives them with the
 * options it was made with (exact, prefix and fuzzy matches, BM25 per field, boosts,
 * `combineWith: 'OR'`), to the last bit: the same products summed in the same order.
 * Every indexed term's postings (document, field, BM25 score) are computed up front, so a
 * word never searched before costs a walk of the term tree and a sum over its matches,
 * without MiniSearch's per-match objects. The index must not change afterwards. Falls back to `miniSearch.search` when the MiniSearch is not one whose index it
 * knows.
 */
export function termScorer<T>(
  miniSearch: MiniSearch<T>,
  options: TermScorerOptions,
): (term: string) => TermHits {
  const inner = internalsOf(miniSearch);
  if (inner === undefined) {
    return (term) => {
      const results = miniSearch.search(term);
      return {
        ids: Int32Array.from(results, (hit) => hit.id as number),
        scores: Float64Array.from(results, (hit) => hit.score),
      };
    };
  }
  const fields = Object.keys(options.boosts);
  const boosts = Float64Array.from(fields, (field) => options.boosts[field] as number);
  const postings = (data: FieldTermData): Postings => {
    const ids: number[] = [];
    const at: number[] = [];
    const raw: number[] = [];
    for (const [position, field] of fields.entries()) {
      const fieldId = inner._fieldIds[field] as number;
      const frequencies = data.get(fieldId);
      if (frequencies === undefined) continue;
      const matching = frequencies.size;
      const average = inner._avgFieldLength[fieldId] as number;
      const total = inner._documentCount;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (const [docId, frequency] of frequencies) {
        const length = inner._fieldLength.get(docId)?.[fieldId] as number;
        ids.push(inner._documentIds.get(docId) as number);
        at.push(position);
        raw.push(
          idf * (D + (frequency * (K + 1)) / (frequency + K * (1 - B + (B * length) / average))),
        );
      }
    }
    return { ids: Int32Array.from(ids), fields: Uint8Array.from(at), raw: Float64Array.from(raw) };
  };
  // Every term's postings now, so that no query pays for them.
  const postingsOf = new Map<string, Postings>();
  for (const [term, data] of inner._index.entries()) postingsOf.set(term, postings(data));
  const size = inner._documentCount;
  const scores = new Float64Array(size);
  const hit = new Uint8Array(size);
  return (term) => {
    const touched: number[] = [];
    const add = (derived: string, weight: number): void => {
      const kept = postingsOf.get(derived);
      if (kept === undefined) return;
      const { ids, fields: at, raw } = kept;
      for (let i = 0; i < ids.length; i += 1) {
        const id = ids[i] as number;
        // As MiniSearch: termWeight * termBoost (1) * fieldBoost * docBoost (1) * rawScore.
        const score = weight * (boosts[at[i] as number] as number) * (raw[i] as number);
        if (hit[id] === 0) {
          hit[id] = 1;
          touched.push(id);
          scores[id] = score;
        } else scores[id] = (scores[id] as number) + score;
      }
    };
    add(term, 1);
    const fuzzy = options.fuzzy(term);
    const maxDistance = fuzzy === false ? 0 : Math.min(MAX_FUZZY, Math.round(term.length * fuzzy));
    const fuzzyMatches = maxDistance > 0 ? inner._index.fuzzyGet(term, maxDistance) : undefined;
    if (options.prefix(term)) {
      for (const [derived] of inner._index.atPrefix(term)) {
        const distance = derived.length - term.length;
        if (distance === 0) continue;
        fuzzyMatches?.delete(derived);
        add(derived, (PREFIX_WEIGHT * derived.length) / (derived.length + 0.3 * distance));
      }
    }
    if (fuzzyMatches !== undefined) {
      for (const [derived, [, distance]] of fuzzyMatches) {
        if (distance === 0) continue;
        add(derived, (FUZZY_WEIGHT * derived.length) / (derived.length + distance));
      }
    }
    const ids = Int32Array.from(touched);
    const out = Float64Array.from(touched, (id) => scores[id] as number);
    for (const id of touched) hit[id] = 0;
    return { ids, scores: out };
  };
}
