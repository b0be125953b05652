import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/core';
import { describe, expect, it } from 'vitest';
import { plainCallToolResult } from './server/plain-call-tool-result.js';
import { isCommonMessage } from './server/stdio-downstream-transport.js';

// The fast paths kept (bench/RESULTS.md, section `gateway`) rest on what the
// SDK does: the HTTP fast path answers plain tools/call requests of 2025-11-25 sessions
// itself, the StdioCallLayer every tools/call of a 2025-11-25 stdio connection, and
// ToolCallTransport sends tools/call on a 2025-era stdio connection past the client's
// request layer. They take a plain result as the SDK's CallToolResult schema would pass it
// on (same keys, same order), and the stdio layer takes the params its quick check accepts
// as the SDK's CallToolRequest schema would hand them to a handler. The stdio downstream transport delivers a
// message of the common shapes as JSON.parse made it, where the SDK's reader passes every
// line through its JSONRPCMessageSchema. So the SDK is pinned to exact versions, and
// this test fails when an upgrade changes those versions or that schema's behaviour: then
// run `npm run bench -- --only gateway` and the fast paths' tests again before moving the pins.

/** The SDK versions the fast paths were checked against. */
const CHECKED = {
  '@modelcontextprotocol/client': '2.4.0',
  '@modelcontextprotocol/core': '2.4.0',
  '@modelcontextprotocol/node': '2.1.2',
  '@modelcontextprotocol/server': '2.4.0',
} as const;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the SDK the fast paths rest on', () => {
  it('is pinned to the exact versions they were checked against, and those are installed', () => {
    const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const [name, version] of Object.entries(CHECKED)) {
      expect(manifest.dependencies[name], `${name} in package.json`).toBe(version);
      const installed = JSON.parse(
        readFileSync(`${ROOT}node_modules/${name}/package.json`, 'utf8'),
      ) as { version: string };
      expect(installed.version, `installed ${name}`).toBe(version);
    }
  });

  it('passes a plain result on unchanged, key order included, as the fast paths write it', () => {
    const results = [
      { content: [{ type: 'text', text: 'pong' }] },
      {
        _meta: { 'dev.hintgate/status': 'ok' },
        content: [{ type: 'text', text: '{"a":1}' }],
        structuredContent: { a: 1 },
        isError: false,
      },
      { content: [], isError: true },
    ];
    for (const result of results) {
      const plain = plainCallToolResult(result);
      const parsed = CallToolResultSchema.parse(result);
      expect(plain).toEqual(parsed);
      expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed));
    }
  });

  it('passes a message of the common shapes on unchanged, as the stdio transport delivers it', () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } },
      { jsonrpc: '2.0', id: 'x', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a' }], extra: [1] } },
      { jsonrpc: '2.0', id: 2, method: 'x', params: { nested: { deep: [1, { a: null }] } } },
    ];
    for (const message of messages) {
      expect(isCommonMessage(message)).toBe(true);
      const parsed = JSONRPCMessageSchema.parse(message);
      expect(parsed).toEqual(message);
      expect(JSON.stringify(parsed)).toBe(JSON.stringify(message));
    }
  });

  it('hands the tools/call params the stdio layer takes quickly to a handler as they came', () => {
    const params = [
      { name: 'ping' },
      { name: 'ping', arguments: {} },
      { name: 'echo', arguments: { text: 'hi', nested: { a: [1, null] } } },
      { name: 'count', arguments: {}, _meta: { progressToken: 'count-1' } },
      { name: 'count', _meta: { progressToken: 7, traceparent: '00-abc-def-01' } },
    ];
    for (const given of params) {
      const parsed = CallToolRequestSchema.parse({ method: 'tools/call', params: given });
      expect(parsed.params.name).toBe(given.name);
      expect(parsed.params.arguments).toEqual(given.arguments);
      expect(parsed.params._meta).toEqual(given._meta);
    }
  });
});
