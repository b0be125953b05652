import MiniSearch from 'minisearch';
import type { ToolClass } from '../tool/index.js';
import { isPlainObject } from '../tool/index.js';
import {
  checkPromptTools,
  compareCodeUnits,
  type PromptTool,
  promptToolClass,
} from './prompt-tool.js';
import { type TermHits, termScorer } from './term-scorer.js';

/** A tool's searchable text; `id` is its position in the catalog. */
interface SearchDocument {
  readonly id: number;
  readonly name: string;
  readonly title: string;
  readonly parameters: string;
  readonly parameterDescriptions: string;
  readonly description: string;
}

/** Field boosts: a hit in the name counts most, one in a parameter's description least. */
const BOOSTS = {
  name: 4,
  title: 3,
  parameters: 2,
  description: 1,
  parameterDescriptions: 0.5,
} as const;

const FIELDS = Object.keys(BOOSTS) as (keyof typeof BOOSTS)[];

/** How a query word matches. */
const SEARCH = {
  boosts: BOOSTS,
  // Short fragments would prefix-match half the catalog and fuzzy-match the rest.
  prefix: (term: string) => term.length >= 3,
  fuzzy: (term: string) => (term.length >= 5 ? 0.2 : false),
} as const;

// Words that carry no intent in a request ("what's my bank balance"); matching them would
// rank tools by how chatty their descriptions are.
const STOP_WORDS = new Set(
  (
    'a about all an and any are as at be by can could did do does for from get give has have ' +
    'how i in into is it its me my of on or our please s show that the their them then there ' +
    'these this to us was we what when where which who will with would you your'
  ).split(' '),
);

const WORD_SEPARATORS = /[\s\p{P}\p{S}]+/u;

/**
 * Splits text into words: on whitespace, punctuation and symbols (so `snake_case`,
 * `dotted.names` and `kebab-case` come apart) and on camelCase boundaries.
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(WORD_SEPARATORS)
    .filter((word) => word !== '');
}

/**
 * Lower-cases a word, drops stop words and reduces a plural to its singular in a crude but
 * symmetric way (index and query go through the same function): `balances` -> `balance`,
 * `categories` -> `category`.
 */
function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (STOP_WORDS.has(word)) return null;
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) {
    return word.slice(0, -1);
  }
  return word;
}

function parameterText(schema: PromptTool['inputSchema']): { names: string; descriptions: string } {
  const properties = schema?.properties;
  if (!isPlainObject(properties)) return { names: '', descriptions: '' };
  const names: string[] = [];
  const descriptions: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    names.push(name);
    if (isPlainObject(property) && typeof property.description === 'string') {
      descriptions.push(property.description);
    }
  }
  return { names: names.join(' '), descriptions: descriptions.join('\n') };
}

function toDocument(tool: PromptTool, id: number): SearchDocument {
  const parameters = parameterText(tool.inputSchema);
  return {
    id,
    name: tool.name,
    title: tool.title ?? tool.annotations?.title ?? '',
    parameters: parameters.names,
    parameterDescriptions: parameters.descriptions,
    description: tool.description,
  };
}

/** A full-text index over one catalog. */
export interface ToolSearchIndex {
  /**
   * Positions in the catalog of the `count` best tools for `query` among those `allowed`
   * says yes to, best first: highest score, then name (UTF-16 code units). Tools that match
   * no word of the query are not returned.
   */
  rank(query: string, count: number, allowed: (id: number) => boolean): number[];
  /** Whether `query` has any searchable word once stop words are removed. */
  hasTerms(query: string): boolean;
  /** The effective class of each tool, by position. */
  readonly classes: readonly ToolClass[];
  /** Position of each tool by name. */
  readonly positions: ReadonlyMap<string, number>;
  /** Positions of the tools in order of their names (UTF-16 code units). */
  readonly byName: readonly number[];
}

interface CacheEntry {
  /** The catalog's elements when the index was built, to notice an array changed in place. */
  readonly snapshot: readonly PromptTool[];
  readonly index: ToolSearchIndex;
}

const cache = new WeakMap<readonly PromptTool[], CacheEntry>();

function sameElements(a: readonly PromptTool[], b: readonly PromptTool[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool === b[i]);
}

/** Query words whose matches are kept, most recent last. */
const WORDS_KEPT = 4096;

/**
 * Ranks a query as MiniSearch scores it with `combineWith: 'OR'` (the sum of each word's
 * scores, times the number of distinct words a tool matched), from each word's matches found
 * once and kept (`termScorer`): a query costs the matches of its words, in typed arrays,
 * without an object per match, a sort of every match, or a search again for a word seen
 * before. The best `count` are kept in a bounded heap as the matches are summed up.
 * `nameRank` is each tool's place in name order, for ties.
 */
