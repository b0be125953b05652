import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
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

/** serveMcpStdio over `tools` in `mode`, with what it wrote, write by write. */
function serve(tools: readonly Tool[], mode: Mode = 'yolo', auditSinks: readonly AuditSink[] = []) {
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
  const served = serveMcpStdio({ toolServer, stdin, stdout });
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
  return { runtime, send, response, find, received, writes, handshake, reported };
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

  it('leaves a plain call sent before notifications/initialized to the SDK, which answers it at the turn’s end', async () => {
    const { wait, started, open } = gatedWait();
    const server = serve([wait]);
    server.send(initialize);
    await server.response(0);
    server.send(call(1, 'wait'));
    await eventually(started);
    const writtenBeforeTurnEnd = await answeredInTurn(open, () => server.find(1) !== undefined);
    expect(writtenBeforeTurnEnd).toBe(false);
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
    const server = serve([measure], 'yolo', [failing]);
    await server.handshake();
    server.send(call(1, 'measure'));
    server.send(call(2, 'measure', withToken(2)));
    const [fast, sdk] = [resultOf(await server.response(1)), resultOf(await server.response(2))];
    expect(fast).toMatchObject({
      structuredContent: { size: 3 },
      _meta: { 'dev.hintgate/status': 'ok' },
    });
    expect(fast.structuredContent).toEqual(sdk.structuredContent);
    expect(fast.content).toEqual(sdk.content);
    expect(Object.keys(fast)).toEqual(Object.keys(sdk));
    // The call ran, so its result stands; the audit failure is reported, once per call.
    expect(server.reported.map((error) => error.message)).toEqual([
      expect.stringContaining('disk full'),
      expect.stringContaining('disk full'),
    ]);
  });

  it('answers [an image result, a result the SDK refuses, a runtime that is closed] as the SDK path does', async () => {
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
    const server = serve([image, broken]);
    await server.handshake();
    server.send(call(1, 'image'));
    server.send(call(2, 'image', withToken(2)));
    const [fast, sdk] = [await server.response(1), await server.response(2)];
    expect(fast.result).toMatchObject({
      content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }],
    });
    expect((fast.result as Record<string, unknown>).content).toEqual(
      (sdk.result as Record<string, unknown>).content,
    );

    server.send(call(3, 'broken'));
    server.send(call(4, 'broken', withToken(4)));
    const [fastError, sdkError] = [await server.response(3), await server.response(4)];
    expect(fastError.error).toMatchObject({ code: -32_602 });
    expect(fastError.error).toEqual(sdkError.error);

    await server.runtime.close();
    server.send(call(5, 'image'));
    server.send(call(6, 'image', withToken(6)));
    const [fastClosed, sdkClosed] = [await server.response(5), await server.response(6)];
    expect(fastClosed.error).toMatchObject({ message: expect.stringContaining('closed') });
    expect(fastClosed.error).toEqual(sdkClosed.error);
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
