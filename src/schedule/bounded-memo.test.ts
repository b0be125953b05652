import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo.js';

describe('boundedMemo', () => {
  it('remembers by outer and inner key from the second offer, and starts over once it holds its limit', () => {
    const memo = boundedMemo<string | undefined, number>(2);
    memo.set('a', 'x', 1);
    expect(memo.get('a', 'x')).toBeUndefined();
    memo.set('a', 'x', 1);
    memo.set(undefined, 'x', 2);
    memo.set(undefined, 'x', 2);
    expect(memo.get('a', 'x')).toBe(1);
    expect(memo.get(undefined, 'x')).toBe(2);
    expect(memo.get('a', 'y')).toBeUndefined();
    memo.set('b', 'z', 3);
    memo.set('b', 'z', 3);
    expect(memo.get('a', 'x')).toBeUndefined();
    expect(memo.get(undefined, 'x')).toBeUndefined();
    expect(memo.get('b', 'z')).toBe(3);
  });

  it('keeps what it remembers through any number of keys offered once', () => {
    const memo = boundedMemo<string, number>(4);
    memo.set('o', 'hot', 1);
    memo.set('o', 'hot', 1);
    for (let n = 0; n < 1000; n += 1) memo.set('o', `once ${n}`, n);
    expect(memo.get('o', 'hot')).toBe(1);
    expect(memo.get('o', 'once 999')).toBeUndefined();
  });
});
