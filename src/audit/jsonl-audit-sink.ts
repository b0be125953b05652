import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HintgateError } from '../errors/hintgate-error.js';
import type { AuditEvent, AuditSink } from './audit-event.js';

/** Options of {@link createJsonlAuditSink}. */
export interface JsonlAuditSinkOptions {
  /** File to append to; created (with its directory) if missing, mode 0600. */
  readonly path: string;
  /**
   * Sync each group of writes to the disk (`fdatasync`) before reporting them written.
   * Default true: an event reported as written survives a crash.
   */
  readonly sync?: boolean;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A durable audit sink: appends one JSON line per event. Writes made together are grouped
 * into one append and one sync, and `write` resolves only once its line is on disk.
 */
export function createJsonlAuditSink(options: JsonlAuditSinkOptions): AuditSink {
  if (typeof options?.path !== 'string' || options.path === '') {
    throw new HintgateError(
      'invalid_option',
      'createJsonlAuditSink needs { path }: the file to append audit events to.',
    );
  }
  const sync = options.sync ?? true;
  let lines: string[] = [];
  let waiters: Waiter[] = [];
  let writing: Promise<void> | undefined;
  let closed = false;
  const handle = (async () => {
    await mkdir(dirname(options.path), { recursive: true });
    return open(options.path, 'a', 0o600);
  })();
  // Surface an open failure on the first write, not as an unhandled rejection.
  handle.catch(() => {});

  const drain = async (): Promise<void> => {
    while (lines.length > 0) {
      const batch = lines.join('');
      const batchWaiters = waiters;
      lines = [];
      waiters = [];
      try {
        const file = await handle;
        await file.appendFile(batch, 'utf8');
        if (sync) await file.datasync();
        for (const waiter of batchWaiters) waiter.resolve();
      } catch (error) {
        const failure = new HintgateError(
          'audit_write_failed',
          `Could not append to the audit log ${options.path}: ${(error as Error).message}. Check that its directory is writable and the disk has space.`,
          { cause: error },
        );
        for (const waiter of batchWaiters) waiter.reject(failure);
      }
    }
    writing = undefined;
  };

  return {
    write(event: AuditEvent): Promise<void> {
      if (closed) {
        return Promise.reject(
          new HintgateError('audit_write_failed', `The audit log ${options.path} is closed.`),
        );
      }
      return new Promise<void>((resolve, reject) => {
        lines.push(`${JSON.stringify(event)}\n`);
        waiters.push({ resolve, reject });
        writing ??= Promise.resolve().then(drain);
      });
    },
    async flush() {
      while (writing !== undefined) await writing;
    },
    async close() {
      closed = true;
      while (writing !== undefined) await writing;
      try {
        await (await handle).close();
      } catch {
        // Nothing was ever written when the file could not be opened.
      }
    },
  };
}
