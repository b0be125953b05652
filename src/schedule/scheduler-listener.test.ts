import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/index.js';
import { AbortScope } from './abort-scope.js';
import type { AdmitRequest, Grant, GrantListener } from './admission.js';
import type { Lock } from './lock-mode.js';
import { Scheduler } from './scheduler.js';

const write = (node: string): Lock => ({ node, label: node, mode: 'X' });

/** A listener that records what it is told, by waiter. */
const recorder = () => {
  const told: [string, Grant][] = [];
  const listener: GrantListener<string> = {
    granted: (waiter, grant) => told.push([waiter, grant]),
  };
  return { told, listener };
};

const request = (
  id: string,
  listener: GrantListener<string>,
  extra: Partial<AdmitRequest<string>> = {},
): AdmitRequest<string> => ({
  id,
  locks: [],
  origin: 'o',
  concurrency: Number.POSITIVE_INFINITY,
  listener,
  waiter: id,
  ...extra,
});

const leaseOf = (grant: Grant | undefined) => {
  if (grant?.ok !== true) throw new Error('not granted');
  return grant.lease;
};

describe('Scheduler: a listener told of grants instead of a promise per call', () => {
  it('tells the waiting calls of a capped origin in admission order, each once its slot is free, after the grant and not during it', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const { told, listener } = recorder();
    const first = scheduler.admit(request('a', listener, { concurrency: 1 }));
    for (const id of ['b', 'c', 'd']) scheduler.admit(request(id, listener, { concurrency: 1 }));
    // Granted as it was admitted: its caller reads `grant`; the listener is not told.
    expect(first.grant?.ok).toBe(true);
    let lease = leaseOf(first.grant);
    for (const expected of ['b', 'c', 'd']) {
      lease.release();
      expect(told.length).toBe(['b', 'c', 'd'].indexOf(expected));
      await new Promise((resolve) => setImmediate(resolve));
      const [waiter, grant] = told.at(-1) as [string, Grant];
      expect(waiter).toBe(expected);
      lease = leaseOf(grant);
    }
    lease.release();
    expect(scheduler.active).toBe(0);
  });

  it('tells a call cancelled while it waits, and one cancelled as it is admitted, with its refusal', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const { told, listener } = recorder();
    const holder = scheduler.admit(request('w1', listener, { locks: [write('k')] }));
    const stop = new AbortScope();
    scheduler.admit(request('w2', listener, { locks: [write('k')], signal: stop }));
    const stopped = new AbortScope();
    stopped.abort('stop');
    scheduler.admit(request('x', listener, { signal: stopped }));
    stop.abort('stop');
    expect(told).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(told.map(([waiter, grant]) => [waiter, grant.ok, !grant.ok && grant.reason])).toEqual([
      ['x', false, 'cancelled'],
      ['w2', false, 'cancelled'],
    ]);
    leaseOf(holder.grant).release();
  });

  it('settles `granted` too when it is read, with the grant the listener is told', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const { told, listener } = recorder();
    const first = scheduler.admit(request('a', listener, { locks: [write('k')] }));
    const second = scheduler.admit(request('b', listener, { locks: [write('k')] }));
    const granted = second.granted;
    leaseOf(first.grant).release();
    const grant = await granted;
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([['b', grant]]);
    leaseOf(grant).release();
  });
});
