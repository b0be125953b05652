import type { Tool } from '../tool/index.js';
import { defineTool } from '../tool/index.js';
import { resolveEmbedder } from './resolve-embedder.js';
import { resolveInWorkspace } from './resolve-in-workspace.js';
import { updateWorkspaceIndex } from './update-workspace-index.js';
import {
  INDEX_DIRECTORY,
  INDEX_FILE,
  readWorkspaceIndex,
  writeWorkspaceIndex,
} from './workspace-index-file.js';
import {
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './workspace-tools-options.js';

type IndexArgs = { extensions?: string[] };

/** How long an index update may take, in milliseconds (embedding a large tree takes a while). */
export const INDEX_TIMEOUT_MS = 600_000;

const inputSchema = {
  type: 'object',
  properties: {
    extensions: {
      type: 'array',
      maxItems: 50,
      items: { type: 'string', minLength: 1, maxLength: 32, pattern: '^\\.?[A-Za-z0-9_.+-]+$' },
      description:
        'Index only files whose names end so, e.g. [".ts", ".md"]. Default: every text file.',
    },
  },
  additionalProperties: false,
} as const;

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * `index_workspace`: builds or updates the workspace index that `semantic_search` searches:
 * the workspace's text files (as `.gitignore` leaves them; not `.hintgate`, `node_modules`,
 * binary files or files over `indexMaxFileBytes`) cut into chunks of `indexChunkLines`
 * lines, embedded by `embedder` when one is configured, kept in
 * `.hintgate/index/workspace-index.json`. Incremental: only files whose modification time
 * or size changed are read, chunked and embedded again. Not read-only: it rewrites the
 * index (ak-coder's reason too: it mutates the search state). Not destructive (the index is
 * derived and rebuilt at will) and idempotent; open world when the embedder may send the
 * files' text outside this machine. Resource key `file:`: it reads every file, so it waits
 * for earlier writes and later calls (a search, a write) wait for it.
 */
export function createIndexWorkspaceTool(options: WorkspaceToolsOptions): Tool {
  const resolved = resolveWorkspaceToolsOptions(options);
  const { workspace, indexChunkLines, indexMaxFileBytes, indexMaxFiles } = resolved;
  const embedder = resolveEmbedder(resolved.embedder);
  const ranking =
    embedder === undefined
      ? 'semantic_search ranks lexically (words, prefixes and near spellings, not meaning), since no embedder is configured.'
      : `semantic_search ranks by meaning, with embeddings from ${embedder.id}.`;
  return defineTool({
    name: 'index_workspace',
    title: 'Index workspace',
    description:
      'Build or update the index of the workspace that semantic_search searches: text files cut into chunks of lines. Only files changed since the last update are indexed again, so call it again after editing files. Respects .gitignore.',
    annotations: {
      title: 'Index workspace',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: embedder !== undefined && !embedder.local,
    },
    inputSchema,
    resources: () => ['file:'],
    timeoutMs: INDEX_TIMEOUT_MS,
    execute: async (args, { signal }) => {
      const { extensions } = args as IndexArgs;
      const root = resolveInWorkspace(workspace, '.').root;
      const stored = await readWorkspaceIndex(root);
      const update = await updateWorkspaceIndex({
        root,
        previous: stored.status === 'ok' ? stored.index : undefined,
        embedder,
        chunkLines: indexChunkLines,
        maxFileBytes: indexMaxFileBytes,
        maxFiles: indexMaxFiles,
        extensions:
          extensions === undefined
            ? null
            : [...new Set(extensions.map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase()))],
        signal,
      });
      signal.throwIfAborted();
      await writeWorkspaceIndex(root, update.index);
      const { index } = update;
      const chunks = [...index.files.values()].reduce((sum, file) => sum + file.chunks.length, 0);
      const counts = [
        `${update.added} new`,
        `${update.changed} changed`,
        `${update.removed} removed`,
        `${update.unchanged} unchanged`,
      ].join(', ');
      const lines = [
        `Indexed ${plural(index.files.size, 'file')} into ${plural(chunks, 'chunk')} (${counts}${update.skipped === 0 ? '' : `; ${update.skipped} left out: binary, not UTF-8 or larger than ${indexMaxFileBytes} bytes`}).`,
        ...(stored.status === 'unreadable'
          ? [`The stored index could not be used (${stored.reason}), so it was built anew.`]
          : []),
        ...(update.rebuilt
          ? [
              'The stored index was made with another embedder or chunk size, so every file was indexed anew.',
            ]
          : []),
        ...(embedder === undefined ? [] : [`Embedded ${plural(update.embedded, 'chunk')}.`]),
        ...(index.complete
          ? []
          : [
              `The index is incomplete: it stopped at ${indexMaxFiles} files or 64 MiB of text. Pass extensions to index fewer files.`,
            ]),
        ranking,
        `The index is kept in ${INDEX_DIRECTORY}/${INDEX_FILE}.`,
      ];
      return lines.join('\n');
    },
  });
}
