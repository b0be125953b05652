import { describe, expect, it, vi } from 'vitest';
import { AbortScope } from './abort-scope.js';

describe('AbortScope', () => {
  it('calls each listener once, in the order added, and none added twice', () => {
    const scope = new AbortScope();
    const order: string[] = [];
    const first = (): void => {
      order.push('first');
    };
    scope.addEventListener('abort', first);
    scope.addEventListener('abort', first);
    scope.addEventListener('abort', () => order.push('second'));
    scope.abort('why');
    scope.abort('again');
    expect(order).toEqual(['first', 'second']);
    expect(scope.aborted).toBe(true);
    expect(scope.reason).toBe('why');
  });

  it('forgets a removed listener and never calls one added after the abort', () => {
    const scope = new AbortScope();
    const removed = vi.fn();
    scope.addEventListener('abort', removed);
    scope.removeEventListener('abort', removed);
    scope.abort();
    const late = vi.fn();
    scope.addEventListener('abort', late);
    expect(removed).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });

  it('does not call a listener that an earlier one removed while they were called, as AbortSignal does not', () => {
    const scope = new AbortScope();
    const second = vi.fn();
    scope.addEventListener('abort', () => scope.removeEventListener('abort', second));
    scope.addEventListener('abort', second);
    scope.abort();
    expect(second).not.toHaveBeenCalled();
  });

  it('aborts with an AbortError DOMException by default, as AbortController does', () => {
    const scope = new AbortScope();
    scope.abort();
    expect(scope.reason).toBeInstanceOf(DOMException);
    expect((scope.reason as DOMException).name).toBe('AbortError');
  });

  it('makes its AbortSignal on first use, aborted with the same reason whether made before or after', () => {
    const before = new AbortScope();
    const signal = before.signal;
    expect(before.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    before.abort('stop');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');
    const after = new AbortScope();
    after.abort('late');
    expect(after.signal.aborted).toBe(true);
    expect(after.signal.reason).toBe('late');
  });

  it('calls the other listeners when one throws, and rethrows its error on its own', async () => {
    const scope = new AbortScope();
    const after = vi.fn();
    const thrown = new Error('listener failed');
    scope.addEventListener('abort', () => {
      throw thrown;
    });
    scope.addEventListener('abort', after);
    const seen = new Promise<unknown>((resolve) => {
      const listeners = process.listeners('uncaughtException');
      process.removeAllListeners('uncaughtException');
      process.once('uncaughtException', (error) => {
        for (const listener of listeners) process.on('uncaughtException', listener);
        resolve(error);
      });
    });
    scope.abort();
    expect(after).toHaveBeenCalledOnce();
    await expect(seen).resolves.toBe(thrown);
  });
});

describe('AbortScope.follow', () => {
  it('aborts with the followed signal, at once when it has aborted, and stops following on request', () => {
    const controller = new AbortController();
    const scope = new AbortScope();
    scope.follow(controller.signal);
    controller.abort('stop');
    expect(scope.aborted).toBe(true);
    expect(scope.reason).toBe('stop');

    const early = new AbortScope();
    early.follow(AbortSignal.abort('already'));
    expect(early.reason).toBe('already');

    const other = new AbortController();
    const detached = new AbortScope();
    const unfollow = detached.follow(other.signal);
    unfollow();
    other.abort();
    expect(detached.aborted).toBe(false);
  });
});
