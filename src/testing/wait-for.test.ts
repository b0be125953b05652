import { describe, expect, it } from 'vitest';
import { waitFor } from './wait-for.js';

describe('waitFor', () => {
  it('resolves to the first value that is not undefined, null or false', async () => {
    const answers = [undefined, null, false, 0, 'late'];
    let tries = 0;
    expect(await waitFor(() => answers[tries++], { intervalMs: 0 })).toBe(0);
    expect(tries).toBe(4);
    let n = 0;
    expect(await waitFor(async () => (++n >= 3 ? `after ${n}` : undefined), 5_000)).toBe('after 3');
  });

  it('fails after its limit, naming what it waited for, and at once when the check throws', async () => {
    await expect(waitFor(() => false, { timeoutMs: 50, what: 'the ready line' })).rejects.toThrow(
      'the ready line not met within 50 ms',
    );
    await expect(
      waitFor(() => {
        throw new Error('broken check');
      }),
    ).rejects.toThrow('broken check');
  });

  it('refuses a timeout that is not a number of milliseconds', async () => {
    await expect(waitFor(() => true, { timeoutMs: -1 })).rejects.toThrow(
      /timeoutMs is -1; use a number of milliseconds/,
    );
    await expect(waitFor(() => true, Number.NaN)).rejects.toThrow(/timeoutMs is null/);
  });
});
