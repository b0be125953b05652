import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardJsonRpcLines } from './guard-json-rpc-lines.js';

/** Feeds `chunks` through a guard; resolves to what it passed on and what it answered. */
async function run(chunks: readonly (string | Buffer)[], maxLineBytes?: number) {
  const input = new PassThrough();
  const replies: unknown[] = [];
  const errors: string[] = [];
  const guard = guardJsonRpcLines({
    input,
    reply: (line) => replies.push(JSON.parse(line)),
    onError: (error) => errors.push(error.message),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });
  const passed: Buffer[] = [];
  guard.on('data', (data: Buffer) => passed.push(data));
  const ended = new Promise((resolve) => guard.on('end', resolve));
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await ended;
  return { passed: Buffer.concat(passed).toString('utf8'), replies, errors };
}

const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}';
const result = '{"jsonrpc":"2.0","id":"a","result":{"content":[]}}';
const note = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const withMeta = '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"progressToken":7}}}';

describe('guardJsonRpcLines', () => {
  it('passes [request, result, notification, request with _meta] on byte for byte, CRLF included', async () => {
    const text = `${call}\r\n${result}\n${note}\n${withMeta}\n`;
    const { passed, replies, errors } = await run([text]);
    expect(passed).toBe(text);
    expect(replies).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('joins a line split across chunks and passes a last line without a newline', async () => {
    const { passed } = await run([
      call.slice(0, 10),
      `${call.slice(10)}\n${note.slice(0, 5)}`,
      note.slice(5),
    ]);
    expect(passed).toBe(`${call}\n${note}\n`);
  });

  it('answers [good, not JSON, blank, not JSON-RPC, good] in one chunk and passes only the good lines, in order', async () => {
    const { passed, replies, errors } = await run([
      `${call}\nnot json\n  \n{"jsonrpc":"2.0","id":5,"method":3}\n${result}\n`,
    ]);
    expect(passed).toBe(`${call}\n${result}\n`);
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
    const { passed, replies } = await run([
      '{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}\n{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n',
    ]);
    expect(passed).toBe('');
    expect(replies).toEqual([
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32_600 }) }),
      expect.objectContaining({ id: 1.5, error: expect.objectContaining({ code: -32_600 }) }),
    ]);
  });

  it('answers a line longer than maxLineBytes once, however many chunks it spans, and goes on after it', async () => {
    const long = 'x'.repeat(40);
    const { passed, replies } = await run([long, long, long, `${long}\n${call}\n`], 64);
    expect(passed).toBe(`${call}\n`);
    expect(replies).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ code: -32_700 }) }),
    ]);
  });
});
