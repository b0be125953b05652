import { describe, expect, it } from 'vitest';
import { batchIdSet, idHash, SET_UP_TO } from './batch-ids.js';

/** Adds every id in order; the first repeat found as [earlier, index], else undefined. */
function firstRepeat(
  ids: readonly string[],
  options?: { seed?: number; maxProbes?: number },
): [number, number] | undefined {
  const seen = batchIdSet(ids.length, (index) => ids[index] as string, options);
  try {
    for (let index = 0; index < ids.length; index += 1) {
      const earlier = seen.add(ids[index] as string, index);
      if (earlier >= 0) return [earlier, index];
    }
    return undefined;
  } finally {
    seen.release();
  }
}

const distinct = (count: number, prefix = 'call_') =>
  Array.from({ length: count }, (_, n) => `${prefix}${n}`);

describe('batch ids', () => {
  it('finds a repeated id and the call that had it first, in small and big batches', () => {
    for (const size of [2, 50, SET_UP_TO, SET_UP_TO + 1, 30_000]) {
      const ids = distinct(size);
      expect(firstRepeat(ids)).toBeUndefined();
      const repeated = [...ids];
      repeated[size - 1] = ids[Math.floor(size / 3)] as string;
      expect(firstRepeat(repeated)).toEqual([Math.floor(size / 3), size - 1]);
    }
  });

  it('tells ids apart that differ in one character or only in length', () => {
    const ids = [
      ...distinct(5_000, 'x'),
      'a',
      'a\u0000',
      'b',
      'ab',
      'ba',
      '\u{1F600}',
      '\u{1F601}',
    ];
    expect(firstRepeat(ids)).toBeUndefined();
    expect(firstRepeat([...ids, 'ab'])).toEqual([ids.indexOf('ab'), ids.length]);
  });

  it('starts each big batch on an empty table, after one that repeated an id', () => {
    const ids = distinct(10_000);
    expect(firstRepeat([...ids, 'call_5'])).toEqual([5, 10_000]);
    // The same ids again: had the table kept the first batch's, every id would repeat.
    expect(firstRepeat(ids)).toBeUndefined();
    expect(firstRepeat(distinct(6_000))).toBeUndefined();
  });

  it('goes on with a set, and finds repeats, when ids probe too far', () => {
    // With no probe allowed past the first slot, the first collision moves the ids to a set.
    const ids = distinct(20_000);
    expect(firstRepeat(ids, { seed: 1, maxProbes: 0 })).toBeUndefined();
    expect(firstRepeat([...ids, 'call_19999'], { seed: 1, maxProbes: 0 })).toEqual([
      19_999, 20_000,
    ]);
    expect(firstRepeat(['a', 'b', 'a'], { seed: 1, maxProbes: 0 })).toEqual([0, 2]);
  });

  it('hashes with its seed, never to 0', () => {
    expect(idHash('call_1', 1)).not.toBe(idHash('call_1', 2));
    expect(idHash('call_1', 1)).toBe(idHash('call_1', 1));
    for (const id of distinct(20_000)) expect(idHash(id, 0)).not.toBe(0);
  });
});
