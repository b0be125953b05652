import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { CATALOG } from './catalog.test-helpers.js';
import { termScorer } from './term-scorer.js';

const BOOSTS = { name: 4, title: 3, description: 1 } as const;
const SEARCH = {
  boosts: BOOSTS,
  prefix: (term: string) => term.length >= 3,
  fuzzy: (term: string) => (term.length >= 5 ? 0.2 : false),
} as const;

interface Doc {
  readonly id: number;
  readonly name: string;
  readonly title: string;
  readonly description: string;
}

/** The 40-tool catalog, then generated tools reusing its words (many shared matches). */
function documents(): Doc[] {
  const docs: Doc[] = CATALOG.map((tool, id) => ({
    id,
    name: tool.name.replaceAll('_', ' '),
    title: tool.title ?? '',
    description: tool.description,
  }));
  const words = docs.flatMap((doc) => doc.description.toLowerCase().split(/\W+/)).filter(Boolean);
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed;
  };
  const pick = (count: number): string =>
    Array.from({ length: count }, () => words[next() % words.length]).join(' ');
  for (let id = docs.length; id < 600; id += 1) {
    docs.push({ id, name: pick(2), title: pick(3), description: pick(5 + (next() % 20)) });
  }
  return docs;
}

function build(docs: readonly Doc[]): MiniSearch<Doc> {
  const miniSearch = new MiniSearch<Doc>({
    fields: Object.keys(BOOSTS),
    processTerm: (term) => term.toLowerCase(),
    searchOptions: { boost: BOOSTS, prefix: SEARCH.prefix, fuzzy: SEARCH.fuzzy, combineWith: 'OR' },
  });
  miniSearch.addAll(docs);
  return miniSearch;
}

/** Words to try: every indexed word, its prefixes, and one-letter typos of it. */
function probes(docs: readonly Doc[]): string[] {
  const vocabulary = new Set(
    docs.flatMap((doc) =>
      `${doc.name} ${doc.title} ${doc.description}`.toLowerCase().split(/\W+/).filter(Boolean),
    ),
  );
  const out = new Set<string>(['zzzz', 'nothingmatches', 'invoce', 'custmer']);
  for (const word of vocabulary) {
    out.add(word);
    if (word.length > 4) out.add(word.slice(0, 3));
    if (word.length > 5) {
      out.add(`${word.slice(0, 2)}x${word.slice(3)}`);
      out.add(word.slice(1));
    }
  }
  return [...out];
}

describe('termScorer', () => {
  it('scores each word exactly as MiniSearch does (same ids, bit-identical scores)', () => {
    const docs = documents();
    const miniSearch = build(docs);
    const score = termScorer(miniSearch, SEARCH);
    const words = probes(docs);
    expect(words.length).toBeGreaterThan(300);
    let matchedSome = 0;
    for (const word of words) {
      const expected = new Map(miniSearch.search(word).map((hit) => [hit.id as number, hit.score]));
      const hits = score(word);
      const actual = new Map(Array.from(hits.ids, (id, at) => [id, hits.scores[at]]));
      expect(actual, word).toEqual(expected);
      // Asked again (its postings kept), the same.
      expect(Array.from(score(word).scores)).toEqual(Array.from(hits.scores));
      if (expected.size > 0) matchedSome += 1;
    }
    expect(matchedSome).toBeGreaterThan(300);
  });

  it('falls back to MiniSearch itself when its index is not the one it knows', () => {
    const docs = documents().slice(0, 40);
    const miniSearch = build(docs);
    // Only the public API: another MiniSearch version, say.
    const stranger = { search: (word: string) => miniSearch.search(word) } as MiniSearch<Doc>;
    const hits = termScorer(stranger, SEARCH)('customer');
    const expected = miniSearch.search('customer');
    expect(Array.from(hits.ids)).toEqual(expected.map((hit) => hit.id));
    expect(Array.from(hits.scores)).toEqual(expected.map((hit) => hit.score));
  });
});
