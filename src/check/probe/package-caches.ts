import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ownValue } from '../../tool/index.js';

/** A package cache of the host, handed to servers in the sandbox. */
export interface HostPackageCache {
  /** What it caches, for reports: `npm`, `uv`, `uv python`. */
  readonly name: string;
  /** The environment variable that points the tool at it. */
  readonly variable: string;
  /** Its directory on the host, with symbolic links resolved. */
  readonly path: string;
  /**
   * Whether the server may write to it (under OS isolation; without it the server can write
   * anywhere it could anyway). npm and uv install what `npx` and `uvx` run into their
   * caches, so those are writable; uv's installed Pythons are only read.
   */
  readonly writable: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

const directory = (path: string | undefined): string | undefined => {
  if (path === undefined || path === '') return undefined;
  try {
    return existsSync(path) && statSync(path).isDirectory() ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The package caches of the host that exist, with the variables that point `npx` (npm) and
 * `uvx` (uv) at them, as those tools find them: `npm_config_cache` or `~/.npm`
 * (`%LOCALAPPDATA%\npm-cache` on Windows); `UV_CACHE_DIR` or uv's cache directory;
 * `UV_PYTHON_INSTALL_DIR` or uv's Python directory. A server in the sandbox, whose home is
 * empty, would otherwise download every package (and a Python) again on each check: slow,
 * and with a connect timeout that a first download easily exceeds.
 */
export function hostPackageCaches(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): HostPackageCache[] {
  const get = (name: string): string | undefined => ownValue(env, name);
  const windows = platform === 'win32';
  const localAppData = get('LOCALAPPDATA') ?? join(home, 'AppData', 'Local');
  const appData = get('APPDATA') ?? join(home, 'AppData', 'Roaming');
  const xdgCache = get('XDG_CACHE_HOME') ?? join(home, '.cache');
  const xdgData = get('XDG_DATA_HOME') ?? join(home, '.local', 'share');
  const candidates: (Omit<HostPackageCache, 'path'> & { readonly path: string | undefined })[] = [
    {
      name: 'npm',
      variable: 'npm_config_cache',
      path:
        get('npm_config_cache') ??
        get('NPM_CONFIG_CACHE') ??
        (windows ? join(localAppData, 'npm-cache') : join(home, '.npm')),
      writable: true,
    },
    {
      name: 'uv',
      variable: 'UV_CACHE_DIR',
      path:
        get('UV_CACHE_DIR') ??
        (windows
          ? join(localAppData, 'uv', 'cache')
          : platform === 'darwin' && get('XDG_CACHE_HOME') === undefined
            ? join(home, 'Library', 'Caches', 'uv')
            : join(xdgCache, 'uv')),
      writable: true,
    },
    {
      name: 'uv python',
      variable: 'UV_PYTHON_INSTALL_DIR',
      path:
        get('UV_PYTHON_INSTALL_DIR') ??
        (windows ? join(appData, 'uv', 'python') : join(xdgData, 'uv', 'python')),
      writable: false,
    },
  ];
  return candidates.flatMap((cache) => {
    const path = directory(cache.path);
    return path === undefined ? [] : [{ ...cache, path }];
  });
}
