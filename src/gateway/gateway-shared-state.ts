import type { AuditEvent } from '../audit/index.js';
import { HintgateError } from '../errors/index.js';
import type { PersistentApprovals, SharedSessionApprovals } from '../policy/index.js';
import type { Env } from '../registry/index.js';
import {
  connectRedisState,
  type SharedLimits,
  type SharedState,
  sharedAlwaysApprovals,
  sharedSessionApprovals,
  withSharedLimits,
} from '../state/index.js';
import { type Tool, withExecute } from '../tool/index.js';
import type { LoadedServerCommon, LoadedStateConfig } from './config/index.js';

/** Shortest sealing key, in bytes, as `createMcpToolServer` requires. */
const MIN_KEY_BYTES = 32;

/** What the gateway hands its parts when its state is shared; see {@link gatewaySharedState}. */
export interface GatewaySharedState {
  /** The shared state; `status` tells whether Redis answers now (for a readiness check). */
  readonly state: SharedState;
  /** Whether the shared state answers now. */
  isReady(): boolean;
  /**
   * Wraps a server's tool so that its rate limit, the server's quota across its tools and
   * the server's concurrency cap are shared.
   */
  share(server: LoadedServerCommon, tool: Tool): Tool;
  /** `always` approvals, for the runtime's `approvals`. */
  readonly approvals: PersistentApprovals;
  /** Session approvals, for the runtime's `sharedSessions`. */
  readonly sharedSessions: SharedSessionApprovals;
  /** The key every replica seals approval rounds with. */
  readonly requestStateKey: string;
  /** Spends an approval round once across replicas. */
  useRoundOnce(round: string, ttlMs: number): Promise<boolean>;
}

/** Options of {@link gatewaySharedState}. */
export interface GatewaySharedStateOptions {
  /** The `state` of the loaded configuration. */
  readonly config: LoadedStateConfig;
  /** Where the sealing key is read (`config.keyEnv`). */
  readonly env: Env;
  /** Records an audit event (`state.changed`). */
  readonly audit: (event: AuditEvent) => void;
  /** One line for the person running the gateway. */
  readonly notice: (message: string) => void;
  /** Lease of a concurrency slot, in ms. Default 10000 (see `connectRedisState`). */
  readonly leaseMs?: number;
}

/**
 * The gateway's state on Redis, shared by every replica configured with the same `state`:
 * per-tool rate limits (configured, or declared in `annotations.custom.rateLimit`) and each
 * server's stated `concurrency` cap are kept there instead of in the process; `always` and
 * session approvals are remembered there; approval rounds are sealed with the shared key
 * and spent there once. Tools with neither a rate limit nor a stated cap are left as they
 * are, so their calls never touch Redis. Changes of reachability are told and audited.
 *
 * @throws HintgateError `invalid_config` when the sealing key's environment variable is
 * unset or shorter than 32 bytes, or the URL is not a Redis URL.
 */
export async function gatewaySharedState(
  options: GatewaySharedStateOptions,
): Promise<GatewaySharedState> {
  const { config, env, audit, notice } = options;
  const key = config.secret ?? env[config.keyEnv];
  if (key === undefined || Buffer.byteLength(key, 'utf8') < MIN_KEY_BYTES) {
    throw new HintgateError(
      'invalid_config',
      `state: the environment variable ${config.keyEnv} ${key === undefined ? 'is not set' : `holds ${Buffer.byteLength(key, 'utf8')} bytes`}; every gateway replica on one Redis needs the same secret of at least ${MIN_KEY_BYTES} bytes there to seal approval rounds (for example from "openssl rand -hex 32"), or name another variable with state.keyEnv.`,
    );
  }
  const state = await connectRedisState(config.url, {
    prefix: config.keyPrefix,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    onStatus: (status, detail) => {
      notice(
        status === 'ready'
          ? `shared state: ${detail}.`
          : `shared state: ${detail}; calls that need it end shared_state_unavailable until it is back.`,
      );
      audit({
        type: 'state.changed',
        time: new Date().toISOString(),
        stateStatus: status,
        message: detail,
      });
    },
  });
  const where = 'the shared state (Redis)';
  return {
    state,
    isReady: () => state.status === 'ready',
    share(server, tool) {
      const limits: SharedLimits = {
        ...(tool.rateLimit === undefined
          ? {}
          : {
              tool: {
                key: `tool:${server.name}/${tool.nameOnOrigin ?? tool.name}`,
                limit: tool.rateLimit,
              },
            }),
        ...(server.rateLimit === undefined
          ? {}
          : { server: { key: `server-rate:${server.name}`, limit: server.rateLimit } }),
        ...(server.concurrency === undefined
          ? {}
          : { concurrency: { key: `server:${server.name}`, max: server.concurrency } }),
      };
      const limited = withSharedLimits(tool, state, limits);
      if (limited === tool) return tool;
      // The shared window replaces the process's own, which would count each replica apart.
      const { rateLimit: _shared, ...rest } = limited;
      return withExecute(rest as Tool, limited.execute);
    },
    approvals: sharedAlwaysApprovals(state, where),
    sharedSessions: sharedSessionApprovals(state, where),
    requestStateKey: key,
    useRoundOnce: (round, ttlMs) => state.useOnce(round, ttlMs),
  };
}
