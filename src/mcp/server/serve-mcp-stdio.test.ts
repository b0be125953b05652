import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AuditSink } from '../../audit/audit-event.js';
import type { Mode } from '../../policy/policy-types.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../../tool/presets.js';
import type { Tool } from '../../tool/tool.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import { eventually } from './mcp-clients.test-helpers.js';
import { serveMcpStdio } from './serve-mcp-stdio.js';

// serveMcpStdio on in-process streams, spoken to line by line: each chunk the test writes
// is one chunk the server reads, so that what shares a chunk is under the test's control.

type Message = Record<string, unknown> & { id?: unknown; method?: string };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'stdio-test', version: '1.0.0' },
  },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});
const withToken = (id: number) => ({ _meta: { progressToken: `token-${id}` } });

/**
 * serveMcpStdio over `tools` in `mode`, with what it wrote, write by write; `sdkOnly` leaves
 * out its `tools/call` layer (HINTGATE_FAST_PATHS without `stdio`), so that every request
 * goes through the SDK's dispatch.
 */
function serve(
  tools: readonly Tool[],
  mode: Mode = 'yolo',
  auditSinks: readonly AuditSink[] = [],
  sdkOnly = false,
) {
  const runtime = createRuntime({ tools: [...tools], mode, auditSinks });
  const reported: Error[] = [];
  const toolServer = createMcpToolServer({ runtime, onError: (error) => reported.push(error) });
  const stdin = new PassThrough();
  const writes: string[] = [];
  const received: Message[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString('utf8');
      writes.push(text);
      for (const line of text.split('\n')) if (line !== '') received.push(JSON.parse(line));
      done();
    },
  });
  if (sdkOnly) vi.stubEnv('HINTGATE_FAST_PATHS', 'http,upstream');
  const served = serveMcpStdio({ toolServer, stdin, stdout });
  vi.unstubAllEnvs();
  cleanups.push(async () => {
    stdin.end();
    await served.close();
    await toolServer.close();
    await runtime.close();
  });
  /** Writes `messages` as one chunk. */
  const send = (...messages: unknown[]): void => {
    stdin.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
  };
  const find = (id: unknown) =>
    received.find((message) => message.id === id && !('method' in message));
  const response = async (id: unknown) => {
    await eventually(() => find(id) !== undefined);
    return find(id) as Message;
  };
  const handshake = async () => {
    send(initialize);
    await response(0);
    send(initialized);
    // notifications/initialized is handled in the turn it is read.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { runtime, stdin, send, response, find, received, writes, handshake, reported };
}

