import MiniSearch from 'minisearch';
import { splitWords } from '../prompt/index.js';
import type { WorkspaceIndex } from './workspace-index-file.js';

/** A chunk of the index that matched a query. */
export interface RankedChunk {
  /** Workspace-relative path of its file. */
  readonly path: string;
  /** First line, 1-based. */
  readonly start: number;
  /** Last line, 1-based. */
  readonly end: number;
  /** Its text. */
  readonly text: string;
  /**
   * How well it matches: cosine similarity with the query (-1 to 1) when ranked by meaning;
   * the lexical score relative to the best match (1) otherwise.
   */
  readonly score: number;
}

/** Longest word indexed or searched; longer runs of letters are not words of any text. */
const MAX_TERM_CHARS = 64;
/** Words of a query searched at most. */
const MAX_QUERY_TERMS = 32;

const processTerm = (term: string): string | null =>
  term.length > MAX_TERM_CHARS ? null : term.toLowerCase();

interface LexicalDocument {
  readonly id: number;
  readonly path: string;
  readonly text: string;
}

/** Ranks the chunks of one index lexically. */
export type LexicalRanker = (query: string, topK: number, minScore: number) => RankedChunk[];

/**
 * A lexical ranker over the index's chunk texts and paths (MiniSearch's BM25, words split at
 * punctuation and camelCase, with prefix matching from 3 letters and one or two letters of
 * difference from 5, a hit in the path counting double). It matches words, not meaning.
 * Build it once per index: it indexes every chunk.
 */
export function lexicalRanker(index: WorkspaceIndex): LexicalRanker {
  const chunks = [...index.files.values()].flatMap((file) =>
    file.chunks.map((chunk) => ({ path: file.path, ...chunk })),
  );
  const search = new MiniSearch<LexicalDocument>({
    fields: ['path', 'text'],
    tokenize: splitWords,
    processTerm,
    searchOptions: {
      boost: { path: 2 },
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      maxFuzzy: 2,
      combineWith: 'OR',
      tokenize: (query) => [...new Set(splitWords(query))].slice(0, MAX_QUERY_TERMS),
    },
  });
  search.addAll(chunks.map((chunk, id) => ({ id, path: chunk.path, text: chunk.text })));
  return (query, topK, minScore) => {
    const hits = search.search(query);
    const best = hits[0]?.score ?? 0;
    return hits
      .map((hit) => {
        const chunk = chunks[hit.id as number] as (typeof chunks)[number];
        return {
          path: chunk.path,
          start: chunk.start,
          end: chunk.end,
          text: chunk.text,
          score: hit.score / best,
        };
      })
      .filter((hit) => hit.score >= minScore)
      .slice(0, topK);
  };
}

/**
 * The chunks of the index ranked by cosine similarity of their vectors to the query's
 * vector, best first: by meaning, whatever words they use.
 */
export function rankBySimilarity(
  index: WorkspaceIndex,
  query: Float32Array,
  topK: number,
  minScore: number,
): RankedChunk[] {
  let queryNorm = 0;
  for (const value of query) queryNorm += value * value;
  queryNorm = Math.sqrt(queryNorm);
  const ranked: RankedChunk[] = [];
  for (const file of index.files.values()) {
    for (const chunk of file.chunks) {
      const vector = chunk.vector;
      if (vector === undefined || vector.length !== query.length) continue;
      let dot = 0;
      let norm = 0;
      for (let i = 0; i < vector.length; i += 1) {
        const value = vector[i] as number;
        dot += value * (query[i] as number);
        norm += value * value;
      }
      const score = norm === 0 || queryNorm === 0 ? 0 : dot / (Math.sqrt(norm) * queryNorm);
      if (score >= minScore) {
        ranked.push({
          path: file.path,
          start: chunk.start,
          end: chunk.end,
          text: chunk.text,
          score,
        });
      }
    }
  }
  ranked.sort((a, b) => b.score - a.score);
  return ranked.slice(0, topK);
}
