import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import { nextEvent } from '../../testing/index.js';
import type { CallResult } from '../../tool/index.js';
import { connectMcpServer } from './connect-mcp-server.js';
import type { McpServerConnection } from './connection-events.js';
import { stdioFixture } from './fixtures/fixtures.test-helpers.js';
import type { ConnectMcpServerCommonOptions } from './mcp-server-options.js';

const textOf = (result: CallResult | undefined): string => {
  const block = result?.content[0];
  return block?.type === 'text' ? block.text : '';
};
const fastBackoff = { initialDelayMs: 20, maxDelayMs: 200 };

const open: McpServerConnection[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A path that, while it exists, makes the fixture refuse to start. */
const marker = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'hintgate-mcp-'));
  dirs.push(dir);
  return join(dir, 'refuse');
};

const connect = async (
  options: Pick<ConnectMcpServerCommonOptions, 'era' | 'reconnect'> & {
    env?: Record<string, string>;
  },
) => {
  const registry = createRegistry();
  const { env, ...rest } = options;
  const connection = await connectMcpServer({
    name: 'flaky',
    registry,
    reconnect: fastBackoff,
    ...stdioFixture(env),
    ...rest,
  });
  open.push(connection);
  return { registry, connection, runtime: createRuntime({ registry, mode: 'yolo' }) };
};

describe('a server that crashes or vanishes', () => {
  it.each([
    { era: 'auto', negotiated: 'modern' },
    { era: undefined, negotiated: 'legacy' },
  ] as const)(
    'ends the call it crashed in upstream_unavailable, restarts the server, and later calls succeed (era $era: $negotiated)',
    async ({ era, negotiated }) => {
      const { connection, runtime } = await connect(era === undefined ? {} : { era });
      const [before] = await runtime.execute([{ id: 'p', name: 'pid' }]);
      const statuses: string[] = [];
      connection.on('status', (event) => statuses.push(event.status));
      const ready = nextEvent(connection, 'status', { accept: (e) => e.status === 'ready' });
      const [crash] = await runtime.execute([{ id: 'c', name: 'crash' }]);
      expect(crash?.error?.code).toBe('upstream_unavailable');
      expect(crash?.error?.message).toContain('went away while tool "crash" ran');
      expect(crash?.error?.message).toContain('fixture: crashing on purpose');
      await ready;
      expect(statuses).toEqual(['reconnecting', 'ready']);
      const [after] = await runtime.execute([{ id: 'p2', name: 'pid' }]);
      expect(after?.status).toBe('ok');
      expect(textOf(after)).not.toBe(textOf(before));
      expect(connection.protocolEra).toBe(negotiated);
    },
  );

  it('fails calls fast while the server is down, keeps its tools registered, and recovers when it starts again', async () => {
    const refuse = marker();
    const { registry, connection, runtime } = await connect({
      era: 'legacy',
      env: { FIXTURE_REFUSE_IF_EXISTS: refuse },
    });
    const [pid] = await runtime.execute([{ id: 'p', name: 'pid' }]);
    const serverPid = Number(textOf(pid));
    writeFileSync(refuse, '');
    const inFlight = runtime.execute([{ id: 's', name: 'slow', arguments: { ms: 10_000 } }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(serverPid, 'SIGKILL');
    const [slow] = await inFlight;
    expect(slow?.error?.code).toBe('upstream_unavailable');
    expect(slow?.error?.message).toContain('went away while tool "slow" ran');

    const failedAgain = await nextEvent(connection, 'status', {
      accept: (e) => (e.attempt ?? 0) >= 2,
    });
    expect(failedAgain.status).toBe('reconnecting');
    expect(failedAgain.error?.message).toContain('refusing to start');
    expect(registry.resolve('pid')?.origin).toBe('flaky');
    const [down] = await runtime.execute([{ id: 'd', name: 'pid' }]);
    expect(down?.error?.code).toBe('upstream_unavailable');
    expect(down?.error?.message).toMatch(
      /MCP server "flaky" is unavailable .*Tool "pid" was not called/,
    );
    expect(down?.runMs).toBeLessThan(100);

    const ready = nextEvent(connection, 'status', { accept: (e) => e.status === 'ready' });
    rmSync(refuse);
    await ready;
    const [up] = await runtime.execute([{ id: 'u', name: 'pid' }]);
    expect(up?.status).toBe('ok');
    expect(Number(textOf(up))).not.toBe(serverPid);
  });

  it('gives up after maxAttempts: closes and removes the tools', async () => {
    const refuse = marker();
    const { registry, connection, runtime } = await connect({
      era: 'legacy',
      env: { FIXTURE_REFUSE_IF_EXISTS: refuse },
      reconnect: { ...fastBackoff, maxAttempts: 2 },
    });
    writeFileSync(refuse, '');
    const closed = nextEvent(connection, 'status', { accept: (e) => e.status === 'closed' });
    await runtime.execute([{ id: 'c', name: 'crash' }]);
    const event = await closed;
    expect(event.error?.message).toContain('refusing to start');
    expect(registry.origins()).toEqual([]);
    const [after] = await runtime.execute([{ id: 'p', name: 'pid' }]);
    expect(after?.error?.code).toBe('unknown_tool');
  });

  it('closes at once when reconnecting is turned off', async () => {
    const { registry, connection, runtime } = await connect({ era: 'legacy', reconnect: false });
    const closed = nextEvent(connection, 'status');
    const [crash] = await runtime.execute([{ id: 'c', name: 'crash' }]);
    expect(crash?.error?.code).toBe('upstream_unavailable');
    expect(crash?.error?.message).toContain('The connection is closed.');
    expect((await closed).status).toBe('closed');
    expect(registry.origins()).toEqual([]);
  });
});

describe("connectMcpServer with firstConnection: 'retry'", () => {
  it('resolves reconnecting with the cause, retries on the injected clock with backoff, and registers the tools once reached', async () => {
    const refuse = marker();
    writeFileSync(refuse, '');
    const timers: { callback: () => void; ms: number }[] = [];
    let now = 0;
    const clock = {
      now: () => now,
      setTimeout: (callback: () => void, ms: number) => {
        timers.push({ callback, ms });
        return timers.length;
      },
      clearTimeout: () => {},
    };
    const registry = createRegistry({ env: {} });
    const connection = await connectMcpServer({
      name: 'late',
      registry,
      ...stdioFixture({ FIXTURE_REFUSE_IF_EXISTS: refuse }),
      firstConnection: 'retry',
      reconnect: { initialDelayMs: 500, maxDelayMs: 500 },
      clock,
      random: () => 0.5,
    });
    open.push(connection);
    expect(connection.status).toBe('reconnecting');
    expect(connection.lastError?.message).toContain('Could not connect to MCP server "late"');
    expect(registry.origins().map((origin) => origin.name)).not.toContain('late');
    expect(timers.map((timer) => timer.ms)).toEqual([expect.any(Number)]);
    expect(timers[0]?.ms).toBeGreaterThan(0);
    expect(timers[0]?.ms).toBeLessThanOrEqual(500);

    rmSync(refuse);
    const ready = nextEvent(connection, 'status', { accept: (event) => event.status === 'ready' });
    now += timers[0]?.ms ?? 0;
    timers[0]?.callback();
    await ready;
    expect(connection.lastError).toBeUndefined();
    expect(registry.resolve('plain')).toBeDefined();
  });
});
