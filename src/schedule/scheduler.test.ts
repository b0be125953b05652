import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/index.js';
import type { RateLimit } from '../tool/tool.js';
import { AbortScope, type AbortWatch } from './abort-scope.js';
import type { Admission, AdmitRequest, Grant, Lease } from './admission.js';
import type { Lock, LockMode } from './lock-mode.js';
import { Scheduler } from './scheduler.js';

/** Lets queued microtasks (the scheduler's pump) and promise callbacks run. */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const lock = (node: string, mode: LockMode): Lock => ({ node, label: node, mode });

/** An admitted call whose grant is recorded as soon as it settles. */
interface Tracked {
  readonly waitsFor: readonly string[];
  readonly admission: Admission;
  grant: Grant | undefined;
}

function setup() {
  const clock = createFakeClock();
  const scheduler = new Scheduler({ clock });
  const granted: string[] = [];
  const admit = (id: string, request: Partial<Omit<AdmitRequest, 'id'>> = {}): Tracked => {
    const admission = scheduler.admit({
      id,
      locks: [],
      origin: 'o',
      concurrency: Number.POSITIVE_INFINITY,
      ...request,
    });
    const tracked: Tracked = { waitsFor: admission.waitsFor, admission, grant: undefined };
    void admission.granted.then((grant) => {
      tracked.grant = grant;
      if (grant.ok) granted.push(id);
    });
    return tracked;
  };
  return { clock, scheduler, admit, granted };
}

const leaseOf = (tracked: Tracked): Lease => {
  if (tracked.grant?.ok !== true) throw new Error('expected a lease');
  return tracked.grant.lease;
};

