import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { posix, resolve } from 'node:path';

/** Top-level directories of a system whose recursive deletion or chmod ruins it. */
const SYSTEM_DIRS = new Set(
  (
    '/ /bin /boot /dev /etc /home /lib /lib32 /lib64 /opt /proc /root /sbin /srv /sys /usr /var ' +
    '/Applications /Library /System /Users /Volumes /private'
  ).split(' '),
);
const GLOB = /[*?[]/;
const HOME_PREFIX = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/;
const PWD_PREFIX = /^(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|~\+)(?=\/|$)/;

/** A directory a command may run in. */
export interface Directory {
  /** Absolute path; undefined when unknown (`cd "$X"`, `cd -`, `env -C`). */
  readonly dir: string | undefined;
  /** True for the workspace and places reached from it by relative `cd`s (`cd ..`). */
  readonly start: boolean;
}

/** What judging places needs: the workspace, home, temporary directories, current directories. */
export interface PlaceContext {
  /** The workspace as given and as its real path, when known. */
  readonly workspaces: readonly string[];
  readonly home: string;
  readonly temps: readonly string[];
  /** Directories the command may be in: the start and each `cd` target. */
  readonly cwds: Directory[];
}

/** Where a target word leads. */
export interface Place {
  /** Absolute, normalized; or relative and normalized when the directory is unknown. */
  readonly path: string;
  /** How it was written: from `/`, from `~`, or relative to the current directory. */
  readonly from: 'root' | 'home' | 'cwd';
  /** For `from: 'cwd'`: whether that directory was reached from the workspace by relative steps. */
  readonly start: boolean;
}

/** `text` without trailing slashes, keeping a lone `/`. Linear, unlike `/\/+$/`. */
const trimSlashes = (text: string): string => {
  let end = text.length;
  while (end > 1 && text[end - 1] === '/') end -= 1;
  return text.slice(0, end);
};

/** "Everything in it" is the directory itself: `*`, `.*`, `dir/*`, `dir/.*`, `/*` become `.`-ended. */
const starToDot = (text: string): string => {
  let end = text.length;
  while (end > 0 && text[end - 1] === '*') end -= 1;
  if (end === text.length) return text;
  let start = end;
  if (start > 0 && text[start - 1] === '.') start -= 1;
  return start === 0 || text[start - 1] === '/' ? `${text.slice(0, start)}.` : text;
};

/** True when `path` is `root` or inside it. */
export const within = (root: string, path: string): boolean => {
  const rel = posix.relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !posix.isAbsolute(rel));
};

/**
 * The place a target word names, the current directory being `cwd`: `~`, `$HOME`, `$PWD`,
 * `` `pwd` `` expanded; `/./etc`, `//etc`, `/etc/.`, `/tmp/../home` normalized; a trailing
 * `/*` (or a bare `*`) standing for the directory itself and a glob in the last part for
 * some entry of its directory. Undefined when the shell decides where it is.
 */
export const placeOf = (
  word: string,
  cwd: Directory | undefined,
  context: PlaceContext,
): Place | undefined => {
  let text = word;
  let from: Place['from'] = 'cwd';
  if (HOME_PREFIX.test(text)) {
    text = text.replace(HOME_PREFIX, context.home);
    from = 'home';
  } else if (PWD_PREFIX.test(text)) {
    text = text.replace(PWD_PREFIX, '.');
  } else if (text.startsWith('~') && text.length > 1 && text[1] !== '/') {
    // Another user's home directory: ~alice is as much a home as ~.
    return /^~[\w.-]+\/?$/.test(text)
      ? { path: context.home, from: 'home', start: false }
      : undefined;
  }
  if (text.includes('$') || text.includes('`')) return undefined;
  text = starToDot(trimSlashes(text));
  const parts = text.split('/');
  const last = parts.length - 1;
  if (parts.some((part, index) => GLOB.test(part) && index !== last)) return undefined;
  if (GLOB.test(parts[last] as string)) parts[last] = 'entry';
  text = parts.join('/');
  if (text.startsWith('/')) from = from === 'home' ? 'home' : 'root';
  let path: string;
  if (posix.isAbsolute(text)) path = posix.normalize(text);
  else if (cwd?.dir !== undefined) path = posix.resolve(cwd.dir, text);
  else path = posix.normalize(text);
  path = trimSlashes(path);
  return { path, from, start: from === 'cwd' && cwd?.dir !== undefined && cwd.start };
};

/** Why deleting (or chmod-ing) `place` and all under it is dangerous, or undefined. */
export const dangerOfPlace = (place: Place, context: PlaceContext): string | undefined => {
  const { path } = place;
  if (!posix.isAbsolute(path)) {
    // The directory is unknown: only what is plainly "here" or "above" can be told.
    if (path === '.') return 'everything in the current directory';
    if (path === '..' || path.startsWith('../')) return 'a place above the current directory';
    return undefined;
  }
  if (path === '/') return 'the whole file system';
  if (SYSTEM_DIRS.has(path)) return 'a system directory';
  if (within(path, context.home)) return 'the home directory or a directory above it';
  const workspaces = context.workspaces;
  if (workspaces.some((workspace) => within(path, workspace))) {
    return 'the workspace or a directory above it';
  }
  if (workspaces.length === 0 || workspaces.some((workspace) => within(workspace, path))) {
    return undefined;
  }
  // Outside the workspace: allowed under a temporary directory, when written as such.
  const deliberate = !(place.from === 'cwd' && place.start);
  if (deliberate && context.temps.some((temp) => path !== temp && within(temp, path))) {
    return undefined;
  }
  return 'a place outside the workspace';
};

/** The danger of a target word wherever the command may be, or undefined. */
export const dangerOf = (word: string, context: PlaceContext): string | undefined => {
  const cwds = word.startsWith('/') || HOME_PREFIX.test(word) ? [undefined] : context.cwds;
  for (const cwd of cwds) {
    const place = placeOf(word, cwd, context);
    const danger = place === undefined ? undefined : dangerOfPlace(place, context);
    if (danger !== undefined) return danger;
  }
  return undefined;
};

/** True when a target word starts from `/` or the home directory. */
export const isRooted = (word: string): boolean => word.startsWith('/') || HOME_PREFIX.test(word);

const realOrSame = (path: string): string => {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
};

/** The context of a check: the workspace (and its real path), home, temporary directories. */
export const placeContext = (options: { workspace?: string; home?: string }): PlaceContext => {
  const workspace = options.workspace === undefined ? undefined : resolve(options.workspace);
  const workspaces =
    workspace === undefined ? [] : [...new Set([workspace, realOrSame(workspace)])];
  const home = trimSlashes(posix.normalize(options.home ?? process.env.HOME ?? homedir()));
  const temps = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/tmp', tmpdir()];
  if (process.env.TMPDIR !== undefined && posix.isAbsolute(process.env.TMPDIR)) {
    temps.push(process.env.TMPDIR);
  }
  return {
    workspaces,
    home,
    temps: [...new Set(temps.map((t) => trimSlashes(posix.normalize(t))))],
    cwds: [{ dir: workspaces.at(-1), start: workspaces.length > 0 }],
  };
};
