import { lstat } from 'node:fs/promises';
import { readRegularFile } from '../fs/index.js';
import { chunkTextLines } from './chunk-text-lines.js';
import { looksBinary } from './looks-binary.js';
import type { ResolvedEmbedder } from './resolve-embedder.js';
import { walkWorkspaceFiles } from './walk-workspace-files.js';
import type { IndexedChunk, IndexedFile, WorkspaceIndex } from './workspace-index-file.js';

/** Characters of one chunk kept and embedded. */
export const MAX_CHUNK_CHARS = 4000;
/** Characters of text the index holds at most; the walk stops there. */
export const MAX_INDEXED_CHARS = 64 * 1024 * 1024;

/** Options of {@link updateWorkspaceIndex}. */
export interface UpdateWorkspaceIndexOptions {
  /** Real path of the workspace root. */
  readonly root: string;
  /** The index as stored, to keep the chunks (and vectors) of files that did not change. */
  readonly previous: WorkspaceIndex | undefined;
  /** Embeds new chunks; without one the index keeps texts only (lexical ranking). */
  readonly embedder: ResolvedEmbedder | undefined;
  /** Lines per chunk. */
  readonly chunkLines: number;
  /** Larger files are left out, in bytes. */
  readonly maxFileBytes: number;
  /** Files indexed at most; the walk stops there. */
  readonly maxFiles: number;
  /** File name endings to index (`.ts`), lower case; null for every text file. */
  readonly extensions: readonly string[] | null;
  /** Stops the walk and the embedding. */
  readonly signal: AbortSignal;
}

/** What {@link updateWorkspaceIndex} did. */
export interface IndexUpdate {
  /** The new index, to be stored. */
  readonly index: WorkspaceIndex;
  /** Files indexed for the first time. */
  readonly added: number;
  /** Files indexed again because their modification time or size changed. */
  readonly changed: number;
  /** Files of the previous index that are gone (deleted, ignored, filtered out). */
  readonly removed: number;
  /** Files whose chunks were kept. */
  readonly unchanged: number;
  /** Files left out: binary, not UTF-8, or larger than `maxFileBytes`. */
  readonly skipped: number;
  /** Chunks embedded by this update. */
  readonly embedded: number;
  /** True when the stored index had another chunk size or embedder, so all was indexed anew. */
  readonly rebuilt: boolean;
}

/** Directories never indexed: hintgate's state and installed packages. */
const skipDirectory = (path: string): boolean =>
  path === '.hintgate' || path === 'node_modules' || path.endsWith('/node_modules');

/** A file that is new or changed, with its chunks still to embed. */
interface Pending {
  readonly path: string;
  readonly mtimeMs: number;
  readonly size: number;
  readonly chunks: ReturnType<typeof chunkTextLines>;
}

/**
 * Brings the workspace index up to date, incrementally: walks the workspace's text files
 * (`.gitignore` honoured, `.git`, `.hintgate`, `node_modules` and symbolic links skipped),
 * keeps the chunks and vectors of every file whose modification time and size are those
 * it was indexed at, and chunks (by lines) and embeds only the rest. A change of chunk size
 * or embedder starts over. Files are read as they are; nothing is written here.
 *
 * @throws the embedder's error, or the signal's reason when aborted.
 */
export async function updateWorkspaceIndex(
  options: UpdateWorkspaceIndexOptions,
): Promise<IndexUpdate> {
  const { root, embedder, chunkLines, maxFileBytes, maxFiles, extensions, signal } = options;
  const embedderId = embedder?.id ?? null;
  const previous =
    options.previous?.chunkLines === chunkLines && options.previous.embedder === embedderId
      ? options.previous
      : undefined;
  const kept: IndexedFile[] = [];
  const pending: Pending[] = [];
  let changed = 0;
  let skipped = 0;
  let chars = 0;
  let complete = true;
  const chunking = {
    lines: chunkLines,
    overlap: Math.floor(chunkLines / 6),
    maxChars: MAX_CHUNK_CHARS,
  };
  const walk = await walkWorkspaceFiles(
    { root, base: root, signal, skipDirectory },
    async (file) => {
      if (file.symlink) return true;
      const lower = file.path.toLowerCase();
      if (extensions !== null && !extensions.some((ending) => lower.endsWith(ending))) return true;
      if (kept.length + pending.length >= maxFiles || chars >= MAX_INDEXED_CHARS) {
        complete = false;
        return false;
      }
      const stats = await lstat(file.absolute).catch(() => undefined);
      if (stats === undefined || !stats.isFile()) return true;
      if (stats.size > maxFileBytes) {
        skipped += 1;
        return true;
      }
      const before = previous?.files.get(file.path);
      if (before !== undefined && before.mtimeMs === stats.mtimeMs && before.size === stats.size) {
        kept.push(before);
        chars += before.chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);
        return true;
      }
      let bytes: Buffer;
      try {
        ({ bytes } = await readRegularFile(file.absolute, {
          maxBytes: maxFileBytes,
          noFollow: true,
        }));
      } catch {
        skipped += 1; // Gone, replaced, or unreadable since the walk saw it.
        return true;
      }
      const text = bytes.toString('utf8');
      if (looksBinary(bytes) || !Buffer.from(text, 'utf8').equals(bytes)) {
        skipped += 1;
        return true;
      }
      if (before !== undefined) changed += 1;
      const chunks = chunkTextLines(text, chunking);
      chars += chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);
      pending.push({ path: file.path, mtimeMs: stats.mtimeMs, size: stats.size, chunks });
      return true;
    },
  );
  if (!walk.complete) complete = false;

  const texts = pending.flatMap((file) =>
    file.chunks.map((chunk) => `${file.path}\n${chunk.text}`),
  );
  const dimensions = previous?.dimensions || undefined;
  const vectors = embedder === undefined ? [] : await embedder.embed(texts, signal, dimensions);
  let next = 0;
  const files = new Map<string, IndexedFile>();
  for (const file of kept) files.set(file.path, file);
  for (const file of pending) {
    const chunks = file.chunks.map((chunk): IndexedChunk => {
      const vector = vectors[next++];
      return vector === undefined ? chunk : { ...chunk, vector };
    });
    files.set(file.path, { path: file.path, mtimeMs: file.mtimeMs, size: file.size, chunks });
  }
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let removed = 0;
  for (const path of options.previous?.files.keys() ?? []) if (!files.has(path)) removed += 1;
  return {
    index: {
      chunkLines,
      embedder: embedderId,
      dimensions: embedder === undefined ? 0 : (vectors[0]?.length ?? previous?.dimensions ?? 0),
      extensions,
      updatedAt: new Date().toISOString(),
      complete,
      files: sorted,
    },
    added: pending.length - changed,
    changed,
    removed,
    unchanged: kept.length,
    skipped,
    embedded: vectors.length,
    rebuilt: options.previous !== undefined && previous === undefined,
  };
}
