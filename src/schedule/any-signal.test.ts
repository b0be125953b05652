import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { anySignal, anySignalByListeners } from './any-signal.js';

const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

const nativeAny = AbortSignal.any;
afterEach(() => {
  AbortSignal.any = nativeAny;
});

/** Removes `AbortSignal.any`, as on Node 20.0 to 20.2, until the test ends. */
const withoutNativeAny = (): void => {
  Reflect.deleteProperty(AbortSignal, 'any');
  expect(typeof AbortSignal.any).toBe('undefined');
};

describe.each([
  ['anySignal', anySignal],
  ['anySignalByListeners', anySignalByListeners],
])('%s', (_name, combine) => {
  it('aborts with the reason of the first signal that aborts', () => {
    const a = new AbortController();
    const b = new AbortController();
    const { signal } = combine([a.signal, b.signal]);
    expect(signal.aborted).toBe(false);
    b.abort('b first');
    a.abort('a later');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('b first');
  });

  it('is aborted at once when a signal already is', () => {
    const a = new AbortController();
    a.abort('gone');
    const { signal } = combine([new AbortController().signal, a.signal]);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('gone');
  });

  it('stays quiet after dispose', () => {
    const a = new AbortController();
    const combined = combine([a.signal]);
    combined.dispose();
    combined.dispose();
    // The native signal may still follow (it holds its source weakly); the fallback must not.
    if (combine === anySignalByListeners) {
      a.abort('late');
      expect(combined.signal.aborted).toBe(false);
    }
  });
});

describe('anySignalByListeners', () => {
  it('leaves no listener on its signals once one aborts', () => {
    const long = new AbortController();
    const short = new AbortController();
    const { signal } = anySignalByListeners([long.signal, short.signal]);
    expect(listeners(long.signal)).toBe(1);
    expect(listeners(short.signal)).toBe(1);
    short.abort('timed out');
    expect(signal.reason).toBe('timed out');
    expect(listeners(long.signal)).toBe(0);
    expect(listeners(short.signal)).toBe(0);
  });

  it('leaves no listener on its signals once disposed', () => {
    const long = new AbortController();
    for (let i = 0; i < 100; i++) {
      anySignalByListeners([long.signal, new AbortController().signal]).dispose();
    }
    expect(listeners(long.signal)).toBe(0);
  });

  it('adds no listener when a signal is aborted already', () => {
    const long = new AbortController();
    const done = new AbortController();
    done.abort();
    anySignalByListeners([long.signal, done.signal]);
    expect(listeners(long.signal)).toBe(0);
  });
});

describe('anySignal on a Node without AbortSignal.any', () => {
  it('falls back to listeners, removed on dispose', () => {
    withoutNativeAny();
    const long = new AbortController();
    const combined = anySignal([long.signal]);
    expect(listeners(long.signal)).toBe(1);
    combined.dispose();
    expect(listeners(long.signal)).toBe(0);
  });

  it('uses AbortSignal.any where present (no listener of its own)', () => {
    const long = new AbortController();
    const combined = anySignal([long.signal]);
    expect(listeners(long.signal)).toBe(0);
    long.abort('stop');
    expect(combined.signal.reason).toBe('stop');
  });
});
