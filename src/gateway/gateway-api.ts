import type { AuditEvent, AuditSink } from '../audit/index.js';
import type { LoadedGatewayConfig } from '../gateway/config/index.js';
import type { McpServerConnection, McpToolServer, ReadinessCheck } from '../mcp/index.js';
import type { Approver, Mode } from '../policy/index.js';
import type { Env, ToolRegistry } from '../registry/index.js';
import type { Runtime } from '../runtime/index.js';
import type { CallTelemetry } from '../telemetry/index.js';
import type { GatewayToolState } from './gateway-tool-states.js';
import type { UpstreamConnectSettings } from './upstream-options.js';

/*
 * The shape of the gateway's API: what `createGateway` takes and what it gives. Its wiring
 * is in create-gateway.ts.
 */

/** Options of {@link createGateway}. */
export interface CreateGatewayOptions
  extends Omit<UpstreamConnectSettings, 'onStderr' | 'signal' | 'connectTimeoutHint'> {
  /**
   * The loaded configuration (`loadGatewayConfig`). Absent: the embedded default, the
   * built-in workspace tools of `workspace`, with state in `<workspace>/.hintgate/`.
   */
  readonly config?: LoadedGatewayConfig;
  /** The mode, over the configuration's. Default: the configuration's, else `ask`. */
  readonly mode?: Mode;
  /**
   * Problems that do not stop the gateway: an upstream that cannot be reached, a tool list
   * that could not be applied, a failed audit write. Default: written to stderr.
   */
  readonly onError?: (error: Error) => void;
  /**
   * What a person running the gateway should know: pin findings, tools held back, an
   * upstream lost and found again. One line each. Default: written to stderr.
   */
  readonly onNotice?: (message: string) => void;
  /**
   * Receives each upstream server process's stderr as it arrives, with the server's name.
   * Default: kept only as a short tail for error messages.
   */
  readonly onUpstreamStderr?: (server: string, text: string) => void;
  /** Directory of the embedded default (no `config`). Default: the current directory. */
  readonly workspace?: string;
  /**
   * Private addresses and names the embedded default's `web_fetch` may reach (no `config`;
   * see `fetchAllow` of the workspace tools). Default none.
   */
  readonly fetchAllow?: readonly string[];
  /** Environment read for `TOOL_<NAME>_DISABLED` (exposed names). Default `process.env`. */
  readonly env?: Env;
  /**
   * Re-read the pin file when it changes on disk (checked every `intervalMs`), so that
   * `hintgate pin` takes effect without a restart. `false` turns it off. Default
   * `{ intervalMs: 1000 }`.
   */
  readonly watchPins?: { readonly intervalMs: number } | false;
  /**
   * Stops the start while it is under way (a signal to the process): the connections being
   * made are given up, what was started is closed (upstream processes stop), and
   * `createGateway` rejects with the signal's reason. Once started, use `close()`.
   */
  readonly signal?: AbortSignal;
  /**
   * Loads more tools into the gateway's registry before its runtime is made, beside the
   * gateway's own (the upstream servers', or the built-in workspace tools, in the
   * `bundled` layer): the CLI loads the global and project tool layers with
   * `createToolDiscovery`, behind the project's trust. Loaders it attaches are closed with
   * the runtime.
   */
  readonly discoverTools?: (registry: ToolRegistry) => Promise<unknown>;
  /**
   * Approval channels besides each MCP client's own (the web console, a terminal): every
   * approval is offered to the client and to these at once, and the first answer wins (see
   * `createMcpToolServer`'s `approvalChannels`). Default none.
   */
  readonly approvalChannels?: readonly Approver[];
  /**
   * Audit sinks besides the JSONL log, for example the web console's live view: they get
   * every event the log gets. Default none.
   */
  readonly auditSinks?: readonly AuditSink[];
  /**
   * Traces every call: a span `execute_tool {name}` per `tools/call` continuing the
   * client's `_meta.traceparent`, with a child span per upstream request whose
   * `traceparent` goes to the server in `_meta`, and call metrics (`startTelemetry` makes
   * one from the `telemetry` block and the `OTEL_*` variables). Default none.
   */
  readonly telemetry?: CallTelemetry;
  /**
   * With `state` in the configuration: how long a concurrency slot held by this gateway
   * stays taken in Redis when the gateway dies without freeing it, in ms. Default the
   * configuration's `state.leaseMs`, else 10000.
   */
  readonly stateLeaseMs?: number;
}

/** A running gateway: upstream connections, one runtime over all their tools, and its MCP server. */
export interface Gateway {
  /**
   * The runtime every call goes through. Tools held back by their pins are neither listed
   * nor run: calls to them end `denied` with the reason.
   */
  readonly runtime: Runtime;
  /** The MCP server of the runtime: serve it with `serveMcpStdio` or `startMcpHttpServer`. */
  readonly toolServer: McpToolServer;
  /** Connections by server name; a server not reached yet is absent. */
  readonly connections: ReadonlyMap<string, McpServerConnection>;
  /**
   * What the HTTP endpoint's `/readyz` checks (hand it to `startMcpHttpServer`):
   * `upstreams`, true while every configured server is connected (none configured: the
   * built-in tools, always true). Shared state adds its own check here.
   */
  readonly readiness: readonly ReadinessCheck[];
  /**
   * Why each held-back tool is held back, by the name it is known by while held back: its
   * own name when no offered tool has it, else `<server>__<tool>`.
   */
  blockedTools(): ReadonlyMap<string, string>;
  /** Reads the pin file again and applies it now (it is also re-read when it changes). */
  reloadPins(): Promise<void>;
  /**
   * The state of every tool: claimed and effective annotations, trust, layer and
   * shadowing, whether it is offered or held back (and why), its pin status with the
   * review of a change, rate limit and its server's concurrency cap.
   */
  toolStates(): GatewayToolState[];
  /**
   * Present when the configuration keeps state in Redis (`state`): `isReady()` tells
   * whether Redis answers now; while it does not, calls that need it end
   * `shared_state_unavailable` (a readiness check can report the gateway not ready).
   */
  readonly sharedState?: { isReady(): boolean };
  /**
   * Records an event of the gateway's own (a `mode.changed` from the console) in the audit
   * log and the other sinks, in the background; `close` waits for it.
   */
  recordEvent(event: AuditEvent): void;
  /**
   * Shuts the gateway down: the runtime takes no more calls, the calls under way may finish
   * for up to `graceMs` (default 0) and are then cancelled (upstream servers are told), their
   * results still go to the clients, and the audit log is flushed; then the upstream
   * connections (their processes stop) and the MCP server are closed.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}
