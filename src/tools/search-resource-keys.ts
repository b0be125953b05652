import { posix } from 'node:path';
import { resolveInWorkspace, workspaceFileKey } from './resolve-in-workspace.js';

/**
 * Resource keys of a search under `path` (a directory or file of the workspace): the key of
 * that path, which covers its subtree, plus the `.gitignore` files above it and
 * `.git/info/exclude`, which the search also reads; so a search waits for an earlier write
 * of any of them and runs alongside writes elsewhere.
 */
export function searchResourceKeys(workspace: string, path: string | undefined): string[] {
  const baseKey = workspaceFileKey(workspace, path);
  const keys = [baseKey, 'file:.git/info/exclude'];
  let relative: string;
  try {
    relative = resolveInWorkspace(workspace, path ?? '.').relative;
  } catch {
    return keys;
  }
  if (relative === '.') return keys;
  const parts = relative.split('/');
  for (let depth = 0; depth < parts.length; depth += 1) {
    keys.push(`file:${posix.join(...parts.slice(0, depth), '.gitignore')}`);
  }
  return keys;
}
