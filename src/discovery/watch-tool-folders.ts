import { type FSWatcher, type StatsListener, unwatchFile, watch, watchFile } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Default quiet time after the last change before a reload, in milliseconds. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 200;

/**
 * How often a path that does not exist yet is looked for, in milliseconds. It is polled
 * (`fs.watchFile`), not watched through the folder above it: that folder may hold a file
 * written all the time (`.hintgate/` holds the audit log), each write of which would wake
 * the process for nothing.
 */
export const MISSING_PATH_POLL_MS = 1000;

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
 * (`recursive`), and single files through their folder. A folder, or a file's folder, that
 * does not exist yet is polled every {@link MISSING_PATH_POLL_MS} (`fs.watchFile`), so that
 * creating it counts; after the reload it triggers, `rearm` watches it itself. Changes are
 * debounced into one `onChange`. Events carry no trust: the reload they trigger looks at
 * the files itself.
 */
export function watchToolFolders(
  paths: readonly WatchedPath[],
  options: WatchToolFoldersOptions,
): ToolFolderWatch {
  const debounceMs = options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
  let watchers: FSWatcher[] = [];
  let polled: [string, StatsListener][] = [];
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
  /** Polls a path that does not exist yet: any change of its stat (it appeared) counts. */
  const poll = (path: string): void => {
    const listener: StatsListener = (current, previous) => {
      if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino) changed();
    };
    watchFile(path, { interval: MISSING_PATH_POLL_MS, persistent: false }, listener);
    polled.push([path, listener]);
  };
  const arm = (): void => {
    for (const { path, kind } of paths) {
      if (kind === 'folder') {
        if (!tryWatch(path, true)) poll(path);
      } else if (!tryWatch(dirname(path), false, basename(path))) {
        poll(path);
      }
    }
  };
  const disarm = (): void => {
    for (const watcher of watchers) watcher.close();
    watchers = [];
    for (const [path, listener] of polled) unwatchFile(path, listener);
    polled = [];
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
