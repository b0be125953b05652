import { HintgateError } from '../errors/hintgate-error.js';
import type { AuditEvent, AuditSink, AuditWriteOptions } from './audit-event.js';

/** Fans events out to sinks and keeps track of writes still in flight. */
export interface AuditEmitter {
  /** False when there are no sinks: callers may skip building events. */
  readonly enabled: boolean;
  /** True when there are sinks and every one {@link AuditSink.holdsReadOnlyStarts}. */
  readonly holdsReadOnlyStarts: boolean;
  /**
   * Writes an event to every sink; adds pending writes to `pending` when given. `options`
   * go to each sink's `write` (see {@link AuditWriteOptions}).
   */
  emit(event: AuditEvent, pending?: Promise<void>[], options?: AuditWriteOptions): void;
  /**
   * Like `emit`, but writes the event only when the returned function is called, or before
   * any event emitted meanwhile, whichever comes first: a held event never comes after an
   * event emitted later. Events held earlier are written first.
   */
  hold(event: AuditEvent, pending?: Promise<void>[], options?: AuditWriteOptions): () => void;
  /** Waits for `pending` writes; throws HintgateError `audit_write_failed` if one failed. */
  settle(pending: readonly Promise<void>[]): Promise<void>;
  /** Flushes and closes every sink. */
  close(): Promise<void>;
}

/** Creates an {@link AuditEmitter} over `sinks`. */
export function createAuditEmitter(sinks: readonly AuditSink[]): AuditEmitter {
  const background: Promise<void>[] = [];
  const track = (write: Promise<void>, pending: Promise<void>[] | undefined): void => {
    const list = pending ?? background;
    list.push(write);
    // settle() reports a failed write; until a call ends and waits for it, it must not count
    // as an unhandled rejection (which would end the process).
    write.catch(() => {});
    if (pending === undefined) {
      // Events outside a batch (tool.changed) are awaited by close().
      write.then(
        () => background.splice(background.indexOf(write), 1),
        () => {},
      );
    }
  };
  const writeAll = (
    event: AuditEvent,
    pending: Promise<void>[] | undefined,
    options: AuditWriteOptions | undefined,
  ): void => {
    for (const sink of sinks) {
      try {
        const written = options === undefined ? sink.write(event) : sink.write(event, options);
        if (written instanceof Promise) track(written, pending);
      } catch (error) {
        track(Promise.reject(error), pending);
      }
    }
  };
  /** Writes of held events, oldest first. */
  const held: (() => void)[] = [];
  const writeHeld = (): void => {
    for (let write = held.shift(); write !== undefined; write = held.shift()) write();
  };
  return {
    enabled: sinks.length > 0,
    holdsReadOnlyStarts:
      sinks.length > 0 && sinks.every((sink) => sink.holdsReadOnlyStarts === true),
    emit(event, pending, options) {
      if (held.length > 0) writeHeld();
      writeAll(event, pending, options);
    },
    hold(event, pending, options) {
      let written = false;
      const write = (): void => {
        if (written) return;
        written = true;
        writeAll(event, pending, options);
      };
      held.push(write);
      return () => {
        // The events held before this one go first.
        while (!written) (held.shift() as () => void)();
      };
    },
    async settle(pending) {
      if (pending.length === 0) return;
      const outcomes = await Promise.allSettled(pending);
      const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failure !== undefined) {
        const cause: unknown = failure.reason;
        if (cause instanceof HintgateError && cause.code === 'audit_write_failed') throw cause;
        throw new HintgateError(
          'audit_write_failed',
          `An audit sink failed to record an event: ${(cause as Error)?.message ?? String(cause)}.`,
          { cause },
        );
      }
    },
    async close() {
      writeHeld();
      await Promise.allSettled(background);
      await Promise.all(sinks.map((sink) => sink.close?.() ?? sink.flush?.()));
    },
  };
}
