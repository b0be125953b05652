import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import type { Tool } from '../tool/tool.js';
import { connectRedisState } from './connect-redis-state.js';
import { type RedisServer, startRedisServer } from './redis-server.test-helpers.js';
import type { SharedState } from './shared-state.js';
import { type SharedLimits, withSharedLimits } from './with-shared-limits.js';

let redis: RedisServer;
const states: SharedState[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
}, 300_000);
afterAll(async () => {
  for (const state of states) await state.close();
  await redis?.close();
});

const replicas = async (prefix: string, count: number, limits: SharedLimits, tool: () => Tool) => {
  const out = [];
  for (let i = 0; i < count; i += 1) {
    const state = await connectRedisState(redis.url, { prefix });
    states.push(state);
    while (state.status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
    out.push(createRuntime({ tools: [withSharedLimits(tool(), state, limits)], mode: 'yolo' }));
  }
  return out;
};

describe('withSharedLimits', () => {
  it('allows exactly the limit across three replicas, and a failed call gives its unit back', async () => {
    let fail = true;
    const runtimes = await replicas(
      'rl:',
      3,
      { tool: { key: 'search', limit: { max: 5, windowMs: 60_000, maxWaitMs: 0 } } },
      () =>
        defineTool({
          name: 'search',
          description: 'Searches.',
          inputSchema: z.object({ q: z.string() }),
          annotations: READ_ONLY,
          execute: () => {
            if (fail) {
              fail = false;
              return { content: [{ type: 'text', text: 'upstream said no' }], isError: true };
            }
            return 'found';
          },
        }) as Tool,
    );
    const [first] =
      (await runtimes[0]?.execute([{ id: 'f', name: 'search', arguments: { q: 'x' } }])) ?? [];
    expect(first?.error?.code).toBe('tool_error');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        runtimes[i % 3]?.execute([{ id: `c${i}`, name: 'search', arguments: { q: 'x' } }]),
      ),
    );
    const statuses = results.map((r) => r?.[0]?.error?.code ?? r?.[0]?.status);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(5);
    expect(statuses.filter((s) => s === 'rate_limited')).toHaveLength(7);
    const refused = results.find((r) => r?.[0]?.error?.code === 'rate_limited')?.[0];
    expect(refused?.error?.message).toMatch(/shared by every gateway replica/);
  });

  it('never runs more calls at once than the cap across replicas', async () => {
    let running = 0;
    let most = 0;
    const runtimes = await replicas(
      'cc:',
      3,
      { concurrency: { key: 'db', max: 2 } },
      () =>
        defineTool({
          name: 'query',
          description: 'Queries.',
          inputSchema: z.object({}),
          annotations: READ_ONLY,
          execute: async () => {
            running += 1;
            most = Math.max(most, running);
            await new Promise((resolve) => setTimeout(resolve, 30));
            running -= 1;
            return 'rows';
          },
        }) as Tool,
    );
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        runtimes[i % 3]?.execute([{ id: `c${i}`, name: 'query', arguments: {} }]),
      ),
    );
    expect(results.every((r) => r?.[0]?.status === 'ok')).toBe(true);
    expect(most).toBe(2);
  });

  it('holds no slot while a call waits for a window unit', async () => {
    const finished: string[] = [];
    const [runtime] = await replicas(
      'wt:',
      1,
      {
        tool: { key: 'report', limit: { max: 1, windowMs: 3000, maxWaitMs: 30_000 } },
        concurrency: { key: 'db', max: 1 },
      },
      () =>
        defineTool({
          name: 'report',
          description: 'Reports.',
          inputSchema: z.object({ id: z.string() }),
          annotations: READ_ONLY,
          execute: ({ id }) => {
            finished.push(id);
            return 'done';
          },
        }) as Tool,
    );
    const state = states.at(-1);
    if (runtime === undefined || state === undefined) throw new Error('unreachable');
    // Another tool of the same capped server, with no window of its own.
    const [other] = await replicas(
      'wt:',
      1,
      { concurrency: { key: 'db', max: 1 } },
      () =>
        defineTool({
          name: 'peek',
          description: 'Peeks.',
          inputSchema: z.object({}),
          annotations: READ_ONLY,
          execute: () => {
            finished.push('peek');
            return 'seen';
          },
        }) as Tool,
    );
    const [first] = await runtime.execute([{ id: 'a', name: 'report', arguments: { id: 'a' } }]);
    expect(first?.status).toBe('ok');
    // "b" finds the window full and waits about 3 s for its unit; "peek" needs the only slot.
    const waiting = runtime.execute([{ id: 'b', name: 'report', arguments: { id: 'b' } }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [peek] = (await other?.execute([{ id: 'p', name: 'peek', arguments: {} }])) ?? [];
    expect(peek?.status).toBe('ok');
    const [second] = await waiting;
    expect(second?.status).toBe('ok');
    expect(finished).toEqual(['a', 'peek', 'b']);
  }, 30_000);

  it('ends a call shared_state_unavailable while the store is down, without running it', async () => {
    let ran = 0;
    const [runtime] = await replicas(
      'dn:',
      1,
      { tool: { key: 'search', limit: { max: 5, windowMs: 60_000 } } },
      () =>
        defineTool({
          name: 'search',
          description: 'Searches.',
          inputSchema: z.object({}),
          annotations: READ_ONLY,
          execute: () => {
            ran += 1;
            return 'found';
          },
        }) as Tool,
    );
    await redis.stop();
    try {
      const [result] = (await runtime?.execute([{ id: 'c', name: 'search', arguments: {} }])) ?? [];
      expect(result?.error?.code).toBe('shared_state_unavailable');
      expect(result?.error?.message).toMatch(/is unreachable/);
      expect(ran).toBe(0);
    } finally {
      await redis.start();
    }
  }, 30_000);
});
