import { lstat } from 'node:fs/promises';
import { fsErrorCode, RegularFileError, readRegularFile } from '../fs/index.js';
import { isPlainObject } from '../tool/index.js';
import { openWorkspaceDirectory, type WorkspaceDirectory } from './open-workspace-directory.js';
import { writeWorkspaceFile } from './write-workspace-file.js';

/** Directory of the workspace index, relative to the workspace root. */
export const INDEX_DIRECTORY = '.hintgate/index';
/** File name of the workspace index in {@link INDEX_DIRECTORY}. */
export const INDEX_FILE = 'workspace-index.json';
/** Largest index file read, in bytes. */
export const MAX_INDEX_FILE_BYTES = 512 * 1024 * 1024;

const SHOWN = `${INDEX_DIRECTORY}/${INDEX_FILE}`;
const FORMAT = 'hintgate-workspace-index';
const VERSION = 1;

/** A chunk of an indexed file. */
export interface IndexedChunk {
  /** First line, 1-based. */
  readonly start: number;
  /** Last line, 1-based, inclusive. */
  readonly end: number;
  /** The chunk's text (cut at the chunk size). */
  readonly text: string;
  /** Its embedding, when the index was built with an embedder. */
  readonly vector?: Float32Array;
}

/** A file of the index, with what it was indexed at. */
export interface IndexedFile {
  /** Workspace-relative path. */
  readonly path: string;
  /** Modification time when indexed, in milliseconds. */
  readonly mtimeMs: number;
  /** Size in bytes when indexed. */
  readonly size: number;
  /** Its chunks. */
  readonly chunks: readonly IndexedChunk[];
}

/** The workspace index, as `index_workspace` keeps it under {@link INDEX_DIRECTORY}. */
export interface WorkspaceIndex {
  /** Lines per chunk it was built with. */
  readonly chunkLines: number;
  /** Id of the embedder of its vectors, or null when it has none (lexical ranking only). */
  readonly embedder: string | null;
  /** Dimensions of its vectors (0 without an embedder). */
  readonly dimensions: number;
  /** File name endings it was limited to, or null for every text file. */
  readonly extensions: readonly string[] | null;
  /** When it was last updated (ISO 8601). */
  readonly updatedAt: string;
  /** False when a limit stopped the walk before every file was indexed. */
  readonly complete: boolean;
  /** Its files, by path. */
  readonly files: ReadonlyMap<string, IndexedFile>;
}

/** What {@link readWorkspaceIndex} found. */
export type IndexRead =
  | { readonly status: 'ok'; readonly index: WorkspaceIndex; readonly version: string }
  | { readonly status: 'missing' }
  | { readonly status: 'unreadable'; readonly reason: string };

const toBase64 = (vector: Float32Array): string =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');

const fromBase64 = (text: string, dimensions: number): Float32Array | undefined => {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== dimensions * 4) return undefined;
  const vector = new Float32Array(dimensions);
  Buffer.from(vector.buffer).set(bytes);
  return vector.every(Number.isFinite) ? vector : undefined;
};

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

class Malformed extends Error {}

/** A workspace-relative path as the walk makes them: no `..`, `.` or empty part, no NUL. */
const isWorkspacePath = (path: unknown): path is string =>
  typeof path === 'string' &&
  path.length <= 4096 &&
  !path.includes('\0') &&
  path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

/** Reads one file entry of the stored index; the index is workspace data, so hostile. */
function readFileEntry(value: unknown, dimensions: number): IndexedFile {
  if (!isPlainObject(value) || !isWorkspacePath(value.path) || !Array.isArray(value.chunks)) {
    throw new Malformed('a file entry is malformed');
  }
  const { path, mtimeMs, size } = value;
  if (typeof mtimeMs !== 'number' || !Number.isFinite(mtimeMs) || !isCount(size)) {
    throw new Malformed(`the entry of ${JSON.stringify(path)} is malformed`);
  }
  const chunks = value.chunks.map((chunk: unknown): IndexedChunk => {
    if (!Array.isArray(chunk))
      throw new Malformed(`a chunk of ${JSON.stringify(path)} is malformed`);
    const [start, end, text, encoded] = chunk as unknown[];
    if (!isCount(start) || !isCount(end) || typeof text !== 'string') {
      throw new Malformed(`a chunk of ${JSON.stringify(path)} is malformed`);
    }
    if (dimensions === 0) return { start, end, text };
    const vector = typeof encoded === 'string' ? fromBase64(encoded, dimensions) : undefined;
    if (vector === undefined)
      throw new Malformed(`a vector of ${JSON.stringify(path)} is malformed`);
    return { start, end, text, vector };
  });
  return { path, mtimeMs, size, chunks };
}