/** A promise with its resolve function. */
const gate = () => {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

/** A tool `wait` that returns "done" once `open` is called; `started` says it began. */
const gatedWait = () => {
  const { open, opened } = gate();
  let began = false;
  const wait = defineTool({
    name: 'wait',
    description: 'Waits for the test.',
    annotations: READ_ONLY,
    inputSchema: z.object({}),
    execute: async () => {
      began = true;
      await opened;
      return 'done';
    },
  });
  return { wait, open, started: () => began };
};

/** Whether `answered` holds by the end of the turn in which `open` lets the tool finish. */
const answeredInTurn = (open: () => void, answered: () => boolean): Promise<boolean> =>
  new Promise((resolve) => {
    open();
    setImmediate(() => resolve(answered()));
  });

const resultOf = (message: Message) => message.result as Record<string, unknown>;
/** A result without its timings, which differ from run to run; key order kept. */
const untimed = (result: unknown) =>
  JSON.parse(
    JSON.stringify(result, (key, value) => (key.endsWith('Ms') ? undefined : value)),
  ) as unknown;
const statusOf = (message: Message | undefined) =>
  ((message?.result as Record<string, unknown> | undefined)?._meta as Record<string, unknown>)?.[
    'dev.hintgate/status'
  ];

describe('serveMcpStdio, tools/call with and without _meta', () => {
  it('runs [WRITE(a) with a progress token, plain READ(a)] of one chunk in that order', async () => {
    const events: string[] = [];
    const writeA = defineTool({
      name: 'write_a',
      description: 'Writes a.',
      annotations: WRITE,
      resources: ['file:a'],
      inputSchema: z.object({}),
      execute: async () => {
        events.push('write start');
        await new Promise((resolve) => setTimeout(resolve, 20));
        events.push('write end');
        return 'written';
      },
    });
    const readA = defineTool({
      name: 'read_a',
      description: 'Reads a.',
      annotations: READ_ONLY,
      resources: ['file:a'],
      inputSchema: z.object({}),
      execute: () => {
        events.push('read');
        return 'read';
      },
    });
    const server = serve([writeA, readA]);
    await server.handshake();
    // The plain call right behind one that goes the SDK's way must not overtake it.
    server.send(call(1, 'write_a', withToken(1)), call(2, 'read_a'));
    expect(statusOf(await server.response(2))).toBe('ok');
    expect(statusOf(await server.response(1))).toBe('ok');
    expect(events).toEqual(['write start', 'write end', 'read']);
    // Plain calls of one chunk keep their order among themselves too.
    events.length = 0;
    server.send(call(3, 'write_a'), call(4, 'read_a'));
    await server.response(4);
    expect(events).toEqual(['write start', 'write end', 'read']);
  });

  it('answers a tools/call sent in the same chunk as initialize and notifications/initialized', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      annotations: READ_ONLY,
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    const server = serve([echo]);
    server.send(initialize, initialized, call(1, 'echo', { arguments: { text: 'hi' } }));
    expect((await server.response(0)).result).toMatchObject({ protocolVersion: '2025-11-25' });
    const answer = await server.response(1);
    expect(answer.result).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
    expect(statusOf(answer)).toBe('ok');
  });

  it('leaves a plain call sent before notifications/initialized to the SDK, whose answer leaves in the turn its tool finished, no loop turn later', async () => {
    const { wait, started, open } = gatedWait();
    const server = serve([wait]);
    server.send(initialize);
    await server.response(0);
    server.send(call(1, 'wait'));
    await eventually(started);
    // The write waits for the turn's promise continuations (process.nextTick), not for the
    // event loop's next check phase: the answer is out before a setImmediate queued with it.
    const writtenInTurn = await answeredInTurn(open, () => server.find(1) !== undefined);
    expect(writtenInTurn).toBe(true);
    expect(statusOf(await server.response(1))).toBe('ok');
  });

  it('writes a plain call’s answer on the fast path in the turn its tool finished, no loop turn later', async () => {
    const { wait, started, open } = gatedWait();
    const server = serve([wait]);
    await server.handshake();
    server.send(call(1, 'wait'));
    await eventually(started);
    const writtenInTurn = await answeredInTurn(open, () => server.find(1) !== undefined);
    expect(writtenInTurn).toBe(true);
    expect(statusOf(await server.response(1))).toBe('ok');
  });

  it('writes the responses of [five calls that finish together] in one write, each with its own id', async () => {
    const { open, opened } = gate();
    let started = 0;
    const wait = defineTool({
      name: 'wait',
      description: 'Waits for the test.',
      annotations: READ_ONLY,
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        started += 1;
        await opened;
        return `n=${n}`;
      },
    });
    const server = serve([wait]);
    await server.handshake();
    const ids = [1, 'two', 3, 'four', 5];
    server.send(...ids.map((id, n) => call(id, 'wait', { arguments: { n } })));
    await eventually(() => started === ids.length);
    const before = server.writes.length;
    open();
    for (const [n, id] of ids.entries()) {
      expect((await server.response(id)).result).toMatchObject({
        content: [{ type: 'text', text: `n=${n}` }],
      });
    }
    expect(server.writes.slice(before)).toHaveLength(1);
  });

  it('answers [a result whose audit failed, a result under an output schema] as the SDK path does', async () => {
    const measure = defineTool({
      name: 'measure',
      description: 'Measures.',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      outputSchema: z.object({ size: z.number() }),
      execute: () => ({ size: 3, unit: 'm' }),
    });
    const failing: AuditSink = { write: () => Promise.reject(new Error('disk full')) };
    const layer = serve([measure], 'yolo', [failing]);
    const sdkOnly = serve([measure], 'yolo', [failing], true);
    for (const server of [layer, sdkOnly]) {
      await server.handshake();
      server.send(call(1, 'measure'));
      server.send(call(2, 'measure', withToken(2)));
    }
    for (const id of [1, 2]) {
      const [fast, sdk] = [
        resultOf(await layer.response(id)),
        resultOf(await sdkOnly.response(id)),
      ];
      expect(fast).toMatchObject({
        structuredContent: { size: 3 },
        _meta: { 'dev.hintgate/status': 'ok' },
      });
      expect(JSON.stringify(untimed(fast))).toBe(JSON.stringify(untimed(sdk)));
    }
    // The call ran, so its result stands; the audit failure is reported, once per call.
    expect(layer.reported.map((error) => error.message)).toEqual([
      expect.stringContaining('disk full'),
      expect.stringContaining('disk full'),
    ]);
  });

  it('answers [an image result, a result the SDK refuses, bad params, a runtime that is closed] as the SDK path does', async () => {
    const image = defineTool({
      name: 'image',
      description: 'Returns an image.',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: () => ({ content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] }),
    });
    const broken = defineTool({
      name: 'broken',
      description: 'Returns an image that is not base64.',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: () => ({ content: [{ type: 'image', data: '%%%', mimeType: 'image/png' }] }),
    });
    const layer = serve([image, broken]);
    const sdkOnly = serve([image, broken], 'yolo', [], true);
    const badParams = [
      { name: 3 },
      { name: 'image', arguments: [1] },
      { name: 'image', _meta: { progressToken: 1.5 } },
    ];
    for (const server of [layer, sdkOnly]) {
      await server.handshake();
      server.send(call(1, 'image'), call(2, 'image', withToken(2)));
      server.send(call(3, 'broken'), call(4, 'broken', withToken(4)));
      server.send(
        ...badParams.map((params, n) => ({
          jsonrpc: '2.0',
          id: 10 + n,
          method: 'tools/call',
          params,
        })),
      );
    }
    for (const id of [1, 2]) {
      const [fast, sdk] = [await layer.response(id), await sdkOnly.response(id)];
      expect(fast.result).toMatchObject({
        content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }],
      });
      expect(JSON.stringify(untimed(fast.result))).toBe(JSON.stringify(untimed(sdk.result)));
    }
    for (const id of [3, 4]) {
      const [fastError, sdkError] = [await layer.response(id), await sdkOnly.response(id)];
      expect(fastError.error).toMatchObject({ code: -32_602 });
      expect(fastError.error).toEqual(sdkError.error);
    }
    for (const id of [10, 11, 12]) {
      const [fastError, sdkError] = [await layer.response(id), await sdkOnly.response(id)];
      expect(fastError.error).toEqual(sdkError.error);
    }

    for (const server of [layer, sdkOnly]) {
      await server.runtime.close();
      server.send(call(5, 'image'));
    }
    const [fastClosed, sdkClosed] = [await layer.response(5), await sdkOnly.response(5)];
    expect(fastClosed.error).toMatchObject({ message: expect.stringContaining('closed') });
    expect(fastClosed.error).toEqual(sdkClosed.error);
  });
});

