import { HintgateError } from '../errors/index.js';
import type { AuditEvent, AuditSink } from './audit-event.js';

/** Fans events out to sinks and keeps track of writes still in flight. */
export interface AuditEmitter {
  /** False when there are no sinks: callers may skip building events. */
  readonly enabled: boolean;
  /** Writes an event to every sink; adds pending writes to `pending` when given. */
  emit(event: AuditEvent, pending?: Promise<void>[]): void;
  /** Waits for `pending` writes; throws HintgateError `audit_write_failed` if one failed. */
  settle(pending: readonly Promise<void>[]): Promise<void>;
  /** Flushes and closes every sink. */
  close(): Promise<void>;
}

const noop = (): void => {};

/** Throws HintgateError `audit_write_failed` for the first write of `outcomes` that failed. */
const firstFailure = (outcomes: readonly PromiseSettledResult<void>[]): void => {
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure === undefined) return;
  const cause: unknown = failure.reason;
  if (cause instanceof HintgateError && cause.code === 'audit_write_failed') throw cause;
  throw new HintgateError(
    'audit_write_failed',
    `An audit sink failed to record an event: ${(cause as Error)?.message ?? String(cause)}.`,
    { cause },
  );
};

/** Creates an {@link AuditEmitter} over `sinks`. */
export function createAuditEmitter(sinks: readonly AuditSink[]): AuditEmitter {
  /** Writes of events outside a batch (tool.changed), until they end: close() waits for them. */
  const background = new Set<Promise<void>>();
  const track = (write: Promise<void>, pending: Promise<void>[] | undefined): void => {
    // settle() reports a failed write; until a call ends and waits for it, it must not count
    // as an unhandled rejection (which would end the process).
    write.catch(noop);
    if (pending !== undefined) {
      pending.push(write);
      return;
    }
    background.add(write);
    const done = (): void => {
      background.delete(write);
    };
    write.then(done, done);
  };
  return {
    enabled: sinks.length > 0,
    emit(event, pending) {
      for (const sink of sinks) {
        try {
          const written = sink.write(event);
          if (written instanceof Promise) track(written, pending);
        } catch (error) {
          track(Promise.reject(error), pending);
        }
      }
    },
    settle(pending) {
      if (pending.length === 0) return Promise.resolve();
      // One Promise.all while every write succeeds (each call's end); only a failure pays for
      // allSettled, which finds the first failed write in the order they were made.
      return Promise.all(pending).then(noop, () => Promise.allSettled(pending).then(firstFailure));
    },
    async close() {
      await Promise.allSettled([...background]);
      await Promise.all(sinks.map((sink) => sink.close?.() ?? sink.flush?.()));
    },
  };
}
