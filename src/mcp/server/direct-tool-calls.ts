import type { CallToolResult as McpCallToolResult, Server } from '@modelcontextprotocol/server';
import type { Approver } from '../../policy/policy-types.js';
import type { McpToolServer } from './create-mcp-tool-server.js';

/** The `tools/call` params a direct call takes: a name and object arguments, nothing else. */
export interface DirectCallParams {
  /** The tool's name. */
  readonly name: string;
  /** The call's arguments; absent means none (`{}`). */
  readonly arguments?: Record<string, unknown> | undefined;
}

/** How a direct call ended: the projected result, or what it threw. */
export type DirectCallOutcome =
  | { readonly ok: true; readonly result: McpCallToolResult }
  | { readonly ok: false; readonly error: unknown };

/**
 * Internal, not part of the package's API (not exported from any index): `tools/call` of a
 * tool server without the SDK's request dispatch, for the stdio fast path of
 * `serveMcpStdio`. Only for 2025-era connections (no per-request envelope, no
 * `input_required`) and requests without `_meta` (no progress token).
 */
export interface DirectToolCalls {
  /**
   * Runs one call as the `tools/call` handler of `server` runs it on such a request: same
   * session, same approver (`elicitation/create` through `server`), audit failures after
   * the call ran leave its result standing; resolves to the result projected for the
   * connection's era, or rejects with what the handler would throw.
   */
  call(
    server: Server,
    id: string | number,
    params: DirectCallParams,
    signal: AbortSignal,
    /** Who asks for approvals instead of `elicitation/create` through `server`. */
    approver?: Approver,
  ): Promise<McpCallToolResult>;
  /**
   * Leaves a finished call's outcome for the `tools/call` handler of `server`: when the
   * same request (same id) is then passed to the SDK, the handler returns or throws it
   * instead of running the call again, so that the SDK validates and answers it exactly as
   * on its own path. Taken once.
   */
  handOff(server: Server, id: string | number, outcome: DirectCallOutcome): void;
}

// Keyed by the tool server rather than a field of it, so that the public McpToolServer type
// stays as it is; a tool server made elsewhere simply has no entry (no fast path).
const entries = new WeakMap<McpToolServer, DirectToolCalls>();

/** Records the direct entry of a tool server; for `createMcpToolServer` only. */
export function registerDirectToolCalls(toolServer: McpToolServer, calls: DirectToolCalls): void {
  entries.set(toolServer, calls);
}

/** The direct `tools/call` entry of a tool server made by `createMcpToolServer`, if any. */
export function directToolCalls(toolServer: McpToolServer): DirectToolCalls | undefined {
  return entries.get(toolServer);
}
