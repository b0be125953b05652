import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, it, type OnTestFinishedHandler } from 'vitest';
import {
  auditEvents,
  resultText,
  tempDir,
  until,
  writeConfig,
} from '../gateway/gateway.test-helpers.js';
import { stdioFixture } from '../mcp/client/fixtures/fixtures.test-helpers.js';
import { connectClient } from '../mcp/server/mcp-clients.test-helpers.js';
import { startHttpGateway } from './serve-process.test-helpers.js';

// `hintgate gateway --http` as a real child process in front of the stdio fixture server,
// stopped with SIGTERM while a call is under way. Most of each test is waiting for a
// grace period, so the tests run concurrently, each with its own gateway and directory.

/** Registers what to undo when the test ends (its context's `onTestFinished`). */
type OnFinished = (handler: OnTestFinishedHandler) => void;

/** Starts the gateway on a free port with an SDK client connected to it. */
async function startGateway(configFile: string, onFinished: OnFinished, args: string[] = []) {
  const gateway = await startHttpGateway(['--config', configFile, ...args]);
  onFinished(async () => {
    await gateway.stop('SIGKILL');
  });
  const client = await connectClient(
    new StreamableHTTPClientTransport(new URL(gateway.url)),
    'legacy',
  );
  onFinished(() => client.close());
  const exited = new Promise<number | null>((resolve) => {
    if (gateway.child.exitCode !== null) resolve(gateway.child.exitCode);
    else gateway.child.once('exit', resolve);
  });
  return { child: gateway.child, exited, client, stderr: gateway.stderr };
}

const setup = async (onFinished: OnFinished) => {
  const { dir, remove } = await tempDir();
  onFinished(remove);
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

describe.concurrent('hintgate gateway: shutting down with a call under way', () => {
  it('lets a call that ends within the grace period finish and answers it, then exits 0', async ({
    expect,
    onTestFinished,
  }) => {
    const { config, file } = await setup(onTestFinished);
    const gateway = await startGateway(file, onTestFinished);
    const call = gateway.client.client.callTool({ name: 'slow', arguments: { ms: 1500 } });
    await until(async () => (await slowEvents(config.audit.path)).length > 0);

    gateway.child.kill('SIGTERM');
    const result = (await call) as { isError?: boolean; content: unknown[] };
    expect(result.isError).toBeFalsy();
    expect(await gateway.exited).toBe(0);
    expect(gateway.stderr()).toContain('SIGTERM: finishing the calls under way (up to 5 s');
    const events = await slowEvents(config.audit.path);
    expect(events.map((event) => [event.type, event.status])).toEqual([
      ['call.started', undefined],
      ['call.succeeded', 'ok'],
    ]);
  });

  it('cancels a call still running after the grace period, answers it as cancelled, records it, and exits 0', async ({
    expect,
    onTestFinished,
  }) => {
    const { config, file } = await setup(onTestFinished);
    // A grace of 1 s instead of the default 5 s (the first test keeps the default).
    const gateway = await startGateway(file, onTestFinished, ['--shutdown-grace-ms', '1000']);
    const call = gateway.client.client.callTool({ name: 'slow', arguments: { ms: 120_000 } });
    await until(async () => (await slowEvents(config.audit.path)).length > 0);

    gateway.child.kill('SIGTERM');
    const result = (await call) as { isError?: boolean; content: unknown[] };
    expect(gateway.stderr()).toContain('SIGTERM: finishing the calls under way (up to 1 s');
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('closed while the call was under way');
    expect(await gateway.exited).toBe(0);
    const events = await slowEvents(config.audit.path);
    expect(events.map((event) => [event.type, event.status])).toEqual([
      ['call.started', undefined],
      ['call.failed', 'cancelled'],
    ]);
  });

  it('refuses a call that arrives while it shuts down, with a message that says so', async ({
    expect,
    onTestFinished,
  }) => {
    const { config, file } = await setup(onTestFinished);
    const gateway = await startGateway(file, onTestFinished, ['--shutdown-grace-ms', '1000']);
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
