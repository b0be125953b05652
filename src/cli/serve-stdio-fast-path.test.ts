import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, serveArgv } from './serve-process.test-helpers.js';

// A real `hintgate serve` child process spoken to line by line, so that each request has
// exactly the shape under test: plain tools/call requests and those with _meta (a progress
// token) go through the one tools/call handler and must answer the same.

type Message = Record<string, unknown> & { id?: unknown; method?: string };

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hintgate-fast-path-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

let workspaces = 0;

const initializeRequest = (capabilities: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'fast-path-test', version: '1.0.0' },
  },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** Options of {@link start}. */
interface StartOptions {
  /** Capabilities the client declares. Default none. */
  readonly capabilities?: Record<string, unknown>;
  /** Whether to do the 2025-11-25 handshake before resolving. Default true. */
  readonly handshake?: boolean;
}

/** `hintgate serve` over stdio in a fresh workspace, with a line-level client. */
const start = async (mode: string, options: StartOptions = {}) => {
  workspaces += 1;
  const dir = join(root, `ws${workspaces}`);
  await mkdir(dir);
  await writeFile(join(dir, 'a.txt'), 'old a\n');
  const child = spawn(process.execPath, serveArgv(['--workspace', dir, '--mode', mode]), {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const received: Message[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    received.push(JSON.parse(line) as Message);
    for (const wake of waiters.splice(0)) wake();
  });
  /** Writes `messages` in one write: one chunk for the server, in practice. */
  const send = (...messages: unknown[]): void => {
    child.stdin.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
  };
  /** The first message received that matches, waiting up to `timeoutMs` for it. */
  const next = async (match: (message: Message) => boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.find(match);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  const response = (id: unknown, timeoutMs?: number) =>
    next((message) => message.id === id && !('method' in message), timeoutMs);
  if (options.handshake !== false) {
    send(initializeRequest(options.capabilities ?? {}));
    await response(0);
    // Once ping is answered, notifications/initialized was handled: what follows is read
    // later, so that plain calls take the fast path.
    send(initialized, { jsonrpc: '2.0', id: 'handshake', method: 'ping' });
    await response('handshake');
  }
  return {
    dir,
    send,
    next,
    response,
    received,
    stop: () => {
      child.stdin.end();
      child.kill('SIGKILL');
    },
  };
};

const call = (id: unknown, params: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});
const token = (id: number) => ({ _meta: { progressToken: id } });
const resultOf = (message: Message | undefined) => message?.result as Record<string, unknown>;
/** A result without what differs from call to call (timings). */
const stable = (result: Record<string, unknown>) => {
  const { _meta, structuredContent, ...rest } = result;
  const { durationMs: _duration, ...structured } = (structuredContent ?? {}) as Record<
    string,
    unknown
  >;
  const {
    'dev.hintgate/queuedMs': _queued,
    'dev.hintgate/runMs': _run,
    ...meta
  } = _meta as Record<string, unknown>;
  return { ...rest, _meta: meta, structuredContent: structured };
};

describe.concurrent('hintgate serve over stdio, tools/call fast path', () => {
  it('answers a plain call and a call with a progress token the same way', async ({
    onTestFinished,
  }) => {
    const server = await start('yolo');
    onTestFinished(server.stop);
    server.send(call(1, { name: 'read_file', arguments: { path: 'a.txt' } }));
    server.send(call(2, { name: 'read_file', arguments: { path: 'a.txt' }, ...token(7) }));
    const plain = resultOf(await server.response(1));
    const slow = resultOf(await server.response(2));
    expect(plain._meta).toMatchObject({ 'dev.hintgate/status': 'ok' });
    expect(JSON.stringify(plain.content)).toContain('old a');
    expect(Object.keys(plain)).toEqual(Object.keys(slow));
    expect(stable(plain)).toEqual(stable(slow));
  });

  it('answers a structured result (run_command) the same way on both paths', async ({
    onTestFinished,
  }) => {
    const server = await start('yolo');
    onTestFinished(server.stop);
    const args = { command: 'echo hi' };
    server.send(call(1, { name: 'run_command', arguments: args }));
    server.send(call(2, { name: 'run_command', arguments: args, ...token(2) }));
    const plain = resultOf(await server.response(1));
    const slow = resultOf(await server.response(2));
    expect(plain).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('hi') }],
      structuredContent: { exitCode: 0, timedOut: false },
    });
    expect(Object.keys(plain)).toEqual(Object.keys(slow));
    expect(stable(plain)).toEqual(stable(slow));
  });

  it('answers malformed params with the same JSON-RPC errors as the SDK path', async ({
    onTestFinished,
  }) => {
    const server = await start('yolo');
    onTestFinished(server.stop);
    const shapes = [
      { name: 'read_file', arguments: ['a.txt'] },
      { arguments: { path: 'a.txt' } },
      { name: 7 },
      { name: 'read_file', arguments: null },
    ];
    shapes.forEach((params, index) => {
      server.send(call(10 + index, params));
      // The same with _meta never takes the fast path.
      server.send(call(20 + index, { ...params, _meta: {} }));
    });
    for (const index of shapes.keys()) {
      const fast = await server.response(10 + index);
      const sdk = await server.response(20 + index);
      expect(fast?.error, JSON.stringify(shapes[index])).toMatchObject({ code: -32_602 });
      expect(fast?.error).toEqual(sdk?.error);
    }
  });

  it('asks for approval with elicitation/create and runs the call once approved', async ({
    onTestFinished,
  }) => {
    const server = await start('auto', { capabilities: { elicitation: { form: {} } } });
    onTestFinished(server.stop);
    server.send(call(1, { name: 'write_file', arguments: { path: 'c.txt', content: 'yes\n' } }));
    const ask = await server.next((message) => message.method === 'elicitation/create');
    expect(JSON.stringify(ask?.params)).toContain('write_file');
    server.send({
      jsonrpc: '2.0',
      id: ask?.id,
      result: { action: 'accept', content: { decision: 'allow_once' } },
    });
    expect(resultOf(await server.response(1))._meta).toMatchObject({
      'dev.hintgate/status': 'ok',
    });
    expect(await readFile(join(server.dir, 'c.txt'), 'utf8')).toBe('yes\n');
  });

  it('denies a call that needs approval when the client declared no elicitation', async ({
    onTestFinished,
  }) => {
    const server = await start('auto');
    onTestFinished(server.stop);
    server.send(call(1, { name: 'write_file', arguments: { path: 'c.txt', content: 'no\n' } }));
    expect(resultOf(await server.response(1))).toMatchObject({
      isError: true,
      _meta: { 'dev.hintgate/status': 'denied' },
    });
    expect(server.received.some((message) => message.method === 'elicitation/create')).toBe(false);
    await expect(readFile(join(server.dir, 'c.txt'), 'utf8')).rejects.toThrow();
  });

  it('stops a call on notifications/cancelled and sends no response for it', async ({
    onTestFinished,
  }) => {
    const server = await start('yolo');
    onTestFinished(server.stop);
    server.send(
      call(1, { name: 'run_command', arguments: { command: 'sleep 2 && echo done > b.txt' } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'no longer needed' },
    });
    server.send(call(2, { name: 'read_file', arguments: { path: 'a.txt' } }));
    expect(await server.response(2)).toBeDefined();
    expect(await server.response(1, 3_000)).toBeUndefined();
    await expect(readFile(join(server.dir, 'b.txt'), 'utf8')).rejects.toThrow();
  });

  it('answers a tools/call sent in the same chunk as initialize and notifications/initialized', async ({
    onTestFinished,
  }) => {
    const server = await start('yolo', { handshake: false });
    onTestFinished(server.stop);
    server.send(
      initializeRequest({}),
      initialized,
      call(1, { name: 'read_file', arguments: { path: 'a.txt' } }),
    );
    expect(resultOf(await server.response(0))).toMatchObject({ protocolVersion: '2025-11-25' });
    const result = resultOf(await server.response(1));
    expect(result._meta).toMatchObject({ 'dev.hintgate/status': 'ok' });
    expect(JSON.stringify(result.content)).toContain('old a');
  });

  it('answers [40 concurrent calls, numeric and string ids, one chunk] each with its own result', async ({
    onTestFinished,
  }) => {
    const server = await start('yolo');
    onTestFinished(server.stop);
    const count = 40;
    await Promise.all(
      Array.from({ length: count }, (_, n) =>
        writeFile(join(server.dir, `f${n}.txt`), `body ${n}\n`),
      ),
    );
    const idOf = (n: number) => (n % 2 === 0 ? n + 100 : `call-${n}`);
    server.send(
      ...Array.from({ length: count }, (_, n) =>
        call(idOf(n), { name: 'read_file', arguments: { path: `f${n}.txt` } }),
      ),
    );
    for (let n = 0; n < count; n += 1) {
      const result = resultOf(await server.response(idOf(n)));
      expect(JSON.stringify(result.content), `call ${n}`).toContain(`body ${n}`);
      expect(result._meta).toMatchObject({ 'dev.hintgate/status': 'ok' });
    }
    const responses = server.received.filter((message) => !('method' in message));
    // The handshake's responses and one per call: none twice.
    expect(responses).toHaveLength(count + 2);
  });
});