describe('Scheduler', () => {
  it('grants a free call with queuedMs 0 and reports the calls it waits for', async () => {
    const { admit } = setup();
    const a = admit('a', { locks: [lock('n', 'X')] });
    const b = admit('b', { locks: [lock('n', 'S')] });
    expect(a.waitsFor).toEqual([]);
    expect(b.waitsFor).toEqual(['a']);
    await flush();
    expect(a.grant).toMatchObject({ ok: true, queuedMs: 0 });
    expect(b.grant).toBeUndefined();
  });

  it('grants a conflicting call after the earlier one releases, with the time it queued', async () => {
    const { admit, clock } = setup();
    const a = admit('a', { locks: [lock('n', 'X')] });
    const b = admit('b', { locks: [lock('n', 'X')] });
    await flush();
    await clock.advance(30);
    await flush();
    expect(b.grant).toBeUndefined();
    leaseOf(a).release();
    await flush();
    expect(b.grant).toMatchObject({ ok: true, queuedMs: 30 });
  });

  it('gives slots of a capped origin to ready calls first come, first served', async () => {
    const { admit, granted } = setup();
    const calls = ['a', 'b', 'c', 'd'].map((id) => admit(id, { concurrency: 2 }));
    const other = admit('other', { origin: 'p', concurrency: 2 });
    await flush();
    expect(granted).toEqual(['a', 'b', 'other']);
    leaseOf(calls[1] as Tracked).release();
    await flush();
    expect(granted).toEqual(['a', 'b', 'other', 'c']);
    leaseOf(other).release();
    await flush();
    expect(calls[3]?.grant).toBeUndefined();
    leaseOf(calls[0] as Tracked).release();
    await flush();
    expect(granted).toEqual(['a', 'b', 'other', 'c', 'd']);
  });

  it('makes release idempotent: a second release frees no second slot', async () => {
    const { admit, granted, scheduler } = setup();
    const a = admit('a', { concurrency: 1 });
    admit('b', { concurrency: 1 });
    admit('c', { concurrency: 1 });
    await flush();
    expect(scheduler.active).toBe(3);
    const lease = leaseOf(a);
    lease.release();
    lease.release();
    await flush();
    expect(granted).toEqual(['a', 'b']);
    expect(scheduler.active).toBe(2);
  });

  it('ends a queued call cancelled when its signal aborts, and frees its locks for a dependent', async () => {
    const { admit, scheduler } = setup();
    const a = admit('a', { locks: [lock('n1', 'X')] });
    const controller = new AbortController();
    const b = admit('b', { locks: [lock('n1', 'X'), lock('n2', 'X')], signal: controller.signal });
    const c = admit('c', { locks: [lock('n2', 'X')], signal: new AbortController().signal });
    expect(b.waitsFor).toEqual(['a']);
    expect(c.waitsFor).toEqual(['b']);
    await flush();
    expect(c.grant).toBeUndefined();
    controller.abort();
    await flush();
    expect(b.grant).toMatchObject({ ok: false, reason: 'cancelled', queuedMs: 0 });
    expect(c.grant).toMatchObject({ ok: true });
    // a still holds n1: the cancelled call never ran, and c did not wait for a.
    expect(a.grant).toMatchObject({ ok: true });
    expect(scheduler.active).toBe(2);
  });

  it('ends a call cancelled at once when its signal is already aborted', async () => {
    const { admit } = setup();
    const b = admit('b', { locks: [lock('n', 'X')], signal: AbortSignal.abort() });
    const c = admit('c', { locks: [lock('n', 'X')] });
    expect(c.waitsFor).toEqual([]);
    await flush();
    expect(b.grant).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(c.grant).toMatchObject({ ok: true });
  });

  it('ignores an abort after the call was granted', async () => {
    const { admit } = setup();
    const controller = new AbortController();
    const a = admit('a', { locks: [lock('n', 'X')], signal: controller.signal });
    const b = admit('b', { locks: [lock('n', 'X')] });
    await flush();
    controller.abort();
    await flush();
    expect(a.grant).toMatchObject({ ok: true });
    expect(b.grant).toBeUndefined();
  });

  it('waits for quota within the window and grants when it frees up', async () => {
    const { admit, clock } = setup();
    const limit: RateLimit = { max: 1, windowMs: 100 };
    const a = admit('a', { rateLimit: { key: 'k', limit } });
    const b = admit('b', { rateLimit: { key: 'k', limit } });
    await flush();
    expect(a.grant).toMatchObject({ ok: true });
    leaseOf(a).settle(true);
    leaseOf(a).release();
    await clock.advance(99);
    await flush();
    expect(b.grant).toBeUndefined();
    await clock.advance(1);
    await flush();
    expect(b.grant).toMatchObject({ ok: true, queuedMs: 100 });
  });

  it('shares quota between equal limits given as different objects', async () => {
    const { admit } = setup();
    admit('a', { rateLimit: { key: 'k', limit: { max: 1, windowMs: 100 } } });
    const b = admit('b', { rateLimit: { key: 'k', limit: { max: 1, windowMs: 100 } } });
    await flush();
    expect(b.grant).toBeUndefined();
  });

  it('keeps separate quota per rate-limit key', async () => {
    const { admit } = setup();
    const limit: RateLimit = { max: 1, windowMs: 100 };
    admit('a', { rateLimit: { key: 'k1', limit } });
    const b = admit('b', { rateLimit: { key: 'k2', limit } });
    await flush();
    expect(b.grant).toMatchObject({ ok: true });
  });

  it('refuses a call rate_limited when quota frees up after maxWaitMs, and releases its locks', async () => {
    const { admit } = setup();
    const limit: RateLimit = { max: 1, windowMs: 100, maxWaitMs: 50 };
    admit('a', { rateLimit: { key: 'k', limit } });
    const b = admit('b', { locks: [lock('n', 'X')], rateLimit: { key: 'k', limit } });
    const c = admit('c', { locks: [lock('n', 'X')] });
    expect(c.waitsFor).toEqual(['b']);
    await flush();
    expect(b.grant).toMatchObject({ ok: false, reason: 'rate_limited', queuedMs: 0 });
    expect(b.grant?.ok === false && b.grant.message).toMatch(
      /rate limit of 1 call\(s\) per 100 ms/,
    );
    expect(c.grant).toMatchObject({ ok: true });
  });

  it('hands quota back on settle(false), letting a call waiting for quota proceed at once', async () => {
    const { admit } = setup();
    const limit: RateLimit = { max: 1, windowMs: 1000 };
    const a = admit('a', { rateLimit: { key: 'k', limit } });
    const b = admit('b', { rateLimit: { key: 'k', limit } });
    await flush();
    expect(b.grant).toBeUndefined();
    leaseOf(a).settle(false);
    await flush();
    expect(b.grant).toMatchObject({ ok: true, queuedMs: 0 });
  });

  it('keeps the quota spent on settle(true)', async () => {
    const { admit } = setup();
    const limit: RateLimit = { max: 1, windowMs: 1000 };
    const a = admit('a', { rateLimit: { key: 'k', limit } });
    const b = admit('b', { rateLimit: { key: 'k', limit } });
    await flush();
    leaseOf(a).settle(true);
    leaseOf(a).settle(false);
    leaseOf(a).release();
    await flush();
    expect(b.grant).toBeUndefined();
  });

  it('counts admitted calls until they are released or refused', async () => {
    const { admit, scheduler } = setup();
    const a = admit('a');
    admit('b', { signal: AbortSignal.abort() });
    expect(scheduler.active).toBe(1);
    await flush();
    leaseOf(a).release();
    expect(scheduler.active).toBe(0);
  });
});

