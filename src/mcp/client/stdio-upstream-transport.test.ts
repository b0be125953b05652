import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotJsonRpcMessageError, StdioUpstreamTransport } from './stdio-upstream-transport.js';

// A real child process: it answers each line it reads with a JSON-RPC result that tells the
// request's id, how many chunks it had read by then and what it was asked about; the `say`
// method makes it print the given raw text; `env` reports environment variables.
const ECHO_SERVER = `
let chunks = 0;
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  chunks += 1;
  rest += chunk;
  let end;
  while ((end = rest.indexOf('\\n')) !== -1) {
    const line = rest.slice(0, end);
    rest = rest.slice(end + 1);
    const message = JSON.parse(line);
    if (message.method === 'say') process.stdout.write(message.params.text);
    else if (message.method === 'env') {
      const env = {};
      for (const name of message.params.names) env[name] = process.env[name] ?? null;
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: env }) + '\\n');
    } else process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { chunks } }) + '\\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;

const open: StdioUpstreamTransport[] = [];
afterEach(async () => {
  for (const transport of open.splice(0)) await transport.close();
});

const start = async (env?: Record<string, string>) => {
  const transport = new StdioUpstreamTransport({
    command: process.execPath,
    args: ['-e', ECHO_SERVER],
    ...(env === undefined ? {} : { env }),
  });
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  await transport.start();
  open.push(transport);
  return { transport, messages, errors };
};

const request = (id: number, method = 'ping', params: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method, params }) as JSONRPCMessage;

const until = async (check: () => boolean): Promise<void> => {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('StdioUpstreamTransport', () => {
  it('reads a line of megabytes that arrives in many chunks, multi-byte characters split among them', async () => {
    const { transport, messages, errors } = await start();
    const text = 'é€𝄞'.repeat(300_000);
    const line = `${JSON.stringify({ jsonrpc: '2.0', id: 7, result: { text } })}\n`;
    await transport.send(request(1, 'say', { text: `${line}${line}` }));
    await until(() => messages.length === 2);
    expect(errors).toEqual([]);
    for (const message of messages) {
      expect((message as unknown as { result: { text: string } }).result.text).toBe(text);
    }
  });

  it('sends the first message of a turn at once and the rest of the turn in one write', async () => {
    const { transport, messages } = await start();
    await Promise.all([1, 2, 3, 4, 5, 6].map((id) => transport.send(request(id))));
    await until(() => messages.length === 6);
    const chunks = messages.map(
      (message) => (message as unknown as { result: { chunks: number } }).result.chunks,
    );
    // Six writes would have woken the server up to six times; here it reads two chunks.
    expect(Math.max(...chunks)).toBeLessThanOrEqual(2);
    expect(messages.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('writes what follows the first message of a turn once the turn is over', async () => {
    const { transport, messages } = await start();
    const done: number[] = [];
    const first = transport.send(request(1)).then(() => done.push(1));
    const second = transport.send(request(2)).then(() => done.push(2));
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    expect(done).toEqual([1]);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, second]);
    expect(done).toEqual([1, 2]);
    await until(() => messages.length === 2);
  });

  it('skips lines that are not JSON, reports JSON that is no JSON-RPC message, and reads split and CRLF lines', async () => {
    const { transport, messages, errors } = await start();
    await transport.send(
      request(1, 'say', {
        text: 'starting up (a log line on stdout)\n{"hello":1}\n{"jsonrpc":"2.0","id":7,"res',
      }),
    );
    await transport.send(request(2, 'say', { text: 'ult":{}}\r\n' }));
    await until(() => messages.length === 1);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(NotJsonRpcMessageError);
    expect(errors[0]?.message).toContain('{"hello":1}');
  });

  it("gives the server the SDK's default environment plus env, and nothing else of this process's", async () => {
    process.env.HINTGATE_TEST_NOT_PASSED = 'secret';
    try {
      const { transport, messages } = await start({ GIVEN: 'yes' });
      await transport.send(
        request(1, 'env', { names: ['GIVEN', 'PATH', 'HINTGATE_TEST_NOT_PASSED'] }),
      );
      await until(() => messages.length === 1);
      const env = (messages[0] as unknown as { result: Record<string, string | null> }).result;
      expect(env.GIVEN).toBe('yes');
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.HINTGATE_TEST_NOT_PASSED).toBeNull();
    } finally {
      delete process.env.HINTGATE_TEST_NOT_PASSED;
    }
  });

  it('closes by ending stdin, tells onclose, and refuses to send afterwards', async () => {
    const { transport } = await start();
    const pid = transport.pid;
    expect(pid).toBeGreaterThan(0);
    let closed = 0;
    transport.onclose = () => {
      closed += 1;
    };
    await transport.close();
    await until(() => closed === 1);
    expect(() => process.kill(pid as number, 0)).toThrow();
    await expect(transport.send(request(1))).rejects.toMatchObject({
      code: 'NOT_CONNECTED',
      message: 'Not connected',
    });
  });

  it.each([
    { what: 'ends on SIGTERM', exits: true },
    { what: 'ignores SIGTERM', exits: false },
  ])(
    'closes a server that outlives the end of its stdin and $what: SIGTERM 2 s after stdin ends, SIGKILL 2 s after that',
    async ({ exits }) => {
      const transport = new StdioUpstreamTransport({
        command: process.execPath,
        args: [
          '-e',
          `process.stdin.resume();
