import { describe, expect, it } from 'vitest';
import type { CallResult } from '../tool/index.js';
import { BatchResults } from './batch-results.js';

const result = (id: string): CallResult => ({
  id,
  name: 't',
  status: 'ok',
  isError: false,
  content: [],
  attempts: 1,
  queuedMs: 0,
  runMs: 0,
});

describe('BatchResults', () => {
  it('settles once every slot has its result, in slot order whatever order they came in', async () => {
    const results = new BatchResults(3);
    let settled = false;
    void results.all.then(() => {
      settled = true;
    });
    results.put(2, result('c'));
    results.put(0, result('a'));
    await Promise.resolve();
    expect(settled).toBe(false);
    results.put(1, result('b'));
    expect((await results.all).map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it("ignores a slot's second result", async () => {
    const results = new BatchResults(2);
    results.put(0, result('a'));
    results.put(0, result('again'));
    results.put(1, result('b'));
    expect((await results.all).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('settles at once with no calls', async () => {
    await expect(new BatchResults(0).all).resolves.toEqual([]);
  });
});