describe('Scheduler slot order', () => {
  it('hands capped slots out in admission order, not in the order calls became ready', async () => {
    const { admit, granted } = setup();
    const a = admit('c1', { locks: [lock('a', 'X')], concurrency: 1 });
    admit('c2', { locks: [lock('a', 'X')], concurrency: 1 });
    admit('c3', { locks: [lock('b', 'X')], concurrency: 1 });
    admit('c4', { locks: [lock('c', 'X')], concurrency: 1 });
    await flush();
    expect(granted).toEqual(['c1']);
    leaseOf(a).release();
    await flush();
    // c2 became ready only now, but was admitted before c3 and c4.
    expect(granted).toEqual(['c1', 'c2']);
  });
});

describe('Scheduler: calls on hold (waiting for approval)', () => {
  it('keeps a held call in its place: [HELD X(a), X(a), X(b)] runs X(b) at once, X(a) only after the held call ran', async () => {
    const { admit, clock, scheduler, granted } = setup();
    const held = admit('held', { locks: [lock('a', 'X')], hold: true });
    const later = admit('later', { locks: [lock('a', 'X')] });
    const other = admit('other', { locks: [lock('b', 'X')] });
    expect(later.waitsFor).toEqual(['held']);
    await flush();
    expect(granted).toEqual(['other']);
    await clock.advance(500);
    scheduler.proceed(held.admission);
    await flush();
    // Time waiting for the answer is not time queued.
    expect(held.grant).toMatchObject({ ok: true, queuedMs: 0 });
    expect(later.grant).toBeUndefined();
    leaseOf(held).release();
    await flush();
    expect(granted).toEqual(['other', 'held', 'later']);
    expect(other.grant).toMatchObject({ ok: true });
  });

  it('releases a withdrawn (denied) call at once: the calls behind it go on, it ends withdrawn', async () => {
    const { admit, scheduler, granted } = setup();
    const held = admit('held', { locks: [lock('a', 'X')], hold: true });
    const later = admit('later', { locks: [lock('a', 'S')] });
    await flush();
    expect(granted).toEqual([]);
    scheduler.withdraw(held.admission, 'the user denied it');
    await flush();
    expect(held.grant).toMatchObject({
      ok: false,
      reason: 'withdrawn',
      message: 'the user denied it',
      held: true,
    });
    expect(later.grant).toMatchObject({ ok: true });
    expect(scheduler.active).toBe(1);
    // Withdrawing or letting go on a call that ended changes nothing.
    scheduler.proceed(held.admission);
    scheduler.withdraw(later.admission, 'too late');
    expect(later.grant).toMatchObject({ ok: true });
  });

  it('takes no slot or quota while held, and waits for the earlier calls it conflicts with once let go on', async () => {
    const { admit, scheduler, granted } = setup();
    const limit: RateLimit = { max: 1, windowMs: 1000 };
    const first = admit('first', { locks: [lock('a', 'X')], concurrency: 1 });
    const held = admit('held', {
      locks: [lock('a', 'X')],
      concurrency: 1,
      hold: true,
      rateLimit: { key: 'k', limit },
    });
    const free = admit('free', {
      locks: [lock('b', 'X')],
      origin: 'p',
      rateLimit: { key: 'k', limit },
    });
    await flush();
    expect(granted).toEqual(['first', 'free']);
    leaseOf(free).settle(false);
    leaseOf(free).release();
    scheduler.proceed(held.admission);
    await flush();
    expect(held.grant).toBeUndefined();
    leaseOf(first).release();
    await flush();
    expect(granted).toEqual(['first', 'free', 'held']);
  });

  it('ends a held call cancelled when its signal aborts, saying it waited for approval', async () => {
    const { admit } = setup();
    const controller = new AbortController();
    const held = admit('held', {
      locks: [lock('a', 'X')],
      hold: true,
      signal: controller.signal,
    });
    const later = admit('later', { locks: [lock('a', 'X')] });
    await flush();
    controller.abort();
    await flush();
    expect(held.grant).toMatchObject({
      ok: false,
      reason: 'cancelled',
      held: true,
      message: 'it was cancelled while it waited for approval',
    });
    expect(later.grant).toMatchObject({ ok: true });
  });
});

