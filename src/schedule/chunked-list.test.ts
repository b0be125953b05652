import { describe, expect, it } from 'vitest';
import { CHUNK, ChunkedList } from './chunked-list.js';

describe('ChunkedList', () => {
  it('reads back every element across pieces, and gives them as one array', () => {
    const list = new ChunkedList<number>();
    const size = CHUNK * 2 + 5;
    for (let n = 0; n < size; n += 1) list.push(n * 3);
    expect(list.length).toBe(size);
    for (const index of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, size - 1]) {
      expect(list.at(index)).toBe(index * 3);
    }
    const all = list.finish();
    expect(all).toHaveLength(size);
    expect(all.every((value, index) => value === index * 3)).toBe(true);
  });

  it('gives a short list as it is, and an empty one as an empty array', () => {
    const list = new ChunkedList<string>();
    expect(list.finish()).toEqual([]);
    const short = new ChunkedList<string>();
    short.push('a');
    short.push('b');
    expect(short.at(1)).toBe('b');
    expect(short.finish()).toEqual(['a', 'b']);
  });
});