function ranker(
  miniSearch: MiniSearch<SearchDocument>,
  nameRank: Int32Array,
): ToolSearchIndex['rank'] {
  const size = nameRank.length;
  const kept = new Map<string, TermHits>();
  const scoreTerm = termScorer(miniSearch, SEARCH);
  const hitsOf = (term: string): TermHits => {
    let hits = kept.get(term);
    if (hits === undefined) {
      hits = scoreTerm(term);
      if (kept.size >= WORDS_KEPT) kept.delete(kept.keys().next().value as string);
    } else kept.delete(term);
    kept.set(term, hits);
    return hits;
  };
  const scores = new Float64Array(size);
  const matched = new Uint32Array(size);
  const touched = new Int32Array(size);
  return (query, count, allowed) => {
    let touchedCount = 0;
    const seen = new Set<string>();
    for (const word of splitWords(query)) {
      const term = processTerm(word);
      if (term === null) continue;
      const first = !seen.has(term);
      seen.add(term);
      const { ids, scores: wordScores } = hitsOf(term);
      for (let at = 0; at < ids.length; at += 1) {
        const id = ids[at] as number;
        if (matched[id] === 0) {
          touched[touchedCount] = id;
          touchedCount += 1;
        }
        scores[id] = (scores[id] as number) + (wordScores[at] as number);
        if (first) matched[id] = (matched[id] as number) + 1;
        else if (matched[id] === 0) matched[id] = 1;
      }
    }
    const top = new TopTools(Math.min(count, touchedCount), nameRank);
    for (let at = 0; at < touchedCount; at += 1) {
      const id = touched[at] as number;
      const score = (scores[id] as number) * (matched[id] as number);
      scores[id] = 0;
      matched[id] = 0;
      if (top.admits(id, score) && allowed(id)) top.add(id, score);
    }
    return top.best();
  };
}

/**
 * The best tools seen so far, at most `capacity`: a heap whose root is the worst kept (lowest
 * score, then last by name), so that a tool worse than it costs one comparison.
 */
class TopTools {
  readonly #ids: Int32Array;
  readonly #scores: Float64Array;
  readonly #capacity: number;
  readonly #nameRank: Int32Array;
  #size = 0;

  constructor(capacity: number, nameRank: Int32Array) {
    this.#capacity = capacity;
    this.#ids = new Int32Array(capacity);
    this.#scores = new Float64Array(capacity);
    this.#nameRank = nameRank;
  }

  /** Whether `a` ranks below `b`: a lower score, or an equal one and a later name. */
  #worse(a: number, aScore: number, b: number, bScore: number): boolean {
    return (
      aScore < bScore ||
      (aScore === bScore && (this.#nameRank[a] as number) > (this.#nameRank[b] as number))
    );
  }

  /** Whether a tool with this score would be kept. */
  admits(id: number, score: number): boolean {
    if (this.#size < this.#capacity) return true;
    if (this.#capacity === 0) return false;
    return this.#worse(this.#ids[0] as number, this.#scores[0] as number, id, score);
  }

  /** Keeps the tool (after `admits` said yes), dropping the worst when full. */
  add(id: number, score: number): void {
    const ids = this.#ids;
    const scores = this.#scores;
    let at: number;
    if (this.#size < this.#capacity) {
      at = this.#size;
      this.#size += 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.#worse(id, score, ids[parent] as number, scores[parent] as number)) break;
        ids[at] = ids[parent] as number;
        scores[at] = scores[parent] as number;
        at = parent;
      }
    } else {
      at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= this.#size) break;
        const right = left + 1;
        const child =
          right < this.#size &&
          this.#worse(
            ids[right] as number,
            scores[right] as number,
            ids[left] as number,
            scores[left] as number,
          )
            ? right
            : left;
        if (!this.#worse(ids[child] as number, scores[child] as number, id, score)) break;
        ids[at] = ids[child] as number;
        scores[at] = scores[child] as number;
        at = child;
      }
    }
    ids[at] = id;
    scores[at] = score;
  }

  /** The kept tools, best first. */
  best(): number[] {
    const order = Array.from(this.#ids.subarray(0, this.#size).keys());
    order.sort((a, b) =>
      this.#worse(
        this.#ids[a] as number,
        this.#scores[a] as number,
        this.#ids[b] as number,
        this.#scores[b] as number,
      )
        ? 1
        : -1,
    );
    return order.map((at) => this.#ids[at] as number);
  }
}

function buildIndex(tools: readonly PromptTool[]): ToolSearchIndex {
  const miniSearch = new MiniSearch<SearchDocument>({
    fields: FIELDS,
    tokenize: splitWords,
    processTerm,
    searchOptions: {
      boost: BOOSTS,
      prefix: SEARCH.prefix,
      fuzzy: SEARCH.fuzzy,
      combineWith: 'OR',
    },
  });
  miniSearch.addAll(tools.map(toDocument));
  const positions = new Map(tools.map((tool, id) => [tool.name, id]));
  const byName = [...positions.values()].sort((a, b) =>
    compareCodeUnits(tools[a]?.name ?? '', tools[b]?.name ?? ''),
  );
  const nameRank = new Int32Array(tools.length);
  byName.forEach((id, rank) => {
    nameRank[id] = rank;
  });
  return {
    classes: tools.map(promptToolClass),
    positions,
    byName,
    rank: ranker(miniSearch, nameRank),
    hasTerms: (query) => splitWords(query).some((word) => processTerm(word) !== null),
  };
}

/**
 * The search index of a catalog, built on first use and cached per array (a `WeakMap`, so it
 * goes when the array does). An array whose elements changed since is checked (as
 * `checkPromptTools` does, errors naming `where`) and indexed again; an indexed one is not
 * checked again, so that a query costs what its matches cost, not the catalog's size.
 */
export function toolSearchIndex(tools: readonly PromptTool[], where: string): ToolSearchIndex {
  const cached = cache.get(tools);
  if (cached !== undefined && sameElements(cached.snapshot, tools)) return cached.index;
  checkPromptTools(tools, where);
  const index = buildIndex(tools);
  cache.set(tools, { snapshot: [...tools], index });
  return index;
}