/** Parses the stored index; throws {@link Malformed} when anything is off. */
function parseIndex(text: string): WorkspaceIndex {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Malformed('it is not JSON');
  }
  if (!isPlainObject(value) || value.format !== FORMAT || value.version !== VERSION) {
    throw new Malformed(`it is not a version ${VERSION} workspace index`);
  }
  const { chunkLines, embedder, dimensions, extensions, updatedAt, complete, files } = value;
  if (
    !isCount(chunkLines) ||
    !(embedder === null || typeof embedder === 'string') ||
    !isCount(dimensions) ||
    (embedder === null && dimensions !== 0) ||
    !(
      extensions === null ||
      (Array.isArray(extensions) && extensions.every((e) => typeof e === 'string'))
    ) ||
    typeof updatedAt !== 'string' ||
    typeof complete !== 'boolean' ||
    !Array.isArray(files)
  ) {
    throw new Malformed('its header is malformed');
  }
  const byPath = new Map<string, IndexedFile>();
  for (const entry of files) {
    const file = readFileEntry(entry, dimensions);
    byPath.set(file.path, file);
  }
  return {
    chunkLines,
    embedder,
    dimensions,
    extensions: extensions as string[] | null,
    updatedAt,
    complete,
    files: byPath,
  };
}

const open = (root: string, create: boolean): Promise<WorkspaceDirectory> =>
  openWorkspaceDirectory(root, INDEX_DIRECTORY, { create, shown: SHOWN });

/**
 * A string that changes whenever the stored index does (inode, size and modification
 * time), to reuse an index read before; undefined when there is none.
 */
export async function workspaceIndexVersion(root: string): Promise<string | undefined> {
  let directory: WorkspaceDirectory | undefined;
  try {
    directory = await open(root, false);
    const stats = await lstat(directory.entry(INDEX_FILE), { bigint: true });
    return `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
  } catch (error) {
    if (fsErrorCode(error) === 'ENOENT' || fsErrorCode(error) === 'ENOTDIR') return undefined;
    throw error;
  } finally {
    await directory?.close();
  }
}

/**
 * Reads the workspace index of the workspace whose real root is `root`, through a handle on
 * its checked directory (a `.hintgate` swapped for a link cannot make it read elsewhere).
 * The file is workspace data that anything may have changed, so it is checked field by
 * field: `unreadable` with the reason when anything is off.
 */
export async function readWorkspaceIndex(root: string): Promise<IndexRead> {
  let directory: WorkspaceDirectory | undefined;
  try {
    directory = await open(root, false);
    const { text, stats } = await readRegularFile(directory.entry(INDEX_FILE), {
      maxBytes: MAX_INDEX_FILE_BYTES,
      noFollow: true,
    });
    return {
      status: 'ok',
      index: parseIndex(text),
      version: `${stats.ino}:${stats.size}:${stats.mtimeNs}`,
    };
  } catch (error) {
    if (error instanceof Malformed) return { status: 'unreadable', reason: error.message };
    if (fsErrorCode(error) === 'ENOENT' || fsErrorCode(error) === 'ENOTDIR') {
      return { status: 'missing' };
    }
    if (error instanceof RegularFileError) {
      return error.problem === 'missing'
        ? { status: 'missing' }
        : { status: 'unreadable', reason: error.reason };
    }
    throw error;
  } finally {
    await directory?.close();
  }
}

/**
 * Stores the workspace index atomically under {@link INDEX_DIRECTORY}, creating it (with a
 * `.gitignore` that keeps the index out of git), through a handle on the checked directory,
 * like `write_file` writes.
 */
export async function writeWorkspaceIndex(root: string, index: WorkspaceIndex): Promise<void> {
  const files = [...index.files.values()].map((file) => ({
    path: file.path,
    mtimeMs: file.mtimeMs,
    size: file.size,
    chunks: file.chunks.map((chunk) =>
      chunk.vector === undefined
        ? [chunk.start, chunk.end, chunk.text]
        : [chunk.start, chunk.end, chunk.text, toBase64(chunk.vector)],
    ),
  }));
  const text = JSON.stringify({
    format: FORMAT,
    version: VERSION,
    chunkLines: index.chunkLines,
    embedder: index.embedder,
    dimensions: index.dimensions,
    extensions: index.extensions,
    updatedAt: index.updatedAt,
    complete: index.complete,
    files,
  });
  const directory = await open(root, true);
  try {
    const ignore = await lstat(directory.entry('.gitignore')).catch(() => undefined);
    if (ignore === undefined) await writeWorkspaceFile(directory, '.gitignore', '*\n');
    await writeWorkspaceFile(directory, INDEX_FILE, text);
  } finally {
    await directory.close();
  }
}
