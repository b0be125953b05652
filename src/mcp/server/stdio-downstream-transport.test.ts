import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { StdioDownstreamTransport } from './stdio-downstream-transport.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A stdout that records each write it gets; with `hold`, each write waits to be released. */
function recorder(highWaterMark = 1 << 20) {
  const writes: string[] = [];
  let release: () => void = () => {};
  const stdout = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      if (highWaterMark > 64) done();
      else release = done;
    },
  });
  const releaseOne = (): void => {
    const current = release;
    release = () => {};
    current();
  };
  return { stdout, writes, releaseOne };
}

/** Feeds `chunks` to a transport; resolves to what it delivered, answered and reported. */
async function run(chunks: readonly (string | Buffer)[], maxLineBytes?: number) {
  const stdin = new PassThrough();
  const { stdout, writes } = recorder();
  const errors: string[] = [];
  const transport = new StdioDownstreamTransport({
    stdin,
    stdout,
    onLineError: (error) => errors.push(error.message),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });
  const delivered: JSONRPCMessage[] = [];
  transport.onmessage = (message) => delivered.push(message);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await transport.start();
  for (const chunk of chunks) stdin.write(chunk);
  stdin.end();
  await closed;
  const replies = writes
    .join('')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
  return { delivered, replies, errors };
}

const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}';
const result = '{"jsonrpc":"2.0","id":"a","result":{"content":[]}}';
const note = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const withMeta = '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"progressToken":7}}}';
const parsed = (...lines: string[]) => lines.map((line) => JSON.parse(line) as unknown);

describe('StdioDownstreamTransport, reading', () => {
  it('delivers [request, result, notification, request with _meta] in order, CRLF included', async () => {
    const { delivered, replies, errors } = await run([
      `${call}\r\n${result}\n${note}\n${withMeta}\n`,
    ]);
    expect(delivered).toEqual(parsed(call, result, note, withMeta));
    expect(replies).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('joins a line split across chunks and delivers a last line without a newline', async () => {
    const { delivered } = await run([
      call.slice(0, 10),
      `${call.slice(10)}\n${note.slice(0, 5)}`,
      note.slice(5),
    ]);
    expect(delivered).toEqual(parsed(call, note));
  });

  it('answers [good, not JSON, blank, not JSON-RPC, good] in one chunk and delivers only the good ones, in order', async () => {
    const { delivered, replies, errors } = await run([
      `${call}\nnot json\n  \n{"jsonrpc":"2.0","id":5,"method":3}\n${result}\n`,
    ]);
    expect(delivered).toEqual(parsed(call, result));
    expect(replies).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32_700, message: 'Parse error: the message is not JSON' },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32_600,
          message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
        },
      },
    ]);
    expect(errors).toHaveLength(2);
  });

  it('refuses JSON-RPC-looking messages the SDK schemas refuse: an extra key, a fractional id', async () => {
    const { delivered, replies } = await run([
      '{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}\n{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n',
    ]);
    expect(delivered).toEqual([]);
    expect(replies).toEqual([
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32_600 }) }),
      expect.objectContaining({ id: 1.5, error: expect.objectContaining({ code: -32_600 }) }),
    ]);
  });

  it('answers a line longer than maxLineBytes once, however many chunks it spans, and goes on after it', async () => {
    const long = 'x'.repeat(40);
    const { delivered, replies } = await run([long, long, long, `${long}\n${call}\n`], 64);
    expect(delivered).toEqual(parsed(call));
    expect(replies).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ code: -32_700 }) }),
    ]);
  });

  it('delivers an error response and a request with _meta as the SDK schema parses them', async () => {
    const error = '{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}';
    const { delivered, replies } = await run([`${error}\n${withMeta}\n`]);
    expect(delivered).toEqual(parsed(error, withMeta));
    expect(replies).toEqual([]);
  });
});

describe('StdioDownstreamTransport, writing', () => {
  const message = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

  it('writes [a, b, c] sent in one turn in one write at its end, in order, and a later turn in another', async () => {
    const { stdout, writes } = recorder();
    const transport = new StdioDownstreamTransport({ stdin: new PassThrough(), stdout });
    await transport.start();
    await Promise.all([transport.send(message(1)), transport.send(message(2))]);
    await transport.send(message(3));
    expect(writes).toEqual([]);
    await nextTurn();
    await transport.send(message(4));
    await nextTurn();
    expect(writes.map((write) => write.split('\n').filter(Boolean).length)).toEqual([3, 1]);
    expect(writes.join('')).toBe(
      [1, 2, 3, 4].map((id) => `${JSON.stringify(message(id))}\n`).join(''),
    );
    await transport.close();
  });

  it('never makes its senders wait, and keeps one drain listener on a stdout that asks to', async () => {
    const { stdout, writes, releaseOne } = recorder(4);
    const transport = new StdioDownstreamTransport({ stdin: new PassThrough(), stdout });
    await transport.start();
    for (let turn = 0; turn < 50; turn += 1) {
      const sent: Promise<void>[] = [];
      for (let i = 0; i < 40; i += 1) {
        sent.push(transport.send({ jsonrpc: '2.0', method: 'n', params: { at: `${turn}:${i}` } }));
      }
      await Promise.all(sent);
      await nextTurn();
      expect(stdout.listenerCount('drain')).toBeLessThanOrEqual(1);
    }
    const lines = () =>
      writes
        .join('')
        .split('\n')
        .filter((line) => line !== '');
    for (let turn = 0; turn < 200 && lines().length < 2000; turn += 1) {
      releaseOne();
      await nextTurn();
    }
    expect(lines()).toHaveLength(2000);
    expect(JSON.parse(lines()[1999] as string)).toMatchObject({ params: { at: '49:39' } });
    await transport.close();
  });

  it('writes what is queued when closed, leaves stdout open, and refuses to send after', async () => {
    const { stdout, writes } = recorder();
    const transport = new StdioDownstreamTransport({ stdin: new PassThrough(), stdout });
    await transport.start();
    await transport.send(message(1));
    await transport.close();
    expect(writes).toEqual([`${JSON.stringify(message(1))}\n`]);
    expect(stdout.writable).toBe(true);
    await expect(transport.send(message(2))).rejects.toThrow(/closed/);
  });

  it('reports an error of stdout, closes, and lets a later one pass without a crash', async () => {
    const { stdout } = recorder();
    const transport = new StdioDownstreamTransport({ stdin: new PassThrough(), stdout });
    const reported: Error[] = [];
    transport.onerror = (error) => reported.push(error);
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    stdout.emit('error', new Error('EPIPE: broken pipe'));
    stdout.emit('error', new Error('EPIPE: broken pipe, again'));
    expect(reported.map((error) => error.message)).toEqual(['EPIPE: broken pipe']);
    expect(closed).toBe(true);
  });
});
