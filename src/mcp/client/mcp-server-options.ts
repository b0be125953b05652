import { HintgateError } from '../../errors/index.js';
import { TOOL_LAYERS, type ToolLayer, ToolRegistry } from '../../registry/index.js';
import type { Clock } from '../../schedule/index.js';
import type { CallTelemetry } from '../../telemetry/index.js';
import { isPlainObject } from '../../tool/index.js';
import {
  type CheckedTarget,
  checkTarget,
  type McpHttpTarget,
  type McpStdioTarget,
} from './mcp-target.js';
import {
  DEFAULT_RECONNECT,
  type ReconnectOptions,
  type ResolvedReconnect,
} from './reconnect-delay.js';
import type { UpstreamRequests } from './upstream-requests.js';

/**
 * Which protocol era to speak: `auto` probes with `server/discover` and falls back to the
 * 2025 `initialize` handshake; `legacy` goes straight to `initialize`; `modern` requires the
 * 2026-07-28 revision and fails against an older server.
 */
export type McpEraOption = 'auto' | 'legacy' | 'modern';

/** Options shared by both transports of {@link connectMcpServer}. */
export interface ConnectMcpServerCommonOptions {
  /** Origin name of the server's tools in the registry, for example `github`. Unique there. */
  readonly name: string;
  /** The registry the server's tools are added to (as one origin) and refreshed in. */
  readonly registry: ToolRegistry;
  /** Registry layer of the tools. Default `project`. */
  readonly layer?: ToolLayer;
  /**
   * Whether the server's annotations are used. Default `false`: its tools run with the MCP
   * spec defaults (serialized, asking for approval) until configuration vouches for them.
   */
  readonly trusted?: boolean;
  /** Most calls to this server at once: a positive integer or `Infinity`. Default: the runtime's (1 when untrusted). */
  readonly concurrency?: number;
  /**
   * Protocol era negotiation. Default `legacy` for a server run over stdio (the 2025
   * handshake: no probe process spawned beside it, no wait on a server that ignores the
   * probe, and the cheaper per-call path), `auto` over Streamable HTTP.
   */
  readonly era?: McpEraOption;
  /** Time allowed for one connection attempt (handshake and tool list), in milliseconds. Default 30000. */
  readonly connectTimeoutMs?: number;
  /**
   * How a person gives a slow server more time, told when the first connection times out
   * ("The server did not answer within 30000 ms; <hint> if it starts slowly."): name the
   * setting they can change, such as a configuration key or a command-line flag. Default
   * `raise "connectTimeoutMs"`.
   */
  readonly connectTimeoutHint?: string;
  /**
   * Re-establishing a lost connection, with exponential backoff and jitter; `false` closes
   * the connection for good when it is lost. Default {@link DEFAULT_RECONNECT}.
   */
  readonly reconnect?: ReconnectOptions | false;
  /**
   * What a failed first connection does: `required` rejects `connectMcpServer` with the
   * cause; `retry` resolves with the connection in status `reconnecting`, its
   * `lastError` saying why, and tries again with the backoff of `reconnect`, as after a
   * loss (its tools are registered once it is reached). Default `required`.
   */
  readonly firstConnection?: 'required' | 'retry';
  /** Receives the server process's stderr as it arrives (stdio only). Default: kept only as a bounded tail for error messages. */
  readonly onStderr?: (text: string) => void;
  /** How hintgate introduces itself to the server. Default `{ name: 'hintgate', version: <package version> }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Time source and timers for backoff. Default the system clock. */
  readonly clock?: Clock;
  /** Random numbers in [0, 1) for backoff jitter. Default `Math.random`. */
  readonly random?: () => number;
  /**
   * Answers the requests the server sends its client (`roots/list`,
   * `sampling/createMessage`, `elicitation/create`), declaring those capabilities. Default
   * none: no such capability is declared.
   */
  readonly serverRequests?: UpstreamRequests;
  /**
   * Stops the first connection while it is being made: what was started is closed (a
   * stdio server's process is stopped) and `connectMcpServer` rejects with the signal's
   * reason. Once connected, use `close()`.
   */
  readonly signal?: AbortSignal;
  /**
   * When the tools' JSON Schemas are compiled: `eager` (default) as the tools are listed, so
   * that `problems` names every schema hintgate's validator rejects at once; `lazy` on each
   * tool's first call, so that a server of thousands of tools is listed and served without
   * compiling thousands of schemas (a problem found on a first call is added to `problems`
   * then). The gateway and `hintgate pin` use `lazy`.
   */
  readonly schemas?: 'eager' | 'lazy';
  /**
   * Traces each `tools/call` sent to the server: a client span, a child of the call under
   * way, whose `traceparent` goes in the request's `_meta`. Default none.
   */
  readonly telemetry?: Pick<CallTelemetry, 'upstream'>;
}

