import { describe, expect, it } from 'vitest';
import { ArrivalOrder } from './arrival-order.js';

describe('ArrivalOrder', () => {
  it('admits in the order places were taken, whatever order the calls were prepared in', () => {
    const order = new ArrivalOrder();
    const admitted: string[] = [];
    expect(order.idle).toBe(true);
    const first = order.take();
    const second = order.take();
    const third = order.take();
    expect(order.idle).toBe(false);
    third(() => admitted.push('third'));
    second(() => admitted.push('second'));
    expect(admitted).toEqual([]);
    first(() => admitted.push('first'));
    expect(admitted).toEqual(['first', 'second', 'third']);
    expect(order.idle).toBe(true);
  });

  it('keeps the order when an admission fills a later place while the queue drains', () => {
    const order = new ArrivalOrder();
    const admitted: string[] = [];
    const first = order.take();
    const second = order.take();
    const third = order.take();
    third(() => admitted.push('third'));
    first(() => {
      admitted.push('first');
      second(() => admitted.push('second'));
    });
    expect(admitted).toEqual(['first', 'second', 'third']);
    expect(order.idle).toBe(true);
    const fourth = order.take();
    fourth(() => admitted.push('fourth'));
    expect(admitted).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('puts places taken first ahead of the calls waiting, in the order they were taken', () => {
    const order = new ArrivalOrder();
    const admitted: string[] = [];
    const batch = order.takeFirst();
    const other = order.take();
    other(() => admitted.push('other'));
    expect(admitted).toEqual([]);
    batch(() => {
      admitted.push('batch part 1');
      // While it holds its turn, the batch keeps the next places ahead of `other`.
      const second = order.takeFirst(0);
      const third = order.takeFirst(1);
      third(() => admitted.push('batch part 3'));
      second(() => admitted.push('batch part 2'));
    });
    expect(admitted).toEqual(['batch part 1', 'batch part 2', 'batch part 3', 'other']);
    expect(order.idle).toBe(true);
  });
});
