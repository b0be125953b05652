import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { describe, expect, it } from 'vitest';
import { plainCallToolResult } from './server/plain-call-tool-result.js';

// The two fast paths kept (bench/RESULTS.md, "MCP fast paths on and off") rest on what the
// SDK does: the HTTP fast path answers plain tools/call requests of 2025-11-25 sessions
// itself, and ToolCallTransport sends tools/call on a 2025-era stdio connection past the
// client's request layer. Both take a plain result as the SDK's CallToolResult schema
// would pass it on (same keys, same order). So the SDK is pinned to exact versions, and
// this test fails when an upgrade changes those versions or that schema's behaviour: then
// run bench/fast-paths.ts and the fast paths' tests again before moving the pins.

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
});
