import { describe, expect, it } from 'vitest';
import { IssuedAsks } from './issued-asks.js';

describe('IssuedAsks', () => {
  it('gives an ask back once, for the same tool, arguments (in any key order) and session', () => {
    const asks = new IssuedAsks();
    asks.issue('c1', { name: 'w', arguments: { a: 1, b: [2] }, session: 's' });
    expect(asks.take('c1', { name: 'w', arguments: { a: 1, b: [2] }, session: 't' })).toBe(false);
    expect(asks.take('c1', { name: 'x', arguments: { a: 1, b: [2] }, session: 's' })).toBe(false);
    expect(asks.take('c1', { name: 'w', arguments: { a: 2, b: [2] }, session: 's' })).toBe(false);
    expect(asks.has('c1')).toBe(true);
    expect(asks.take('c1', { name: 'w', arguments: { b: [2], a: 1 }, session: 's' })).toBe(true);
    expect(asks.has('c1')).toBe(false);
    expect(asks.take('c1', { name: 'w', arguments: { a: 1, b: [2] }, session: 's' })).toBe(false);
  });

  it('forgets the oldest asks beyond its limit', () => {
    const asks = new IssuedAsks(2);
    for (const id of ['c1', 'c2', 'c3'])
      asks.issue(id, { name: 'w', arguments: {}, session: undefined });
    expect(['c1', 'c2', 'c3'].map((id) => asks.has(id))).toEqual([false, true, true]);
  });
});
