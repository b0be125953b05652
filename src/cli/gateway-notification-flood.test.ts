import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogServer } from '../gateway/catalog-server.test-helpers.js';
import { tempDir } from '../gateway/gateway.test-helpers.js';
import { cliArgv, REPO_ROOT } from './serve-process.test-helpers.js';

// A real upstream floods a real stdio gateway (a child process from the sources) with 20,000
// notifications, 10,000 progress and 10,000 log messages, while the client reads nothing
// for a while, so that the gateway's stdout is full and every message must wait. Its stdout
// is the protocol stream: it must carry only JSON-RPC lines, every notification must arrive,
// and no process warning (MaxListenersExceededWarning) may appear anywhere.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const EACH = 10_000;

describe('a stdio gateway relaying a flood of upstream notifications', () => {
  it('writes only JSON-RPC lines to stdout and no warning, with 20,000 notifications to a slow reader', async () => {
    const temp = await tempDir();
    cleanups.push(temp.remove);
    const upstream = await catalogServer(temp.dir, 'cat', {});
    const config = join(temp.dir, 'hintgate.yaml');
    await writeFile(
      config,
      JSON.stringify({
        servers: { cat: upstream.entry },
        mode: 'yolo',
        pin: { newTools: 'allow' },
      }),
    );
    const child = spawn(process.execPath, cliArgv('gateway', ['--config', config]), {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const lines: string[] = [];
    const waiters: { check: () => boolean; resolve: () => void }[] = [];
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const parts = stdout.split('\n');
      stdout = parts.pop() ?? '';
      lines.push(...parts);
      for (const waiter of waiters.splice(0)) {
        if (waiter.check()) waiter.resolve();
        else waiters.push(waiter);
      }
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const answered = (id: number): Promise<void> =>
      new Promise((resolve) => {
        const check = () => lines.some((line) => line.includes(`"id":${id}`));
        if (check()) resolve();
        else waiters.push({ check, resolve });
      });
    const send = (message: Record<string, unknown>): void => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    };

    send({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    });
    await answered(1);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'logging/setLevel', params: { level: 'debug' } });
    await answered(2);
    // Stop reading: the pipe fills up and the gateway has to hold what follows.
    child.stdout.pause();
    send({
      id: 3,
      method: 'tools/call',
      params: { name: 'progress', arguments: { steps: EACH }, _meta: { progressToken: 'p' } },
    });
    send({
      id: 4,
      method: 'tools/call',
      params: { name: 'log', arguments: { level: 'info', data: 'flood', count: EACH } },
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    child.stdout.resume();
    await Promise.all([answered(3), answered(4)]);
    child.stdin.end();
    expect(await exited).toBe(0);

    const messages = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    const count = (method: string) =>
      messages.filter((message) => message.method === method).length;
    expect(count('notifications/progress')).toBe(EACH);
    expect(count('notifications/message')).toBe(EACH);
    expect(stdout).toBe('');
    expect(stderr).not.toMatch(/Warning|MaxListeners/);
  }, 180_000);
});
