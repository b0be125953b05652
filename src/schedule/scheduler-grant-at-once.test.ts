import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/index.js';
import { AbortScope } from './abort-scope.js';
import type { AdmitRequest } from './admission.js';
import type { Lock } from './lock-mode.js';
import { Scheduler } from './scheduler.js';

const write = (node: string): Lock => ({ node, label: node, mode: 'X' });

const request = (id: string, extra: Partial<AdmitRequest> = {}): AdmitRequest => ({
  id,
  locks: [],
  origin: 'o',
  concurrency: Number.POSITIVE_INFINITY,
  ...extra,
});

describe('Scheduler: a call with nothing in its way is granted as it is admitted', () => {
  it('gives the grant at once, and granted settles with the same grant', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const admission = scheduler.admit(request('a', { locks: [write('k')] }));
    expect(admission.grant).toMatchObject({ ok: true, queuedMs: 0 });
    expect(await admission.granted).toBe(admission.grant);
  });

  it('gives no grant at once to a call that waits for a lock, a slot, a rate limit, its approval, or was cancelled', () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const first = scheduler.admit(request('w1', { locks: [write('k')], concurrency: 1 }));
    expect(first.grant?.ok).toBe(true);
    // Conflicts with w1's lock.
    expect(scheduler.admit(request('w2', { locks: [write('k')] })).grant).toBeUndefined();
    // Origin o is at its cap of 1.
    expect(scheduler.admit(request('c', { concurrency: 1 })).grant).toBeUndefined();
    const limited = { max: 5, windowMs: 1000 };
    expect(
      scheduler.admit(request('r', { origin: 'p', rateLimit: { key: 'p', limit: limited } })).grant,
    ).toBeUndefined();
    expect(
      scheduler.admit(request('ro', { origin: 'p', originRateLimit: { key: 'p', limit: limited } }))
        .grant,
    ).toBeUndefined();
    expect(scheduler.admit(request('h', { origin: 'q', hold: true })).grant).toBeUndefined();
    const cancelled = new AbortScope();
    cancelled.abort('stop');
    expect(scheduler.admit(request('x', { origin: 'q', signal: cancelled })).grant).toBeUndefined();
  });

  it('does not overtake an earlier ready call of its origin that waits for a slot', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const running = scheduler.admit(request('a', { concurrency: 1 }));
    const waiting = scheduler.admit(request('b', { concurrency: 1 }));
    expect(waiting.grant).toBeUndefined();
    const lease = running.grant?.ok === true ? running.grant.lease : undefined;
    lease?.release();
    // b is ready and waits for the pump; c, admitted now with a higher cap, must queue behind it.
    const later = scheduler.admit(request('c', { concurrency: 2 }));
    expect(later.grant).toBeUndefined();
    const order: string[] = [];
    await Promise.all([
      waiting.granted.then(() => order.push('b')),
      later.granted.then(() => order.push('c')),
    ]);
    expect(order).toEqual(['b', 'c']);
  });

  it('frees the lock of a call granted at once on release, so a waiting call goes on', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const first = scheduler.admit(request('w1', { locks: [write('k')] }));
    const second = scheduler.admit(request('w2', { locks: [write('k')] }));
    expect(second.waitsFor).toEqual(['w1']);
    if (first.grant?.ok !== true) throw new Error('w1 should be granted at once');
    first.grant.lease.release();
    expect((await second.granted).ok).toBe(true);
    expect(scheduler.active).toBe(1);
  });
});