process.on('SIGTERM', () => { process.stderr.write('SIGTERM\\n');${exits ? ' process.exit(0);' : ''} });
setInterval(() => {}, 1000);
process.stderr.write('ready\\n');`,
        ],
      });
      let stderr = '';
      transport.stderr.on('data', (chunk: Buffer) => {
        stderr += String(chunk);
      });
      /** Resolves once the server wrote `text` on stderr. */
      const heard = (text: string): Promise<void> =>
        new Promise((resolve) => {
          const check = (): void => {
            if (!stderr.includes(text)) return;
            transport.stderr.off('data', check);
            resolve();
          };
          transport.stderr.on('data', check);
          check();
        });
      const ended = new Promise<void>((resolve) => {
        transport.onclose = resolve;
      });
      await transport.start();
      open.push(transport);
      await heard('ready');
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        let closed = false;
        const closing = transport.close().then(() => {
          closed = true;
        });
        await vi.advanceTimersByTimeAsync(1999);
        expect(stderr).not.toContain('SIGTERM');
        expect(closed).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        await heard('SIGTERM');
        if (!exits) {
          await vi.advanceTimersByTimeAsync(1999);
          expect(closed).toBe(false);
          await vi.advanceTimersByTimeAsync(1);
        }
        await closing;
        // The server ends only by the last signal: it ignores the end of stdin, and one that
        // ignores SIGTERM ends only by SIGKILL.
        await ended;
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('fails a send still waiting for the pipe when the server goes away without reading it', async () => {
    const transport = new StdioUpstreamTransport({
      command: process.execPath,
      args: ['-e', 'process.stdin.pause(); setTimeout(() => process.exit(0), 200);'],
    });
    transport.onerror = () => {};
    await transport.start();
    open.push(transport);
    const big = request(1, 'ping', { text: 'x'.repeat(4 * 1024 * 1024) });
    await expect(transport.send(big)).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('waits on one drain however many turns write while the server does not read', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const transport = new StdioUpstreamTransport({
        command: process.execPath,
        args: ['-e', 'process.stdin.pause(); setInterval(() => {}, 1000);'],
      });
      transport.onerror = () => {};
      await transport.start();
      open.push(transport);
      const sends: Promise<void>[] = [];
      // 200 turns of 10 messages each, the pipe full after the first few.
      for (let turn = 0; turn < 200; turn += 1) {
        for (let i = 0; i < 10; i += 1) {
          const sent = transport.send(request(turn * 10 + i, 'ping', { text: 'x'.repeat(4096) }));
          sends.push(sent.catch(() => {}));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setImmediate(resolve));
      await transport.close();
      await Promise.all(sends);
      expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('rejects start when the command does not exist', async () => {
    const transport = new StdioUpstreamTransport({ command: 'hintgate-no-such-command-here' });
    transport.onerror = () => {};
    await expect(transport.start()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