/** Options of {@link connectMcpServer}: common options plus a stdio or an HTTP target. */
export type ConnectMcpServerOptions = ConnectMcpServerCommonOptions &
  (McpStdioTarget | McpHttpTarget);

/** Options of {@link connectMcpServer} after checking, defaults applied. */
export interface CheckedMcpServerOptions {
  readonly name: string;
  readonly registry: ToolRegistry;
  readonly target: CheckedTarget;
  readonly layer: ToolLayer;
  readonly trusted: boolean;
  readonly concurrency?: number;
  readonly era: McpEraOption;
  readonly connectTimeoutMs: number;
  readonly connectTimeoutHint: string;
  readonly reconnect: ResolvedReconnect | false;
  readonly firstConnection: 'required' | 'retry';
  readonly onStderr?: (text: string) => void;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly serverRequests?: UpstreamRequests;
  readonly schemas: 'eager' | 'lazy';
  readonly telemetry?: Pick<CallTelemetry, 'upstream'>;
}

const KEYS = new Set([
  'name',
  'schemas',
  'registry',
  'layer',
  'trusted',
  'concurrency',
  'era',
  'connectTimeoutMs',
  'connectTimeoutHint',
  'reconnect',
  'firstConnection',
  'onStderr',
  'clientInfo',
  'clock',
  'random',
  'serverRequests',
  'telemetry',
  'signal',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
]);
const ERAS: readonly McpEraOption[] = ['auto', 'legacy', 'modern'];
/** The longest delay a Node.js timer honours, in milliseconds. */
export const MAX_MS = 2_147_483_647;

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', message);
};

const isMs = (value: unknown): value is number =>
  typeof value === 'number' && value > 0 && value <= MAX_MS;

const checkReconnect = (value: unknown, where: string): ResolvedReconnect | false => {
  if (value === false) return false;
  if (value === undefined) return DEFAULT_RECONNECT;
  const r = (isPlainObject(value) ? value : {}) as ReconnectOptions;
  const resolved = { ...DEFAULT_RECONNECT, ...r };
  const attemptsOk =
    resolved.maxAttempts === Number.POSITIVE_INFINITY ||
    (Number.isInteger(resolved.maxAttempts) && resolved.maxAttempts >= 1);
  if (
    !isPlainObject(value) ||
    Object.keys(value).some((k) => !Object.hasOwn(DEFAULT_RECONNECT, k)) ||
    !isMs(resolved.initialDelayMs) ||
    !isMs(resolved.maxDelayMs) ||
    resolved.maxDelayMs < resolved.initialDelayMs ||
    !attemptsOk
  ) {
    return invalid(
      `${where}: reconnect must be false or { initialDelayMs?: ms > 0, maxDelayMs?: ms >= initialDelayMs, maxAttempts?: integer >= 1 or Infinity }, for example { initialDelayMs: 250, maxDelayMs: 30000 }.`,
    );
  }
  return Object.freeze(resolved);
};

/**
 * Checks the options of {@link connectMcpServer} before anything is started.
 *
 * @throws HintgateError `invalid_option` naming the option and what to write instead.
 */
