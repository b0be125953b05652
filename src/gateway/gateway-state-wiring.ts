import type { AuditEvent } from '../audit/index.js';
import type { LoadedGatewayConfig, LoadedServerCommon } from '../gateway/config/index.js';
import type { PersistentApprovals, SharedSessionApprovals } from '../policy/index.js';
import { createApprovalStore } from '../policy/node.js';
import type { Env } from '../registry/index.js';
import type { Tool } from '../tool/index.js';

/** Options of {@link gatewayStateWiring}. */
export interface GatewayStateWiringOptions {
  /** The loaded configuration: its `state` (absent: state in this process) and approvals file. */
  readonly config: LoadedGatewayConfig;
  /** Where the sealing key is read. */
  readonly env: Env;
  /** Records an audit event (`state.changed`). */
  readonly audit: (event: AuditEvent) => void;
  /** One line for the person running the gateway. */
  readonly notice: (message: string) => void;
  /** Lease of a concurrency slot held in Redis, in ms (see `createGateway`'s `stateLeaseMs`). */
  readonly leaseMs?: number | undefined;
}

/**
 * Where a gateway keeps its state, as options of each of its parts: approvals in the
 * configuration's approvals file and everything else in the process, or, with `state`, in
 * Redis shared by every replica (see `gatewaySharedState`).
 */
export interface GatewayStateWiring {
  /** The runtime's `approvals` (and `sharedSessions` when shared). */
  readonly runtime: {
    readonly approvals: PersistentApprovals;
    readonly sharedSessions?: SharedSessionApprovals;
  };
  /** The MCP server's sealing key and once-only rounds, when shared. */
  readonly toolServer: {
    readonly requestStateKey?: string;
    readonly useRoundOnce?: (round: string, ttlMs: number) => Promise<boolean>;
  };
  /** Wraps each upstream tool so its limits are shared, when shared. */
  readonly share?: (server: LoadedServerCommon, tool: Tool) => Tool;
  /** Present when shared: whether Redis answers now. */
  readonly sharedState?: { isReady(): boolean };
  /** Closes the shared state (nothing to close otherwise). */
  close(): Promise<void>;
}

/**
 * Wires a gateway's state: without `state` in the configuration, the approvals file; with
 * it, connects the shared state (the Redis client is loaded only then) and hands each part
 * its share of it.
 */
export async function gatewayStateWiring(
  options: GatewayStateWiringOptions,
): Promise<GatewayStateWiring> {
  const { config } = options;
  if (config.state === undefined) {
    return {
      runtime: { approvals: createApprovalStore({ path: config.approvals.path }) },
      toolServer: {},
      close: async () => {},
    };
  }
  const { gatewaySharedState } = await import('./gateway-shared-state.js');
  const shared = await gatewaySharedState({
    config: config.state,
    env: options.env,
    audit: options.audit,
    notice: options.notice,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
  });
  return {
    runtime: { approvals: shared.approvals, sharedSessions: shared.sharedSessions },
    toolServer: { requestStateKey: shared.requestStateKey, useRoundOnce: shared.useRoundOnce },
    share: shared.share,
    sharedState: { isReady: shared.isReady },
    close: () => shared.state.close(),
  };
}
