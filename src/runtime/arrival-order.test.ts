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
});