describe('Scheduler: an origin rate limit beside the tool one', () => {
  const origin = (limit: RateLimit) => ({ originRateLimit: { key: 'server', limit } });
  const tool = (key: string, max = 5) => ({ rateLimit: { key, limit: { max, windowMs: 100 } } });

  it('runs [t1, t2] of one origin capped at 1 per 100 ms one window apart, though each tool has quota', async () => {
    const { admit, clock } = setup();
    const a = admit('a', { ...tool('t1'), ...origin({ max: 1, windowMs: 100 }) });
    const b = admit('b', { ...tool('t2'), ...origin({ max: 1, windowMs: 100 }) });
    await flush();
    expect(a.grant).toMatchObject({ ok: true });
    expect(b.grant).toBeUndefined();
    leaseOf(a).settle(true);
    leaseOf(a).release();
    await clock.advance(100);
    await flush();
    expect(b.grant).toMatchObject({ ok: true, queuedMs: 100 });
  });

  it("hands the tool's unit back when the origin has none, and names the origin's limit", async () => {
    const { admit } = setup();
    const capped = origin({ max: 1, windowMs: 100, maxWaitMs: 0 });
    admit('a', { ...tool('t1'), ...capped });
    const b = admit('b', { ...tool('t2', 1), ...capped });
    await flush();
    expect(b.grant).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(b.grant?.ok === false ? b.grant.message : '').toMatch(
      /^rate limit of server "o" \(across its tools\) of 1 call\(s\) per 100 ms/,
    );
    // t2 (1 per window) still has its unit: b did not keep it.
    const c = admit('c', tool('t2', 1));
    await flush();
    expect(c.grant).toMatchObject({ ok: true });
  });

  it('hands both units back when a call fails', async () => {
    const { admit } = setup();
    const capped = origin({ max: 1, windowMs: 100 });
    const a = admit('a', { ...tool('t1', 1), ...capped });
    const b = admit('b', { ...tool('t1', 1), ...capped });
    await flush();
    expect(b.grant).toBeUndefined();
    leaseOf(a).settle(false);
    leaseOf(a).release();
    await flush();
    expect(b.grant).toMatchObject({ ok: true });
  });
});

/** An abort scope that counts the listeners added to it and not removed. */
class CountingScope implements AbortWatch {
  readonly scope = new AbortScope();
  listening = 0;
  get aborted(): boolean {
    return this.scope.aborted;
  }
  get reason(): unknown {
    return this.scope.reason;
  }
  addEventListener(type: 'abort', listener: () => void): void {
    this.listening += 1;
    this.scope.addEventListener(type, listener);
  }
  removeEventListener(type: 'abort', listener: () => void): void {
    this.listening -= 1;
    this.scope.removeEventListener(type, listener);
  }
}

describe('Scheduler: the calls of one signal, and grants read late', () => {
  it('listens once for all the waiting calls of a signal, and cancels them in admission order', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const signal = new CountingScope();
    const heard: string[] = [];
    const admit = (id: string, mode: LockMode): void => {
      void scheduler
        .admit({
          id,
          locks: [lock('n', mode)],
          origin: 'o',
          concurrency: Number.POSITIVE_INFINITY,
          signal,
        })
        .granted.then((grant) => heard.push(`${id}:${grant.ok ? 'ok' : grant.reason}`));
    };
    admit('w1', 'X');
    admit('r1', 'S');
    admit('r2', 'S');
    admit('w2', 'X');
    // w1 was granted as it was admitted: only the three waiting calls are watched.
    expect(signal.listening).toBe(1);
    await flush();
    expect(heard).toEqual(['w1:ok']);
    signal.scope.abort();
    await flush();
    expect(heard).toEqual(['w1:ok', 'r1:cancelled', 'r2:cancelled', 'w2:cancelled']);
    expect(scheduler.active).toBe(1);
  });

  it('stops listening to a signal once none of its calls waits', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const signal = new CountingScope();
    const leases: Lease[] = [];
    const admit = (id: string): void => {
      void scheduler
        .admit({
          id,
          locks: [lock('n', 'X')],
          origin: 'o',
          concurrency: Number.POSITIVE_INFINITY,
          signal,
        })
        .granted.then((grant) => {
          if (grant.ok) leases.push(grant.lease);
        });
    };
    for (const id of ['a', 'b', 'c']) admit(id);
    expect(signal.listening).toBe(1);
    for (let turn = 0; turn < 3; turn += 1) {
      await flush();
      leases.shift()?.release();
    }
    await flush();
    expect(signal.listening).toBe(0);
    expect(scheduler.active).toBe(0);
    // A later waiting call of the same signal listens again.
    admit('d');
    expect(signal.listening).toBe(0);
    admit('e');
    expect(signal.listening).toBe(1);
  });

  it('gives a waiting call its grant, and the same grant to granted when it is read afterwards', async () => {
    const scheduler = new Scheduler({ clock: createFakeClock() });
    const request = (id: string) => ({ id, locks: [lock('n', 'X')], origin: 'o', concurrency: 1 });
    const first = scheduler.admit(request('a'));
    const second = scheduler.admit(request('b'));
    expect(second.grant).toBeUndefined();
    if (first.grant?.ok !== true) throw new Error('a should be granted at once');
    first.grant.lease.release();
    await flush();
    expect(second.grant).toMatchObject({ ok: true, queuedMs: 0 });
    // Read only after it settled: the same grant.
    await expect(second.granted).resolves.toBe(second.grant);
  });
});