describe('serveMcpStdio, its tools/call layer', () => {
  it('refuses [a second call with the id of one under way] and answers the first; without the layer the SDK takes both', async () => {
    const layerWait = gatedWait();
    const layer = serve([layerWait.wait]);
    await layer.handshake();
    layer.send(call(7, 'wait'));
    await eventually(layerWait.started);
    layer.send(call(7, 'wait'));
    expect((await layer.response(7)).error).toMatchObject({
      code: -32_600,
      message: expect.stringContaining('already used by a call under way'),
    });
    layerWait.open();
    await eventually(() => layer.received.filter((m) => m.id === 7).length === 2);
    expect(statusOf(layer.received.filter((m) => m.id === 7)[1])).toBe('ok');

    const sdkWait = gatedWait();
    const sdkOnly = serve([sdkWait.wait], 'yolo', [], true);
    await sdkOnly.handshake();
    sdkOnly.send(call(7, 'wait'));
    await eventually(sdkWait.started);
    sdkOnly.send(call(7, 'wait'));
    sdkWait.open();
    await eventually(() => sdkOnly.received.some((m) => m.id === 7));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sdkOnly.received.filter((m) => m.id === 7 && 'error' in m)).toEqual([]);
  });

  it('aborts the calls under way when the client closes stdin, and answers none of them', async () => {
    let aborted = 0;
    const hang = defineTool({
      name: 'hang',
      description: 'Runs until cancelled.',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            aborted += 1;
            reject(context.signal.reason);
          });
        }),
    });
    const server = serve([hang]);
    await server.handshake();
    server.send(call(1, 'hang'), call(2, 'hang'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.stdin.end();
    await eventually(() => aborted === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.find(1)).toBeUndefined();
    expect(server.find(2)).toBeUndefined();
  });
});

describe('serveMcpStdio, order while an approval is pending', () => {
  it('[write(o) that asks, read(o)] in one chunk: the read waits for the answer given 500 ms later, and sees NEW', async () => {
    const docs = new Map([['o', 'OLD']]);
    const events: string[] = [];
    const writeDoc = defineTool({
      name: 'write_doc',
      description: 'Writes a document.',
      annotations: WRITE,
      resources: ['doc:{key}'],
      inputSchema: z.object({ key: z.string(), text: z.string() }),
      execute: ({ key, text }) => {
        events.push(`write ${key}`);
        docs.set(key, text);
        return 'written';
      },
    });
    const readDoc = defineTool({
      name: 'read_doc',
      description: 'Reads a document.',
      annotations: READ_ONLY,
      resources: ['doc:{key}'],
      inputSchema: z.object({ key: z.string() }),
      execute: ({ key }) => {
        events.push(`read ${key}`);
        return docs.get(key) ?? '';
      },
    });
    const server = serve([writeDoc, readDoc], 'ask');
    const withForms = {
      ...initialize,
      params: { ...initialize.params, capabilities: { elicitation: { form: {} } } },
    };
    server.send(withForms);
    await server.response(0);
    server.send(initialized);
    await new Promise((resolve) => setImmediate(resolve));
    server.send(
      call(1, 'write_doc', { arguments: { key: 'o', text: 'NEW' } }),
      call(2, 'read_doc', { arguments: { key: 'o' } }),
    );
    await eventually(() => server.received.some((m) => m.method === 'elicitation/create'));
    const form = server.received.find((m) => m.method === 'elicitation/create') as Message;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Nothing ran while the person was deciding: the read keeps its place behind the write.
    expect(events).toEqual([]);
    expect(server.find(2)).toBeUndefined();
    server.send({
      jsonrpc: '2.0',
      id: form.id,
      result: { action: 'accept', content: { decision: 'allow_once' } },
    });
    const read = await server.response(2);
    expect(resultOf(read).content).toEqual([{ type: 'text', text: 'NEW' }]);
    expect(statusOf(await server.response(1))).toBe('ok');
    expect(events).toEqual(['write o', 'read o']);
  });
});
