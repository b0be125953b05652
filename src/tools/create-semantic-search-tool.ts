import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult, Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import {
  type LexicalRanker,
  lexicalRanker,
  type RankedChunk,
  rankBySimilarity,
} from './rank-index-chunks.js';
import { resolveEmbedder } from './resolve-embedder.js';
import { resolveInWorkspace } from './resolve-in-workspace.js';
import {
  INDEX_DIRECTORY,
  readWorkspaceIndex,
  type WorkspaceIndex,
  workspaceIndexVersion,
} from './workspace-index-file.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type SearchArgs = { query: string; topK?: number; minScore?: number };

/** Characters of a chunk shown per result. */
export const MAX_RESULT_CHARS = 800;
/** Results one search returns at most. */
export const MAX_TOP_K = 20;

const inputSchema = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'What to look for, in natural language, e.g. "where are approvals remembered".',
    },
    topK: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_TOP_K,
      description: `Most results returned. Default 5, at most ${MAX_TOP_K}.`,
    },
    minScore: {
      type: 'number',
      minimum: -1,
      maximum: 1,
      description:
        'Leave out weaker matches: cosine similarity when ranked by meaning, the score relative to the best match otherwise. Default 0.',
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/** The index as last read, with its lexical ranker once built. */
interface Loaded {
  readonly version: string;
  readonly index: WorkspaceIndex;
  lexical?: LexicalRanker;
}

const shown = (text: string): string =>
  text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}…` : text;

/**
 * `semantic_search`: the chunks of the workspace index (see `index_workspace`) that best
 * match a query, with their paths, lines, scores and text. With an `embedder` the query is
 * embedded and chunks are ranked by cosine similarity, so a chunk is found by what it says
 * whatever words it uses; without one the ranking is lexical (BM25 with prefix and fuzzy
 * matching) and the reply says so. Results from files changed since they were indexed are
 * marked. Read-only and idempotent; open world when the embedder may send the query
 * outside this machine. Resource key `file:.hintgate/index`: a search waits for an earlier
 * `index_workspace` and runs alongside writes of other files.
 */
export function createSemanticSearchTool(options: WorkspaceToolsOptions): Tool {
  const resolved = resolveWorkspaceToolsOptions(options);
  const { workspace } = resolved;
  const embedder = resolveEmbedder(resolved.embedder);
  let loaded: Loaded | undefined;

  const load = async (root: string): Promise<Loaded> => {
    const version = await workspaceIndexVersion(root);
    if (version !== undefined && loaded?.version === version) return loaded;
    const read = await readWorkspaceIndex(root);
    if (read.status === 'missing') {
      throw new Error(
        'The workspace has no index yet. Call index_workspace first (it indexes every text file once, and later only the files that changed), then search again.',
      );
    }
    if (read.status === 'unreadable') {
      throw new Error(
        `The workspace index cannot be read (${read.reason}). Call index_workspace to build it again.`,
      );
    }
    loaded = { version: read.version, index: read.index };
    return loaded;
  };

  const changedSince = async (
    root: string,
    index: WorkspaceIndex,
    path: string,
  ): Promise<boolean> => {
    const file = index.files.get(path);
    const stats = await lstat(join(root, path)).catch(() => undefined);
    return (
      stats === undefined ||
      file === undefined ||
      stats.mtimeMs !== file.mtimeMs ||
      stats.size !== file.size
    );
  };

  return defineTool({
    name: 'semantic_search',
    title: 'Semantic search',
    description: `Search the indexed workspace for the passages that best match a question in natural language; returns file paths, line ranges, scores and text. ${embedder === undefined ? 'Ranking is lexical here (matching words, prefixes and near spellings), so use the words the code or docs would use.' : 'Ranking is by meaning, so the words need not match.'} Call index_workspace first, and again after changing files.`,
    annotations: {
      title: 'Semantic search',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: embedder !== undefined && !embedder.local,
    },
    inputSchema,
    resources: () => [`file:${INDEX_DIRECTORY}`],
    execute: async (args, { signal }): Promise<CallToolResult> => {
      const { query, topK = 5, minScore = 0 } = args as SearchArgs;
      const root = resolveInWorkspace(workspace, '.').root;
      const current = await load(root);
      const { index } = current;
      let results: RankedChunk[];
      let ranking: string;
      let mode: 'semantic' | 'lexical';
      if (embedder !== undefined && index.embedder === embedder.id && index.dimensions > 0) {
        const [vector] = await embedder.embed([query], signal, index.dimensions);
        results = rankBySimilarity(index, vector as Float32Array, topK, minScore);
        ranking = `Ranked by meaning (cosine similarity of embeddings from ${embedder.id}).`;
        mode = 'semantic';
      } else {
        current.lexical ??= lexicalRanker(index);
        results = current.lexical(query, topK, minScore);
        mode = 'lexical';
        ranking =
          embedder === undefined
            ? 'Ranked lexically (BM25 over words, prefixes and near spellings; scores relative to the best match): no embedder is configured, so passages that say the same in other words are not found.'
            : `Ranked lexically: the index was built ${index.embedder === null ? 'without an embedder' : `with the embedder ${index.embedder}`}, not ${embedder.id}. Call index_workspace to embed it, then search again.`;
      }
      const files = [...index.files.values()];
      const chunks = files.reduce((sum, file) => sum + file.chunks.length, 0);
      const header = `${ranking} Index of ${files.length} files, ${chunks} chunks, updated ${index.updatedAt}${index.complete ? '' : ' (incomplete)'}.`;
      const blocks: string[] = [];
      for (const [position, hit] of results.entries()) {
        const stale = (await changedSince(root, index, hit.path))
          ? ' (changed since it was indexed; call index_workspace)'
          : '';
        blocks.push(
          `[${position + 1}] ${hit.path}:${hit.start}-${hit.end} (score ${hit.score.toFixed(3)})${stale}\n${shown(hit.text)}`,
        );
      }
      const body =
        blocks.length === 0
          ? `No passage matches "${query.length > 200 ? `${query.slice(0, 200)}…` : query}"${minScore > 0 ? ` with a score of at least ${minScore}` : ''}.`
          : blocks.join('\n\n---\n\n');
      return {
        content: [{ type: 'text', text: `${header}\n\n${body}` }],
        structuredContent: {
          ranking: mode,
          results: results.map(({ path, start, end, score }) => ({ path, start, end, score })),
        },
      };
    },
  });
}
