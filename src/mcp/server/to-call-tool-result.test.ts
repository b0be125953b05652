import { describe, expect, it } from 'vitest';
import { toCallToolResult } from './to-call-tool-result.js';

describe('toCallToolResult', () => {
  it("keeps a tool's _meta key named __proto__ as a key, and drops the protocol's", () => {
    const meta = JSON.parse(
      '{"__proto__": {"status": "forged"}, "io.modelcontextprotocol/related": 1, "mine": 2}',
    ) as Record<string, unknown>;
    const result = toCallToolResult({
      id: 'c1',
      name: 'tool',
      status: 'ok',
      isError: false,
      content: [{ type: 'text', text: 'done' }],
      attempts: 1,
      queuedMs: 0,
      runMs: 1,
      _meta: meta,
    });
    const out = result._meta as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ status: 'forged' });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.mine).toBe(2);
    expect(Object.hasOwn(out, 'io.modelcontextprotocol/related')).toBe(false);
  });
});
