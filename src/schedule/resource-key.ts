import { isAbsolute, posix, relative, resolve, sep } from 'node:path';

/**
 * Normalizes a resource key `namespace:path` so that two spellings of one resource are
 * equal: `.` and empty segments go, `..` is resolved, a trailing `/` is dropped, and an
 * absolute path inside `workspace` becomes workspace-relative (`file:/ws/src/a.ts` with
 * workspace `/ws` is `file:src/a.ts`), while a relative path that leaves the workspace
 * becomes absolute (`file:../other/x` with workspace `/ws/proj` is `file:/ws/other/x`).
 * A key without `:` is all path.
 */
export function normalizeResourceKey(key: string, workspace?: string): string {
  const colon = key.indexOf(':');
  const namespace = colon === -1 ? '' : key.slice(0, colon + 1);
  let path = colon === -1 ? key : key.slice(colon + 1);
  if (path === '') return namespace;
  // A relative path that climbs out of the workspace names a file outside it: spell it
  // absolute, as a caller passing the absolute path would.
  if (workspace !== undefined && !isAbsolute(path) && posix.normalize(path).startsWith('..')) {
    const normalized = posix.normalize(path);
    if (normalized === '..' || normalized.startsWith('../')) path = resolve(workspace, normalized);
  }
  if (workspace !== undefined && isAbsolute(path)) {
    const inside = relative(workspace, path);
    if (inside === '') path = '.';
    // `..cache/x` is inside; only a `..` segment leads out.
    else if (inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) {
      path = inside.split(sep).join('/');
    }
  }
  const absolute = path.startsWith('/');
  let normalized = posix.normalize(path);
  if (normalized === '.' || normalized === './') normalized = '';
  normalized = normalized.replace(/\/+$/, '');
  if (absolute && normalized === '') normalized = '/';
  return namespace + normalized;
}

/**
 * The chain of nodes from the top of a normalized key's namespace down to the key:
 * `file:src/a.ts` gives `['file:', 'file:src', 'file:src/a.ts']`, an absolute
 * `file:/etc/hosts` gives `['file:', 'file:/', 'file:/etc', 'file:/etc/hosts']`, and the
 * empty key gives `[]` (the whole origin).
 */
export function keyHierarchy(normalizedKey: string): string[] {
  const colon = normalizedKey.indexOf(':');
  const namespace = colon === -1 ? '' : normalizedKey.slice(0, colon + 1);
  const path = colon === -1 ? normalizedKey : normalizedKey.slice(colon + 1);
  const chain: string[] = namespace === '' ? [] : [namespace];
  if (path === '') return chain;
  let prefix = namespace;
  if (path.startsWith('/')) {
    prefix += '/';
    chain.push(prefix);
  }
  let first = true;
  for (const segment of path.split('/')) {
    if (segment === '') continue;
    prefix += first || prefix.endsWith('/') ? segment : `/${segment}`;
    first = false;
    chain.push(prefix);
  }
  return chain;
}
