import { describe, expect, it } from 'vitest';
import { SeqHeap } from './seq-heap.js';

describe('SeqHeap', () => {
  it('pops in seq order whatever the push order', () => {
    // A seeded shuffle of 0..999, pushed with pops mixed in.
    let state = 7;
    const next = (): number => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state;
    };
    const seqs = Array.from({ length: 1000 }, (_, i) => i);
    for (let i = seqs.length - 1; i > 0; i -= 1) {
      const j = next() % (i + 1);
      [seqs[i], seqs[j]] = [seqs[j] as number, seqs[i] as number];
    }
    const heap = new SeqHeap<{ seq: number }>();
    const popped: number[] = [];
    const held = new Set<number>();
    for (const [i, seq] of seqs.entries()) {
      heap.push({ seq });
      held.add(seq);
      if (i % 3 === 2) {
        const top = heap.pop()?.seq as number;
        expect(top).toBe(Math.min(...held));
        held.delete(top);
        popped.push(top);
      }
    }
    expect(heap.size).toBe(held.size);
    while (heap.size > 0) {
      expect(heap.peek()?.seq).toBe(Math.min(...held));
      const top = heap.pop()?.seq as number;
      held.delete(top);
      popped.push(top);
    }
    expect(popped.sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(heap.pop()).toBeUndefined();
    expect(heap.peek()).toBeUndefined();
  });
});
