import { HintgateError } from '../errors/index.js';
import type { AuditEvent, AuditSink } from './audit-event.js';
import { type AuditFileSystem, nodeAuditFileSystem } from './audit-file-system.js';
import { type AuditRotateOptions, resolveAuditRotation } from './audit-rotate-options.js';
import { GroupCommitAppender } from './group-commit-appender.js';
import { JSONL_SYNC_VALUES, type JsonlSync, jsonlSyncPolicy } from './jsonl-sync-policy.js';

/** Options of {@link createJsonlAuditSink}. */
export interface JsonlAuditSinkOptions {
  /** File to append to; created (with its directory) if missing, mode 0600. */
  readonly path: string;
  /**
   * When lines are synced to the disk (`fdatasync`), decided per event from its `type` and
   * `class`. Default `true`: before the sink reports them written, so an event reported as
   * written survives a crash of the machine; a call's progress (`call.started`, approval
   * events) is appended before `write` returns and synced with the next sync another line
   * asks for (normally the call's end event), or at most `maxSyncDelayMs` later.
   * `'batched'`: every line is appended (one synchronous `write(2)`) before `write` returns
   * and reported written then, so it survives a crash or kill of the process; it is synced in
   * the background at most `maxSyncDelayMs` later, together with the lines written meanwhile,
   * so a crash of the machine can lose the lines of that last moment. `'auto'`: an event of
   * class `read` (of a call that changes nothing) as with `'batched'`, except that such a
   * call's progress is appended together with the next line written, normally the call's
   * last event, or at most `maxSyncDelayMs` later, so a read-only call costs one write; every
   * other event as with `true`. `false`: appended the same way and never synced.
   */
  readonly sync?: JsonlSync;
  /**
   * Longest time, in milliseconds, that a line waits for a sync when no other write asks for
   * one sooner: a call's progress, with `sync: 'batched'` any line, with `sync: 'auto'` a
   * line of class `read`. Default 50.
   */
  readonly maxSyncDelayMs?: number;
  /**
   * Told when a sync that no write waits for fails (`sync: 'batched'`, or `'auto'` with lines
   * of class `read`), once per failed sync. Default: ignore.
   */
  readonly onSyncError?: (error: HintgateError) => void;
  /**
   * When to start a new file (by size, by day, or both), and how many old ones to keep. A
   * rotation happens only between whole lines. Default: never.
   */
  readonly rotate?: AuditRotateOptions;
  /** Told when a rotation fails; writes go on to the current file. Default: ignore. */
  readonly onRotateError?: (error: HintgateError) => void;
  /** Current time in ms since the epoch, for `rotate.daily`. Default `Date.now`. For tests. */
  readonly now?: () => number;
  /** File operations; default {@link nodeAuditFileSystem}. For tests. */
  readonly fileSystem?: AuditFileSystem;
}

/** Default of {@link JsonlAuditSinkOptions.maxSyncDelayMs}. */
export const DEFAULT_MAX_SYNC_DELAY_MS = 50;

/**
 * A durable audit sink: appends one JSON line per event, in the order of the writes, with a
 * {@link GroupCommitAppender}; what each write waits for (the line in the file, or synced to
 * the disk) follows from the event and the `sync` option (see `jsonlSyncPolicy`). Lines
 * written in one turn of the event loop that wait for a sync are appended together, in one
 * write, right before it; lines written while a sync runs share the next one (group commit).
 * `flush` and `close` sync what is left.
 */
export function createJsonlAuditSink(options: JsonlAuditSinkOptions): AuditSink {
  if (typeof options?.path !== 'string' || options.path === '') {
    throw new HintgateError(
      'invalid_option',
      'createJsonlAuditSink needs { path }: the file to append audit events to.',
    );
  }
  const maxSyncDelayMs = options.maxSyncDelayMs ?? DEFAULT_MAX_SYNC_DELAY_MS;
  if (
    typeof maxSyncDelayMs !== 'number' ||
    !(maxSyncDelayMs >= 0) ||
    !Number.isFinite(maxSyncDelayMs)
  ) {
    throw new HintgateError(
      'invalid_option',
      `createJsonlAuditSink: maxSyncDelayMs must be a number of milliseconds, 0 or more, not ${String(maxSyncDelayMs)}.`,
    );
  }
  const sync = options.sync ?? true;
  if (!JSONL_SYNC_VALUES.includes(sync)) {
    throw new HintgateError(
      'invalid_option',
      `createJsonlAuditSink: sync must be true, false, 'batched' or 'auto', not ${JSON.stringify(sync)}.`,
    );
  }
  const rotation = resolveAuditRotation(options.rotate);
  const modeOf = jsonlSyncPolicy(sync);
  const appender = new GroupCommitAppender({
    path: options.path,
    maxSyncDelayMs,
    fileSystem: options.fileSystem ?? nodeAuditFileSystem,
    onSyncError: options.onSyncError,
    rotation,
    onRotateError: options.onRotateError,
    now: options.now,
  });
  return {
    write(event: AuditEvent): Promise<void> {
      let line: string;
      try {
        line = `${JSON.stringify(event)}\n`;
      } catch (error) {
        return Promise.reject(
          new HintgateError(
            'audit_write_failed',
            `Could not write an audit event to ${options.path}: ${(error as Error).message}.`,
            { cause: error },
          ),
        );
      }
      return appender.append(line, modeOf(event));
    },
    flush: () => appender.flush(),
    close: () => appender.close(),
  };
}
