import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeScriptArgs } from '../testing/index.js';
import { connectRedisState } from './connect-redis-state.js';
import { type RedisServer, startRedisServer } from './redis-server.test-helpers.js';
import { type SharedState, SharedStateUnavailableError } from './shared-state.js';

let redis: RedisServer;
const opened: SharedState[] = [];

const replica = async (options: Parameters<typeof connectRedisState>[1] = {}) => {
  const state = await connectRedisState(redis.url, { prefix: `t${opened.length}:`, ...options });
  opened.push(state);
  await until(() => state.status === 'ready');
  return state;
};

const until = async (test: () => boolean, timeoutMs = 15_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeAll(async () => {
  redis = await startRedisServer();
}, 300_000);

afterAll(async () => {
  for (const state of opened) await state.close();
  await redis?.close();
});

describe('connectRedisState', () => {
  it('shares one rate-limit window between replicas, and a rollback gives a unit back', async () => {
    const first = await replica({ prefix: 'rate:' });
    const others = [await replica({ prefix: 'rate:' }), await replica({ prefix: 'rate:' })];
    const all = [first, ...others];
    const limit = { max: 5, windowMs: 60_000 };
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => all[i % 3]?.reserve('tool:search', limit)),
    );
    const taken = outcomes.filter((o) => o !== undefined && 'reservation' in o);
    expect(taken).toHaveLength(5);
    const refused = outcomes.find((o) => o !== undefined && 'retryAfterMs' in o);
    expect(refused).toMatchObject({ retryAfterMs: expect.any(Number) });
    const one = taken[0];
    if (one === undefined || !('reservation' in one)) throw new Error('unreachable');
    await others[1]?.rollback(one.reservation);
    expect(await first.reserve('tool:search', limit)).toHaveProperty('reservation');
    expect(await first.reserve('tool:search', limit)).toHaveProperty('retryAfterMs');
  });

  it('takes a slot and every window unit in one step, or nothing', async () => {
    const [a, b] = [await replica({ prefix: 'take:' }), await replica({ prefix: 'take:' })];
    const tool = { key: 'tool:db/query', limit: { max: 1, windowMs: 60_000 } };
    const server = { key: 'server-rate:db', limit: { max: 2, windowMs: 60_000 } };
    const both = { slot: { key: 'server:db', max: 1 }, windows: [server, tool] };

    const first = await a.take(both);
    if (!('taken' in first)) throw new Error(`expected all taken, got ${JSON.stringify(first)}`);
    expect(first.taken.reservations.map((r) => r.key)).toEqual([server.key, tool.key]);
    expect(first.taken.slot).toBeDefined();

    // A refused slot spends no window unit: the server window still has one unit left.
    expect(await b.take(both)).toEqual({ slotFull: true });
    await first.taken.slot?.release();

    // A refused window leaves no slot held and spends no unit of the other window.
    const refused = await b.take(both);
    expect(refused).toMatchObject({ windowFull: 1, retryAfterMs: expect.any(Number) });
    const slot = await a.tryAcquireSlot('server:db', 1);
    expect(slot).toBeDefined();
    await slot?.release();
    expect(await b.reserve(server.key, server.limit)).toHaveProperty('reservation');
    expect(await b.reserve(server.key, server.limit)).toHaveProperty('retryAfterMs');

    // Rolling a unit back after the call is refused later makes it available again.
    const [, toolUnit] = first.taken.reservations;
    if (toolUnit === undefined) throw new Error('unreachable');
    await a.rollback(toolUnit);
    expect(await b.take({ windows: [tool] })).toHaveProperty('taken');
  });

  it('caps concurrency across replicas, and a release wakes a waiter on another replica', async () => {
    const [a, b, c] = [
      await replica({ prefix: 'cap:' }),
      await replica({ prefix: 'cap:' }),
      await replica({ prefix: 'cap:' }),
    ];
    const first = await a.tryAcquireSlot('server:db', 2);
    const second = await b.tryAcquireSlot('server:db', 2);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(await c.tryAcquireSlot('server:db', 2)).toBeUndefined();
    const woken = c.waitForSlot('server:db', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = Date.now();
    await first?.release();
    await woken;
    expect(Date.now() - before).toBeLessThan(5000);
    const third = await c.tryAcquireSlot('server:db', 2);
    expect(third).toBeDefined();
    await second?.release();
    await third?.release();
  });

  it('tells the other replicas of a release only when every slot was held', async () => {
    const state = await replica({ prefix: 'note:' });
    const { Redis } = await import('ioredis');
    const listener = new Redis(redis.url);
    const heard: string[] = [];
    try {
      await listener.subscribe('note:released');
      listener.on('message', (_channel: string, key: string) => heard.push(key));
      const first = await state.tryAcquireSlot('pool', 2);
      await first?.release();
      const [one, two] = [
        await state.tryAcquireSlot('pool', 2),
        await state.tryAcquireSlot('pool', 2),
      ];
      await two?.release();
      await one?.release();
      // Notices arrive in order. The first release (one of two slots held) told nobody, the
      // second (both held) every replica, the third (one held) nobody; the marker's (one of
      // one held) shows that nothing came between.
      const marker = await state.tryAcquireSlot('pool', 1);
      await marker?.release();
      await until(() => heard.length > 1);
      expect(heard).toEqual(['pool', 'pool']);
    } finally {
      listener.disconnect();
    }
  });

  it('frees the slot of a replica that was killed once its lease runs out', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/hold-slot.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      [...nodeScriptArgs(fixture), redis.url, 'crash', '1', '600'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('held')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
      });
      const state = await replica({ prefix: 'hintgate:' });
      expect(await state.tryAcquireSlot('crash', 1)).toBeUndefined();
      child.kill('SIGKILL');
      await once(child, 'exit');
      let lease = await state.tryAcquireSlot('crash', 1);
      const deadline = Date.now() + 10_000;
      while (lease === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        lease = await state.tryAcquireSlot('crash', 1);
      }
      expect(lease).toBeDefined();
      await lease?.release();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('remembers approvals for every replica, keeps the first grant, and lists them', async () => {
    const [a, b] = [await replica({ prefix: 'ap:' }), await replica({ prefix: 'ap:' })];
    const memo = { grantedAt: '2026-11-28T00:00:00.000Z', reason: 'alice, console' };
    await a.addApprovals('always', 'fs__write_file', ['path:/a', '__proto__'], memo);
    expect(await b.hasApprovals('always', 'fs__write_file', ['path:/a', '__proto__'])).toBe(true);
    expect(await b.hasApprovals('always', 'fs__write_file', ['path:/a', 'path:/b'])).toBe(false);
    expect(await b.hasApprovals('always', 'fs__write_file', [])).toBe(false);
    await b.addApprovals('always', 'fs__write_file', ['path:/a'], { grantedAt: 'later' });
    expect(await a.listApprovals('always')).toEqual([
      { tool: 'fs__write_file', key: '__proto__', ...memo },
      { tool: 'fs__write_file', key: 'path:/a', ...memo },
    ]);
    await a.addApprovals('session:s1', 'x', ['k'], memo, 200);
    expect(await b.hasApprovals('session:s1', 'x', ['k'])).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.hasApprovals('session:s1', 'x', ['k'])).toBe(false);
  });

  it('spends a one-time token once across replicas', async () => {
    const [a, b] = [await replica({ prefix: 'once:' }), await replica({ prefix: 'once:' })];
    const results = await Promise.all([
      a.useOnce('nonce-1', 60_000),
      b.useOnce('nonce-1', 60_000),
      a.useOnce('nonce-1', 60_000),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('fails closed while Redis is down and serves again after it comes back', async () => {
    const statuses: string[] = [];
    const state = await replica({
      prefix: 'down:',
      onStatus: (status, detail) => statuses.push(`${status}: ${detail}`),
    });
    await redis.stop();
    await until(() => state.status === 'unavailable');
    const failure = await state.reserve('t', { max: 1, windowMs: 1000 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SharedStateUnavailableError);
    expect((failure as SharedStateUnavailableError).code).toBe('shared_state_unavailable');
    expect((failure as Error).message).toMatch(
      /redis:\/\/127\.0\.0\.1:\d+ is unreachable.*was not run/,
    );
    await redis.start();
    await until(() => state.status === 'ready', 30_000);
    expect(await state.reserve('t', { max: 1, windowMs: 1000 })).toHaveProperty('reservation');
    expect(statuses.some((s) => s.startsWith('unavailable: lost'))).toBe(true);
    expect(statuses.at(-1)).toMatch(/^ready: connected to/);
  }, 60_000);

  it('refuses a URL that is not Redis with what to write', async () => {
    await expect(connectRedisState('http://localhost:6379')).rejects.toThrow(/redis:\/\/host:6379/);
    await expect(connectRedisState('not a url')).rejects.toThrow(/is not a URL/);
  });

  it('refuses a lease or command timeout no timer can keep, before it connects', async () => {
    for (const leaseMs of [0, -1, 10, 2.5e3 + 0.5, Number.NaN, 2 ** 31]) {
      await expect(connectRedisState(redis.url, { leaseMs })).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringMatching(
          /^leaseMs must be a whole number of milliseconds from 30 to 2147483647/,
        ),
      });
    }
    for (const commandTimeoutMs of [0, Number.POSITIVE_INFINITY]) {
      await expect(connectRedisState(redis.url, { commandTimeoutMs })).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringMatching(/^commandTimeoutMs must be a number of milliseconds/),
      });
    }
  });
});
