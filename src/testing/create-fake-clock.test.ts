import { describe, expect, it } from 'vitest';
import { createFakeClock } from './create-fake-clock.js';

describe('createFakeClock', () => {
  it('fires timers only when advanced, in due order, at their own time', async () => {
    const clock = createFakeClock({ start: 100 });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    const cancelled = clock.setTimeout(() => fired.push('never'), 15);
    clock.clearTimeout(cancelled);
    expect(clock.pending()).toBe(2);
    await clock.advance(9);
    expect(fired).toEqual([]);
    await clock.advance(11);
    expect(fired).toEqual(['a@110', 'b@120']);
    expect(clock.now()).toBe(120);
    expect(clock.pending()).toBe(0);
  });

  it('lets a promise settled by one timer schedule the next within the same advance', async () => {
    const clock = createFakeClock();
    const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
    const marks: number[] = [];
    const chain = (async () => {
      await sleep(5);
      marks.push(clock.now());
      await sleep(5);
      marks.push(clock.now());
    })();
    await clock.advance(10);
    await chain;
    expect(marks).toEqual([5, 10]);
  });

  it('runAll fires everything; bad input says what to give', async () => {
    const clock = createFakeClock();
    let fired = false;
    clock.setTimeout(() => {
      fired = true;
    }, 60_000);
    await clock.runAll();
    expect([fired, clock.now()]).toEqual([true, 60_000]);
    await expect(clock.advance(-1)).rejects.toThrow(/finite number of milliseconds/);
    const forever = (): void => {
      clock.setTimeout(forever, 1);
    };
    forever();
    await expect(clock.runAll()).rejects.toThrow(/use advance\(ms\)/);
  });
});
