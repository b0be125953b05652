import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AbortScope } from '../schedule/abort-scope.js';
import { systemClock } from '../schedule/clock.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { CallAbort } from './call-abort.js';
import { createRuntime } from './create-runtime.js';

describe('CallAbort as an abort watch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('arms its deadline when a listener is added, and calls the listener with a TimeoutError reason', () => {
    const scope = new CallAbort({ clock: systemClock, batch: undefined, timeoutMs: 50 });
    let reason: unknown;
    const listener = vi.fn(() => {
      reason = scope.reason;
    });
    scope.addEventListener('abort', listener);
    vi.advanceTimersByTime(49);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(listener).toHaveBeenCalledOnce();
    expect(scope.timedOut).toBe(true);
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('TimeoutError');
  });

  it("calls its listeners with the batch's reason when the batch aborts, and its signal aborts too", () => {
    const batch = new AbortScope();
    const scope = new CallAbort({ clock: systemClock, batch, timeoutMs: 1000 });
    const listener = vi.fn();
    scope.addEventListener('abort', listener);
    const { signal } = scope;
    batch.abort('closing');
    expect(listener).toHaveBeenCalledOnce();
    expect(scope.reason).toBe('closing');
    expect(signal.reason).toBe('closing');
  });

  it('calls no removed listener, none added after the abort, and stops watching once disposed', () => {
    const batch = new AbortScope();
    const scope = new CallAbort({ clock: systemClock, batch, timeoutMs: 1000 });
    const removed = vi.fn();
    scope.addEventListener('abort', removed);
    scope.removeEventListener('abort', removed);
    scope.dispose();
    batch.abort('closing');
    vi.advanceTimersByTime(2000);
    expect(removed).not.toHaveBeenCalled();
    expect(scope.aborted).toBe(false);
    const aborted = new CallAbort({ clock: systemClock, batch: batch, timeoutMs: 1000 });
    const late = vi.fn();
    aborted.addEventListener('abort', late);
    expect(aborted.aborted).toBe(true);
    expect(late).not.toHaveBeenCalled();
  });
});

describe("a tool context's cancellation", () => {
  it('is its signal alone, aborting with the batch; the context carries no hidden keys', async () => {
    let signal: AbortSignal | undefined;
    let symbols: symbol[] = [];
    const tool = defineTool({
      name: 'wait',
      description: 'Waits to be cancelled',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      execute: (_args, context) => {
        symbols = Object.getOwnPropertySymbols(context);
        signal = context.signal;
        // Never settles: the runtime ends the call when its signal aborts.
        return new Promise(() => {});
      },
    });
    const runtime = createRuntime({ mode: 'yolo', tools: [tool] });
    const batch = new AbortController();
    const results = runtime.execute([{ id: '1', name: 'wait', arguments: {} }], {
      signal: batch.signal,
    });
    await vi.waitFor(() => expect(signal).toBeDefined());
    expect(symbols).toEqual([]);
    batch.abort('enough');
    const [result] = await results;
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe('enough');
    expect(result?.error?.code).toBe('cancelled');
  });
});
