import type { McpServerConnection, ReadinessCheck } from '../mcp/index.js';

/** Options of {@link gatewayReadiness}. */
export interface GatewayReadinessOptions {
  /** The configured servers, by name. */
  readonly servers: readonly { readonly name: string }[];
  /** The gateway's connections by server name (a server not reached yet is absent). */
  readonly connections: ReadonlyMap<string, McpServerConnection>;
  /** Present with shared state: whether Redis answers now. */
  readonly sharedState?: { isReady(): boolean } | undefined;
}

/**
 * What a gateway's `/readyz` checks: `upstreams`, true while every configured server is
 * connected; with shared state also `shared-state`, true while Redis answers (a replica
 * that cannot reach it would fail its limited calls). Each check reads the state when it
 * is asked.
 */
export function gatewayReadiness(options: GatewayReadinessOptions): ReadinessCheck[] {
  const { servers, connections, sharedState } = options;
  return [
    {
      name: 'upstreams',
      check: () => servers.every((server) => connections.get(server.name)?.status === 'ready'),
    },
    ...(sharedState === undefined
      ? []
      : [{ name: 'shared-state', check: () => sharedState.isReady() }]),
  ];
}
