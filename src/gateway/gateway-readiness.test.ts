import { describe, expect, it } from 'vitest';
import type { McpServerConnection } from '../mcp/index.js';
import { gatewayReadiness } from './gateway-readiness.js';

const connection = (status: McpServerConnection['status']): McpServerConnection =>
  ({ status }) as McpServerConnection;

const signal = new AbortController().signal;

describe('gatewayReadiness', () => {
  it('is ready while every configured server is connected, read when asked', () => {
    const connections = new Map<string, McpServerConnection>([['a', connection('ready')]]);
    const [upstreams, ...rest] = gatewayReadiness({
      servers: [{ name: 'a' }, { name: 'b' }],
      connections,
    });
    expect(rest).toEqual([]);
    expect(upstreams?.name).toBe('upstreams');
    expect(upstreams?.check(signal)).toBe(false);
    connections.set('b', connection('reconnecting'));
    expect(upstreams?.check(signal)).toBe(false);
    connections.set('b', connection('ready'));
    expect(upstreams?.check(signal)).toBe(true);
  });

  it('adds the shared state check when the state is shared', () => {
    let ready = false;
    const checks = gatewayReadiness({
      servers: [],
      connections: new Map(),
      sharedState: { isReady: () => ready },
    });
    expect(checks.map((check) => check.name)).toEqual(['upstreams', 'shared-state']);
    expect(checks[1]?.check(signal)).toBe(false);
    ready = true;
    expect(checks[1]?.check(signal)).toBe(true);
  });
});
