import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Grant, Lease } from './admission.js';
import type { Lock } from './lock-mode.js';
import { Scheduler } from './scheduler.js';

/** Lets queued microtasks (the scheduler's pump) and promise callbacks run. */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One step of a run: admit a call, release a running one, or cancel a waiting one. */
type Step =
  | { readonly kind: 'admit'; readonly origin: number; readonly node: number | undefined }
  | { readonly kind: 'release'; readonly pick: number }
  | { readonly kind: 'cancel'; readonly pick: number };

const CAPS = [1, 2, 3];

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('admit' as const),
      origin: fc.integer({ min: 0, max: CAPS.length - 1 }),
      node: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
);

interface ModelCall {
  readonly seq: number;
  readonly origin: number;
  readonly node: number | undefined;
  readonly controller: AbortController;
  state: 'queued' | 'running' | 'done';
  grant: Grant | undefined;
}

/**
 * The expected running set after the scheduler settles: a call is ready when every earlier
 * call holding its node (X) is done; each origin runs its earliest ready calls up to its cap,
 * keeping the ones already running.
 */
function expectedRunning(calls: readonly ModelCall[]): Set<number> {
  const running = new Set(calls.filter((c) => c.state === 'running').map((c) => c.seq));
  for (const [origin, cap] of CAPS.entries()) {
    let count = calls.filter((c) => c.origin === origin && c.state === 'running').length;
    for (const call of calls) {
      if (count >= cap) break;
      if (call.origin !== origin || call.state !== 'queued') continue;
      const blocked = calls.some(
        (earlier) =>
          earlier.seq < call.seq &&
          earlier.node !== undefined &&
          earlier.node === call.node &&
          earlier.state !== 'done',
      );
      if (blocked) continue;
      running.add(call.seq);
      count += 1;
    }
  }
  return running;
}

describe('Scheduler ready queues', () => {
  it('gives each capped origin its earliest ready calls, never more than its cap', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        const scheduler = new Scheduler();
        const calls: ModelCall[] = [];
        const leases = new Map<number, Lease>();
        for (const s of steps) {
          if (s.kind === 'admit') {
            const controller = new AbortController();
            const call: ModelCall = {
              seq: calls.length,
              origin: s.origin,
              node: s.node,
              controller,
              state: 'queued',
              grant: undefined,
            };
            calls.push(call);
            const locks: Lock[] =
              s.node === undefined ? [] : [{ node: `n${s.node}`, label: `n${s.node}`, mode: 'X' }];
            const admission = scheduler.admit({
              id: `c${call.seq}`,
              locks,
              origin: `o${s.origin}`,
              concurrency: CAPS[s.origin] as number,
              signal: controller.signal,
            });
            void admission.granted.then((grant) => {
              call.grant = grant;
              if (grant.ok) leases.set(call.seq, grant.lease);
            });
          } else {
            const state = s.kind === 'release' ? 'running' : 'queued';
            const pool = calls.filter((c) => c.state === state);
            const chosen = pool[s.pick % Math.max(1, pool.length)];
            if (chosen !== undefined) {
              if (s.kind === 'release') leases.get(chosen.seq)?.release();
              else chosen.controller.abort();
              chosen.state = 'done';
            }
          }
          const expected = expectedRunning(calls);
          await flush();
          for (const call of calls) {
            if (call.state === 'queued' && call.grant?.ok === true) call.state = 'running';
          }
          const running = new Set(calls.filter((c) => c.state === 'running').map((c) => c.seq));
          expect([...running].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
          for (const call of calls) {
            if (call.state === 'done' && call.grant !== undefined && !call.grant.ok) {
              expect(call.grant.reason).toBe('cancelled');
            }
          }
        }
      }),
      { numRuns: 200, seed: 20 },
    );
  });

  it('grants 3000 ready calls of one origin capped at 2 in admission order', async () => {
    const scheduler = new Scheduler();
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const admissions = Array.from({ length: 3000 }, (_, i) =>
      scheduler.admit({ id: `c${i}`, locks: [], origin: 'o', concurrency: 2 }),
    );
    await Promise.all(
      admissions.map(async (admission, i) => {
        const grant = await admission.granted;
        if (!grant.ok) throw new Error(`call ${i} was refused: ${grant.message}`);
        running += 1;
        most = Math.max(most, running);
        order.push(i);
        await Promise.resolve();
        running -= 1;
        grant.lease.release();
      }),
    );
    expect(most).toBe(2);
    expect(order).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(scheduler.active).toBe(0);
  });
});
