import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Default quiet time after the last change before a reload, in milliseconds. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 200;

/** A folder (or a file in it) whose changes should trigger a reload. */
export interface WatchedPath {
  /** The folder to watch with everything under it, or the file to watch. */
  readonly path: string;
  /** `folder`: any change under it; `file`: changes of that file only. */
  readonly kind: 'folder' | 'file';
}

/** Options of {@link watchToolFolders}. */
export interface WatchToolFoldersOptions {
  /** Called once the paths have been quiet for `debounceMs` after a change. */
  readonly onChange: () => void;
  /** Quiet time after the last change, in milliseconds. Default {@link DEFAULT_WATCH_DEBOUNCE_MS}. */
  readonly debounceMs?: number;
  /** Told when a path cannot be watched (other than not existing yet). */
  readonly onProblem?: (message: string) => void;
}

/** Watchers of the tool folders; {@link ToolFolderWatch.rearm} after a reload. */
export interface ToolFolderWatch {
  /** Watches the paths again: a folder that appeared is now watched itself. */
  rearm(): void;
  /** Stops watching, and drops a pending change. */
  close(): void;
}

/**
 * Watches tool folders with `fs.watch`: a folder that exists with everything under it
 * (`recursive`), one that does not exist yet through the nearest folder above it that does
 * (up to three levels, so that creating it counts), and single files through their folder. Changes are debounced into one
 * `onChange`. Events carry no trust: the reload they trigger looks at the files itself.
 */
export function watchToolFolders(
  paths: readonly WatchedPath[],
  options: WatchToolFoldersOptions,
): ToolFolderWatch {
  const debounceMs = options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
  let watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const changed = (): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) options.onChange();
    }, debounceMs);
  };
  /** Watches `path`; false when it does not exist. */
  const tryWatch = (path: string, recursive: boolean, only?: string): boolean => {
    try {
      const watcher = watch(path, { recursive, persistent: false }, (_event, name) => {
        if (only === undefined || name === null || String(name) === only) changed();
      });
      // A watched folder that is deleted ends its watcher with an error: that is a change.
      watcher.on('error', changed);
      watchers.push(watcher);
      return true;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        options.onProblem?.(
          `cannot watch ${path} for changed tool modules (${code ?? String(error)}); run "registry.reload()" or restart to pick changes up.`,
        );
      }
      return false;
    }
  };
  const arm = (): void => {
    for (const { path, kind } of paths) {
      if (kind === 'folder' && tryWatch(path, true)) continue;
      // Not there yet: watch the nearest folder above that is, for the next step down.
      for (let missing = path, level = 0; level < 3; missing = dirname(missing), level += 1) {
        if (tryWatch(dirname(missing), false, basename(missing))) break;
      }
    }
  };
  const disarm = (): void => {
    for (const watcher of watchers) watcher.close();
    watchers = [];
  };
  arm();
  return {
    rearm: () => {
      if (closed) return;
      disarm();
      arm();
    },
    close: () => {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      disarm();
    },
  };
}