export function checkMcpServerOptions(options: unknown): CheckedMcpServerOptions {
  if (!isPlainObject(options)) return invalid('connectMcpServer expects one options object.');
  const o = options;
  if (typeof o.name !== 'string' || o.name.trim() === '') {
    invalid(
      `MCP server name ${JSON.stringify(o.name)} is invalid: give a non-empty name, used as the origin of its tools.`,
    );
  }
  const where = `MCP server "${String(o.name)}"`;
  for (const key of Object.keys(o)) {
    if (!KEYS.has(key)) {
      invalid(`${where}: unknown option "${key}". Known options: ${[...KEYS].join(', ')}.`);
    }
  }
  if (!(o.registry instanceof ToolRegistry)) {
    invalid(`${where}: registry must be a registry made by createRegistry().`);
  }
  const target = checkTarget(o, where);
  if (o.layer !== undefined && !(TOOL_LAYERS as readonly unknown[]).includes(o.layer)) {
    invalid(
      `${where}: layer ${JSON.stringify(o.layer)} is invalid; use ${TOOL_LAYERS.join(', ')}.`,
    );
  }
  if (o.trusted !== undefined && typeof o.trusted !== 'boolean') {
    invalid(`${where}: trusted must be true or false.`);
  }
  const { concurrency } = o;
  if (
    concurrency !== undefined &&
    concurrency !== Number.POSITIVE_INFINITY &&
    !(Number.isInteger(concurrency) && (concurrency as number) > 0)
  ) {
    invalid(`${where}: concurrency must be a positive integer or Infinity.`);
  }
  if (o.era !== undefined && !(ERAS as readonly unknown[]).includes(o.era)) {
    invalid(`${where}: era ${JSON.stringify(o.era)} is invalid; use ${ERAS.join(', ')}.`);
  }
  if (o.connectTimeoutMs !== undefined && !isMs(o.connectTimeoutMs)) {
    invalid(`${where}: connectTimeoutMs must be milliseconds in (0, ${MAX_MS}].`);
  }
  if (
    o.firstConnection !== undefined &&
    o.firstConnection !== 'required' &&
    o.firstConnection !== 'retry'
  ) {
    invalid(`${where}: firstConnection must be "required" or "retry".`);
  }
  if (o.connectTimeoutHint !== undefined && typeof o.connectTimeoutHint !== 'string') {
    invalid(`${where}: connectTimeoutHint must be a string.`);
  }
  for (const key of ['onStderr', 'random'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'function') {
      invalid(`${where}: ${key} must be a function.`);
    }
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) {
    invalid(`${where}: signal must be an AbortSignal.`);
  }
  const clock = o.clock as Partial<Record<keyof Clock, unknown>> | undefined;
  if (
    clock !== undefined &&
    (typeof clock?.now !== 'function' ||
      typeof clock.setTimeout !== 'function' ||
      typeof clock.clearTimeout !== 'function')
  ) {
    invalid(`${where}: clock must be { now(), setTimeout(callback, ms), clearTimeout(handle) }.`);
  }
  const requests = o.serverRequests as Partial<Record<keyof UpstreamRequests, unknown>> | undefined;
  if (
    requests !== undefined &&
    (typeof requests?.handle !== 'function' ||
      typeof requests.capabilities !== 'object' ||
      requests.capabilities === null)
  ) {
    invalid(`${where}: serverRequests must be { capabilities, handle(method, params, signal) }.`);
  }
  if (o.schemas !== undefined && o.schemas !== 'eager' && o.schemas !== 'lazy') {
    invalid(`${where}: schemas must be "eager" or "lazy".`);
  }
  const telemetry = o.telemetry as { upstream?: unknown } | undefined;
  if (telemetry !== undefined && typeof telemetry?.upstream !== 'function') {
    invalid(`${where}: telemetry must be an object with an upstream(name, server) method.`);
  }
  const info = o.clientInfo as { name?: unknown; version?: unknown } | undefined;
  if (info !== undefined && (typeof info?.name !== 'string' || typeof info.version !== 'string')) {
    invalid(`${where}: clientInfo must be { name: string, version: string }.`);
  }
  return {
    name: o.name as string,
    registry: o.registry as ToolRegistry,
    target,
    layer: (o.layer as ToolLayer | undefined) ?? 'project',
    trusted: (o.trusted as boolean | undefined) ?? false,
    ...(concurrency === undefined ? {} : { concurrency: concurrency as number }),
    era: (o.era as McpEraOption | undefined) ?? (target.kind === 'stdio' ? 'legacy' : 'auto'),
    connectTimeoutMs: (o.connectTimeoutMs as number | undefined) ?? 30_000,
    connectTimeoutHint: (o.connectTimeoutHint as string | undefined) ?? 'raise "connectTimeoutMs"',
    reconnect: checkReconnect(o.reconnect, where),
    firstConnection: (o.firstConnection as 'required' | 'retry' | undefined) ?? 'required',
    ...(o.onStderr === undefined ? {} : { onStderr: o.onStderr as (text: string) => void }),
    ...(info === undefined
      ? {}
      : { clientInfo: { name: info.name as string, version: info.version as string } }),
    ...(o.clock === undefined ? {} : { clock: o.clock as Clock }),
    ...(o.random === undefined ? {} : { random: o.random as () => number }),
    ...(requests === undefined ? {} : { serverRequests: requests as UpstreamRequests }),
    schemas: o.schemas === 'lazy' ? 'lazy' : 'eager',
    ...(telemetry === undefined ? {} : { telemetry: telemetry as Pick<CallTelemetry, 'upstream'> }),
  };
}
