import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  resultText,
  tempDir,
  until,
  writeConfig,
} from '../gateway/gateway.test-helpers.js';
import { stdioFixture } from '../mcp/client/fixtures/fixtures.test-helpers.js';
import { connectClient } from '../mcp/server/mcp-clients.test-helpers.js';
import { REPO_ROOT } from './serve-process.test-helpers.js';

// `hintgate gateway --http` as a real child process in front of the stdio fixture server,
// stopped with SIGTERM while a call is under way.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts the gateway on a free port; resolves with its URL, its stderr so far and its exit. */
async function startGateway(configFile: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(REPO_ROOT, 'src', 'cli', 'main.ts'),
      'gateway',
      '--config',
      configFile,
      '--http',
      '--port',
      '0',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  await until(() => / at http:\/\/\S+\/mcp/.test(stderr), 20_000);
  const url = / at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1] as string;
  const client = await connectClient(new StreamableHTTPClientTransport(new URL(url)), 'legacy');
  cleanups.push(() => client.close());
  return { child, exited, client, stderr: () => stderr };
}

const setup = async () => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeConfig(dir, {
    servers: { f: { ...stdioFixture(), trusted: true } },
    pin: { newTools: 'allow' },
    mode: 'yolo',
  });
  return { config, file: join(dir, 'hintgate.yaml') };
};

const slowEvents = async (path: string) =>
  (await auditEvents(path)).filter(
    (event) => event.tool === 'slow' && String(event.type).startsWith('call.'),
  );

describe('hintgate gateway: shutting down with a call under way', () => {
  it('lets a call that ends within the grace period finish and answers it, then exits 0', async () => {
    const { config, file } = await setup();
    const gateway = await startGateway(file);
    const call = gateway.client.client.callTool({ name: 'slow', arguments: { ms: 1500 } });
    await until(async () => (await slowEvents(config.audit.path)).length > 0);

    gateway.child.kill('SIGTERM');
    const result = (await call) as { isError?: boolean; content: unknown[] };
    expect(result.isError).toBeFalsy();
    expect(await gateway.exited).toBe(0);
    expect(gateway.stderr()).toContain('SIGTERM: finishing the calls under way');
    const events = await slowEvents(config.audit.path);
    expect(events.map((event) => [event.type, event.status])).toEqual([
      ['call.started', undefined],
      ['call.succeeded', 'ok'],
    ]);
  });

  it('cancels a call still running after the grace period, answers it as cancelled, records it, and exits 0', async () => {
    const { config, file } = await setup();
    const gateway = await startGateway(file);
    const call = gateway.client.client.callTool({ name: 'slow', arguments: { ms: 120_000 } });
    await until(async () => (await slowEvents(config.audit.path)).length > 0);

    gateway.child.kill('SIGTERM');
    const result = (await call) as { isError?: boolean; content: unknown[] };
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('closed while the call was under way');
    expect(await gateway.exited).toBe(0);
    const events = await slowEvents(config.audit.path);
    expect(events.map((event) => [event.type, event.status])).toEqual([
      ['call.started', undefined],
      ['call.failed', 'cancelled'],
    ]);
  });

  it('refuses a call that arrives while it shuts down, with a message that says so', async () => {
    const { config, file } = await setup();
    const gateway = await startGateway(file);
    const first = gateway.client.client.callTool({ name: 'slow', arguments: { ms: 120_000 } });
    await until(async () => (await slowEvents(config.audit.path)).length > 0);

    gateway.child.kill('SIGTERM');
    await until(() => gateway.stderr().includes('finishing the calls under way'));
    const late = await gateway.client.client
      .callTool({ name: 'pid', arguments: {} })
      .then((result) => resultText(result as { content: unknown[] }))
      .catch((error: Error) => error.message);
    expect(late).toContain('takes no more calls');
    await first;
    expect(await gateway.exited).toBe(0);
  });
});
