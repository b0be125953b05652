import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** What the snapshot knows about one entry. */
export type SnapshotEntry =
  | {
      readonly type: 'file';
      readonly size: number;
      /** Modification time in nanoseconds since the epoch. */
      readonly mtimeNs: bigint;
      /** `sha256:<hex>` of the content. */
      readonly sha256: string;
    }
  | { readonly type: 'dir' }
  | { readonly type: 'symlink'; readonly target: string };

/** Entries under a directory by path relative to it, `/`-separated. */
export type FileSnapshot = ReadonlyMap<string, SnapshotEntry>;

/** One difference between two snapshots. */
export interface FileChange {
  readonly kind: 'created' | 'modified' | 'deleted';
  /** Path relative to the snapshot's root, `/`-separated. */
  readonly path: string;
  /** What changed, in words: `file, 12 bytes`, `size 10 -> 20 bytes, content changed`. */
  readonly detail: string;
  /** Only the modification time changed (the file was rewritten with the same content). */
  readonly metadataOnly?: true;
}

const toPosix = (path: string): string => (sep === '/' ? path : path.split(sep).join('/'));

/**
 * Records every file, directory and symbolic link under `root` (not following links): size,
 * modification time and SHA-256 of each file. Entries that vanish while it walks are skipped.
 */
export async function snapshotFiles(root: string): Promise<FileSnapshot> {
  const entries = new Map<string, SnapshotEntry>();
  const walk = async (dir: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const absolute = join(dir, name);
      const path = toPosix(relative(root, absolute));
      try {
        const stat = await lstat(absolute, { bigint: true });
        if (stat.isSymbolicLink()) {
          entries.set(path, { type: 'symlink', target: await readlink(absolute) });
        } else if (stat.isDirectory()) {
          entries.set(path, { type: 'dir' });
          await walk(absolute);
        } else if (stat.isFile()) {
          const content = await readFile(absolute);
          entries.set(path, {
            type: 'file',
            size: Number(stat.size),
            mtimeNs: stat.mtimeNs,
            sha256: `sha256:${createHash('sha256').update(content).digest('hex')}`,
          });
        }
      } catch {
        // Gone between readdir and lstat: it is not there for this snapshot.
      }
    }
  };
  await walk(root);
  return entries;
}

const describe = (entry: SnapshotEntry): string => {
  if (entry.type === 'dir') return 'directory';
  if (entry.type === 'symlink') return `symbolic link to ${entry.target}`;
  return `file, ${entry.size} bytes`;
};

const modification = (before: SnapshotEntry, after: SnapshotEntry): string | undefined => {
  if (before.type !== after.type) return `${describe(before)} -> ${describe(after)}`;
  if (before.type === 'symlink' && after.type === 'symlink') {
    return before.target === after.target ? undefined : `link ${before.target} -> ${after.target}`;
  }
  if (before.type !== 'file' || after.type !== 'file') return undefined;
  const parts: string[] = [];
  if (before.size !== after.size) parts.push(`size ${before.size} -> ${after.size} bytes`);
  if (before.sha256 !== after.sha256) parts.push('content changed');
  else if (before.mtimeNs !== after.mtimeNs) parts.push('modification time changed, same content');
  return parts.length === 0 ? undefined : parts.join(', ');
};

/** What changed from `before` to `after`: created, modified and deleted entries, by path. */
export function diffSnapshots(before: FileSnapshot, after: FileSnapshot): FileChange[] {
  const changes: FileChange[] = [];
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (old === undefined) {
      changes.push({ kind: 'created', path, detail: describe(entry) });
      continue;
    }
    const detail = modification(old, entry);
    if (detail === undefined) continue;
    const sameContent = old.type === 'file' && entry.type === 'file' && old.sha256 === entry.sha256;
    changes.push({
      kind: 'modified',
      path,
      detail,
      ...(sameContent ? { metadataOnly: true } : {}),
    });
  }
  for (const [path, entry] of before) {
    if (!after.has(path)) changes.push({ kind: 'deleted', path, detail: describe(entry) });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One evidence line: `modified work/log.txt (size 10 -> 20 bytes, content changed)`. */
export function formatFileChange(change: FileChange): string {
  return `${change.kind} ${change.path} (${change.detail})`;
}
