import {
  Client,
  InMemoryTransport,
  ProtocolError,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { McpServer } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isPlainCallToolResult, ToolCallTransport } from './tool-call-transport.js';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** A real SDK server with a few tools, and a client connected to it with the 2025 handshake. */
const connect = async () => {
  const cancelled: string[] = [];
  const server = new McpServer({ name: 'raw-fixture', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes text.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  server.registerTool('picture', { description: 'Returns an image and a resource link.' }, () => ({
    content: [
      { type: 'image', data: 'aGk=', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
      { type: 'text', text: 'with annotations', annotations: { priority: 1 } },
    ],
  }));
  server.registerTool(
    'wait',
    { description: 'Waits until cancelled.' },
    (ctx) =>
      new Promise((resolve) => {
        ctx.mcpReq.signal.addEventListener('abort', () => {
          cancelled.push(String(ctx.mcpReq.signal.reason));
          resolve({ content: [{ type: 'text', text: 'stopped' }] });
        });
      }),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'raw-test', version: '1.0.0' });
  const layer = new ToolCallTransport(clientSide);
  await client.connect(layer);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, transport: clientSide, layer, cancelled };
};

const rawOf = async () => {
  const connected = await connect();
  const { layer } = connected;
  const raw = { call: layer.callTool.bind(layer) };
  return { ...connected, raw };
};

const never = new AbortController().signal;

describe('ToolCallTransport', () => {
  it('answers a text call and a call with other content as the SDK does', async () => {
    const { client, raw } = await rawOf();
    for (const [name, args] of [
      ['echo', { text: 'hi' }],
      ['picture', {}],
    ] as const) {
      const viaSdk = await client.callTool({ name, arguments: args });
      expect(await raw.call({ name, arguments: args }, never)).toEqual(viaSdk);
    }
  });

  it('leaves the SDK its own requests and notifications on the same transport', async () => {
    const { client, raw } = await rawOf();
    const [listed, called] = await Promise.all([
      client.listTools(),
      raw.call({ name: 'echo', arguments: { text: 'both' } }, never),
    ]);
    expect(listed.tools.map((tool) => tool.name)).toEqual(['echo', 'picture', 'wait']);
    expect(called.content).toEqual([{ type: 'text', text: 'both' }]);
  });

  it('rejects with a ProtocolError when the server answers with a JSON-RPC error', async () => {
    const { client, raw } = await rawOf();
    const viaSdk = await client
      .callTool({ name: 'echo', arguments: { text: 1 } })
      .then((result) => ({ result }))
      .catch((error: unknown) => ({ error }));
    const viaRaw = await raw
      .call({ name: 'echo', arguments: { text: 1 } }, never)
      .then((result) => ({ result }))
      .catch((error: unknown) => ({ error }));
    // The SDK server answers bad arguments either way; both paths must agree.
    if ('error' in viaSdk) {
      expect('error' in viaRaw && viaRaw.error).toBeInstanceOf(ProtocolError);
    } else expect(viaRaw).toEqual(viaSdk);
  });

  it('tells the server with notifications/cancelled when the signal aborts, and rejects with its reason', async () => {
    const { raw, cancelled } = await rawOf();
    const controller = new AbortController();
    const call = raw.call({ name: 'wait', arguments: {} }, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error('timed out after 20 ms'));
    await expect(call).rejects.toThrow('timed out after 20 ms');
    await expect.poll(() => cancelled).toHaveLength(1);
    expect(cancelled[0]).toContain('timed out after 20 ms');
  });

  it('rejects the calls under way with ConnectionClosed when the connection closes', async () => {
    const { raw, transport } = await rawOf();
    const call = raw.call({ name: 'wait', arguments: {} }, never);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await transport.close();
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe('CONNECTION_CLOSED');
    await expect(raw.call({ name: 'echo', arguments: { text: 'x' } }, never)).rejects.toThrow(
      'Not connected',
    );
  });

  it('rejects a call whose arguments cannot be sent, and leaves the SDK errors of a send as they are', async () => {
    const { raw, transport } = await rawOf();
    const send = transport.send.bind(transport);
    // A transport that serializes as it sends throws on a value JSON cannot hold.
    transport.send = () => {
      throw new TypeError('Do not know how to serialize a BigInt');
    };
    const error = await raw
      .call({ name: 'echo', arguments: { text: 'x', big: 1n } }, never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe('SEND_FAILED');
    expect((error as Error).message).toContain('BigInt');
    const refused = new SdkError(SdkErrorCode.ClientHttpForbidden, 'forbidden');
    transport.send = () => Promise.reject(refused);
    await expect(raw.call({ name: 'echo', arguments: { text: 'x' } }, never)).rejects.toBe(refused);
    transport.send = send;
    expect((await raw.call({ name: 'echo', arguments: { text: 'ok' } }, never)).content).toEqual([
      { type: 'text', text: 'ok' },
    ]);
  });
});

describe('isPlainCallToolResult', () => {
  const block = fc.oneof(
    fc.record({ type: fc.constant('text'), text: fc.string() }),
    fc.record({ type: fc.constant('text'), text: fc.oneof(fc.integer(), fc.constant(null)) }),
    fc.record({ type: fc.constant('image'), data: fc.string(), mimeType: fc.string() }),
    fc.record(
      {
        type: fc.constantFrom('text', 'audio', 'resource'),
        text: fc.string(),
        extra: fc.anything(),
      },
      { requiredKeys: ['type'] },
    ),
    fc.anything(),
  );
  const result = fc.record(
    {
      content: fc.oneof(fc.array(block, { maxLength: 4 }), fc.anything()),
      isError: fc.oneof(fc.boolean(), fc.anything()),
      _meta: fc.oneof(fc.dictionary(fc.string(), fc.anything()), fc.anything()),
      structuredContent: fc.oneof(fc.dictionary(fc.string(), fc.anything()), fc.anything()),
      other: fc.anything(),
    },
    { requiredKeys: [] },
  );

  it('accepts only what the SDK schema accepts unchanged', () => {
    fc.assert(
      fc.property(result, (value) => {
        if (!isPlainCallToolResult(value)) return;
        const parsed = CallToolResultSchema.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the common text results', () => {
    expect(isPlainCallToolResult({ content: [{ type: 'text', text: 'pong' }] })).toBe(true);
    expect(
      isPlainCallToolResult({ content: [], isError: true, _meta: {}, structuredContent: { a: 1 } }),
    ).toBe(true);
    expect(isPlainCallToolResult({ content: [{ type: 'image', data: '', mimeType: 'x' }] })).toBe(
      false,
    );
    expect(isPlainCallToolResult({ content: [{ type: 'text', text: 'a', annotations: {} }] })).toBe(
      false,
    );
    expect(isPlainCallToolResult({})).toBe(false);
  });
});
