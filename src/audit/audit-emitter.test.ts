import { describe, expect, it, vi } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { createAuditEmitter } from './audit-emitter.js';
import type { AuditEvent, AuditSink } from './audit-event.js';
import { createMemoryAuditSink } from './memory-audit-sink.js';

const event: AuditEvent = { type: 'tool.changed', time: '2025-01-01T00:00:00.000Z', tool: 't' };

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A sink whose writes settle only when the test says so. */
function slowSink() {
  const writes: Deferred[] = [];
  const close = vi.fn(async () => {});
  const sink: AuditSink = {
    write: () => {
      const write = deferred();
      writes.push(write);
      return write.promise;
    },
    close,
  };
  return { sink, writes, close };
}

const isSettled = async (promise: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

describe('createAuditEmitter', () => {
  it('is enabled only with at least one sink', () => {
    expect(createAuditEmitter([]).enabled).toBe(false);
    expect(createAuditEmitter([createMemoryAuditSink()]).enabled).toBe(true);
  });

  it('writes each event to every sink', () => {
    const a = createMemoryAuditSink();
    const b = createMemoryAuditSink();
    createAuditEmitter([a, b]).emit(event);
    expect(a.events).toEqual([event]);
    expect(b.events).toEqual([event]);
  });

  it('hands every sink the event alone: how it stores it is its own business', () => {
    const write = vi.fn();
    const emitter = createAuditEmitter([{ write }, { write }]);
    emitter.emit(event, []);
    expect(write.mock.calls).toEqual([[event], [event]]);
  });

  it('adds only asynchronous writes to pending', () => {
    const slow = slowSink();
    const emitter = createAuditEmitter([createMemoryAuditSink(), slow.sink]);
    const pending: Promise<void>[] = [];
    emitter.emit(event, pending);
    emitter.emit(event, pending);
    expect(pending).toHaveLength(2);
  });

  it('settles once every pending write has', async () => {
    const slow = slowSink();
    const emitter = createAuditEmitter([slow.sink]);
    const pending: Promise<void>[] = [];
    emitter.emit(event, pending);
    emitter.emit(event, pending);
    const settle = emitter.settle(pending);
    slow.writes[0]?.resolve();
    expect(await isSettled(settle)).toBe(false);
    slow.writes[1]?.resolve();
    await expect(settle).resolves.toBeUndefined();
  });

  it('resolves settle of nothing at once', async () => {
    await expect(createAuditEmitter([]).settle([])).resolves.toBeUndefined();
  });

  it('rethrows a failed write as audit_write_failed with the cause, after all writes settle', async () => {
    const slow = slowSink();
    const emitter = createAuditEmitter([slow.sink]);
    const pending: Promise<void>[] = [];
    emitter.emit(event, pending);
    emitter.emit(event, pending);
    const disk = new Error('disk full');
    slow.writes[0]?.reject(disk);
    const settle = emitter.settle(pending);
    expect(await isSettled(settle)).toBe(false);
    slow.writes[1]?.resolve();
    const failure = await settle.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HintgateError);
    expect(failure).toMatchObject({ code: 'audit_write_failed' });
    expect((failure as Error).message).toContain('disk full');
    expect((failure as Error).cause).toBe(disk);
  });

  it('passes an audit_write_failed error of a sink through as it is', async () => {
    const own = new HintgateError('audit_write_failed', 'The audit log /x is closed.');
    const emitter = createAuditEmitter([{ write: () => Promise.reject(own) }]);
    const pending: Promise<void>[] = [];
    emitter.emit(event, pending);
    await expect(emitter.settle(pending)).rejects.toBe(own);
  });

  it('wraps a HintgateError of another code as audit_write_failed', async () => {
    const other = new HintgateError('invalid_option', 'bad sink option');
    const emitter = createAuditEmitter([{ write: () => Promise.reject(other) }]);
    const pending: Promise<void>[] = [];
    emitter.emit(event, pending);
    await expect(emitter.settle(pending)).rejects.toMatchObject({
      code: 'audit_write_failed',
      cause: other,
    });
  });

  it('handles a sink that throws synchronously: later sinks still write, settle fails', async () => {
    const memory = createMemoryAuditSink();
    const throwing: AuditSink = {
      write: () => {
        throw 'no space';
      },
    };
    const emitter = createAuditEmitter([throwing, memory]);
    const pending: Promise<void>[] = [];
    expect(() => emitter.emit(event, pending)).not.toThrow();
    expect(memory.events).toEqual([event]);
    await expect(emitter.settle(pending)).rejects.toMatchObject({
      code: 'audit_write_failed',
      message: expect.stringContaining('no space'),
    });
  });

  it('swallows failures of writes outside a batch', async () => {
    const throwing: AuditSink = {
      write: () => {
        throw new Error('boom');
      },
    };
    const rejecting: AuditSink = { write: () => Promise.reject(new Error('boom')) };
    const emitter = createAuditEmitter([throwing, rejecting]);
    expect(() => emitter.emit(event)).not.toThrow();
    await expect(emitter.close()).resolves.toBeUndefined();
  });

  it('waits on close for writes outside a batch, then closes every sink', async () => {
    const slow = slowSink();
    const flushOnly = { write: () => {}, flush: vi.fn(async () => {}) };
    const emitter = createAuditEmitter([slow.sink, flushOnly, createMemoryAuditSink()]);
    emitter.emit(event);
    const closing = emitter.close();
    expect(await isSettled(closing)).toBe(false);
    expect(slow.close).not.toHaveBeenCalled();
    slow.writes[0]?.resolve();
    await closing;
    expect(slow.close).toHaveBeenCalledTimes(1);
    expect(flushOnly.flush).toHaveBeenCalledTimes(1);
  });

  it('does not wait on close for writes that already finished', async () => {
    const slow = slowSink();
    const emitter = createAuditEmitter([slow.sink]);
    emitter.emit(event);
    slow.writes[0]?.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    emitter.emit(event);
    const closing = emitter.close();
    expect(await isSettled(closing)).toBe(false);
    slow.writes[1]?.resolve();
    await expect(closing).resolves.toBeUndefined();
  });
});

describe('a write that fails before anyone waits for it', () => {
  it('is reported by settle later, not as an unhandled rejection meanwhile', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing: AuditSink = { write: () => Promise.reject(new Error('disk full')) };
      const emitter = createAuditEmitter([failing]);
      const pending: Promise<void>[] = [];
      emitter.emit(event, pending);
      // A call runs for a while before it waits for its events.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      await expect(emitter.settle(pending)).rejects.toMatchObject({
        code: 'audit_write_failed',
        message: expect.stringContaining('disk full'),
      });
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
