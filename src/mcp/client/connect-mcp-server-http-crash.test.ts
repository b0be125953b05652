import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import { nextEvent, waitFor } from '../../testing/index.js';
import { connectMcpServer } from './connect-mcp-server.js';
import type { McpServerConnection } from './connection-events.js';
import { REPO_ROOT } from './fixtures/fixtures.test-helpers.js';

const EVERYTHING = join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const children: ChildProcess[] = [];
const connections: McpServerConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await Promise.all(children.splice(0).map(kill));
});

const kill = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
};

/** server-everything over Streamable HTTP (its call results stream as resumable SSE). */
const startEverything = async (port: number): Promise<ChildProcess> => {
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  children.push(child);
  await waitFor(async () => ((await accepts(port)) ? true : undefined), 10_000);
  return child;
};

describe('an HTTP server that dies while a call streams its result', () => {
  it('ends the call upstream_unavailable, reconnects with backoff, and calls work once the server is back on its port', async () => {
    const port = await freePort();
    const first = await startEverything(port);
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'remote',
      registry,
      trusted: true,
      url: `http://127.0.0.1:${port}/mcp`,
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    });
    connections.push(connection);
    const errors: string[] = [];
    connection.on('error', (error) => errors.push(error.message));
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const lost = nextEvent(connection, 'status', { accept: (e) => e.status === 'reconnecting' });
    const inFlight = runtime.execute([
      {
        id: 'long',
        name: 'trigger-long-running-operation',
        arguments: { duration: 30, steps: 30 },
      },
    ]);
    // Long enough for the call to be under way, its result stream open.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await kill(first);

    const [long] = await inFlight;
    expect(long?.error?.code).toBe('upstream_unavailable');
    expect(long?.error?.message).toContain(
      'went away while tool "trigger-long-running-operation" ran',
    );
    expect((await lost).error?.message).toContain('could not be reached');
    expect(errors.filter((m) => m.includes('could not be used'))).toEqual([]);

    const ready = nextEvent(connection, 'status', {
      accept: (e) => e.status === 'ready',
      timeoutMs: 20_000,
    });
    await startEverything(port);
    await ready;
    const [sum] = await runtime.execute([{ id: 's', name: 'get-sum', arguments: { a: 2, b: 3 } }]);
    expect(sum?.status).toBe('ok');
  }, 30_000);
});
