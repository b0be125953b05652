import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPolicy } from '../policy/create-policy.js';
import type { ApprovalAnswer, ApprovalRequest } from '../policy/policy-types.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE } from '../tool/presets.js';
import type { Tool } from '../tool/tool.js';
import { connectRedisState } from './connect-redis-state.js';
import { type RedisServer, startRedisServer } from './redis-server.test-helpers.js';
import { sharedAlwaysApprovals, sharedSessionApprovals } from './shared-approvals.js';
import type { SharedState } from './shared-state.js';

let redis: RedisServer;
const states: SharedState[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
}, 300_000);
afterAll(async () => {
  for (const state of states) await state.close();
  await redis?.close();
});

/** One gateway replica: its own runtime and policy, the approvals on the shared Redis. */
const replica = async (prefix: string, answers: ApprovalAnswer[], asked: ApprovalRequest[]) => {
  const state = await connectRedisState(redis.url, { prefix });
  states.push(state);
  while (state.status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
  const tool = defineTool({
    name: 'delete_repo',
    description: 'Deletes a repository.',
    inputSchema: z.object({ repo: z.string() }),
    annotations: DESTRUCTIVE,
    approvalKey: ({ repo }) => `repo:${repo}`,
    execute: () => 'deleted',
  }) as Tool;
  return createRuntime({
    tools: [tool],
    authorizer: createPolicy({
      mode: 'ask',
      approver: (request) => {
        asked.push(request);
        return answers.shift() ?? { decision: 'deny', reason: 'not approved' };
      },
      approvals: sharedAlwaysApprovals(state, redis.url),
      sharedSessions: sharedSessionApprovals(state, redis.url),
    }),
  });
};

const run = async (runtime: ReturnType<typeof createRuntime>, repo: string, session: string) => {
  const [result] = await runtime.execute([{ id: 'c', name: 'delete_repo', arguments: { repo } }], {
    session,
  });
  return result?.status;
};

describe('approvals shared between replicas', () => {
  it('honours a session approval given on one replica on the others, in that session only', async () => {
    const asked: ApprovalRequest[] = [];
    const a = await replica('s:', [{ decision: 'allow', remember: 'session' }], asked);
    const b = await replica('s:', [], asked);
    expect(await run(a, 'x', 'client-1')).toBe('ok');
    expect(await run(b, 'x', 'client-1')).toBe('ok');
    expect(await run(b, 'y', 'client-1')).toBe('denied');
    expect(await run(b, 'x', 'client-2')).toBe('denied');
    expect(asked).toHaveLength(3);
  });

  it('honours an "always" approval given on one replica on the others, in every session', async () => {
    const asked: ApprovalRequest[] = [];
    const a = await replica('a:', [{ decision: 'allow', remember: 'always' }], asked);
    const b = await replica('a:', [], asked);
    expect(await run(a, 'x', 'client-1')).toBe('ok');
    expect(await run(b, 'x', 'client-9')).toBe('ok');
    expect(asked).toHaveLength(1);
  });

  it('denies a call that needs approval while the store is down, naming the store', async () => {
    const asked: ApprovalRequest[] = [];
    const a = await replica('d:', [{ decision: 'allow', remember: 'session' }], asked);
    const b = await replica('d:', [], asked);
    expect(await run(a, 'x', 'client-1')).toBe('ok');
    await redis.stop();
    try {
      const [result] = await b.execute(
        [{ id: 'c', name: 'delete_repo', arguments: { repo: 'x' } }],
        { session: 'client-1' },
      );
      expect(result?.status).toBe('denied');
      expect(result?.error?.message).toMatch(
        /Shared state at redis:\/\/127\.0\.0\.1:\d+ is unreachable .*was not run/,
      );
      expect(asked).toHaveLength(1);
    } finally {
      await redis.start();
    }
  }, 30_000);
});
