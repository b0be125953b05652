import { afterEach, describe, expect, it } from 'vitest';
import {
  connectMcpServer,
  type McpServerConnection,
  UpstreamUnavailableError,
} from '../mcp/index.js';
import { createRegistry } from '../registry/index.js';
import { createFakeClock } from '../testing/index.js';
import type { ToolContext } from '../tool/index.js';
import { RECONNECT_WAIT_MS, retryAfterReconnect } from './upstream-retry.js';

// The wait of a retried call for its server's reconnect runs on the injected clock, and
// works where Node has no AbortSignal.any (before 20.3).

const open: McpServerConnection[] = [];
const nativeAny = AbortSignal.any;
afterEach(async () => {
  AbortSignal.any = nativeAny;
  for (const connection of open.splice(0)) await connection.close();
});

/** A real connection to a server that exits at once: it stays `reconnecting` on `clock`. */
async function unreachable(clock: ReturnType<typeof createFakeClock>) {
  const connection = await connectMcpServer({
    name: 'gone',
    registry: createRegistry({ env: {} }),
    command: process.execPath,
    args: ['-e', 'process.exit(1)'],
    firstConnection: 'retry',
    clock,
  });
  open.push(connection);
  expect(connection.status).toBe('reconnecting');
  return connection;
}

const context = (signal: AbortSignal): ToolContext => ({ signal, callId: 'c1', attempt: 1 });

describe.each([
  ['with AbortSignal.any', false],
  ['without AbortSignal.any (Node 20.0 to 20.2)', true],
])('retryAfterReconnect %s', (_name, withoutAny) => {
  it('waits for the reconnect on the injected clock, then ends with the loss it came with', async () => {
    if (withoutAny) Reflect.deleteProperty(AbortSignal, 'any');
    const clock = createFakeClock();
    const connection = await unreachable(clock);
    const loss = new UpstreamUnavailableError('gone', 'server "gone" is being reconnected');
    let sent = 0;
    const execute = retryAfterReconnect(
      async () => {
        sent++;
        throw loss;
      },
      { connection: () => connection, clock },
    );
    let settled = false;
    const call = Promise.resolve(execute({}, context(new AbortController().signal)));
    const settle = (): void => {
      settled = true;
    };
    call.then(settle, settle);
    await clock.advance(RECONNECT_WAIT_MS - 1);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(settled).toBe(true);
    await expect(call).rejects.toBe(loss);
    expect(sent).toBe(1);
  });

  it("ends the wait with the call's own cancellation", async () => {
    if (withoutAny) Reflect.deleteProperty(AbortSignal, 'any');
    const clock = createFakeClock();
    const connection = await unreachable(clock);
    const execute = retryAfterReconnect(
      async () => {
        throw new UpstreamUnavailableError('gone', 'lost');
      },
      { connection: () => connection, clock },
    );
    const cancel = new AbortController();
    const call = Promise.resolve(execute({}, context(cancel.signal)));
    await clock.advance(10);
    const reason = new Error('cancelled by the client');
    cancel.abort(reason);
    await expect(call).rejects.toBe(reason);
  });
});
