import type { Mode, PolicyRule, ToolSettings } from '../../policy/index.js';
import type { RateLimit, ToolAnnotations } from '../../tool/index.js';

/**
 * What the gateway does with a tool that is not in the pin file yet (new, or renamed):
 * - `pending`: held back (not listed, calls denied) until it is pinned;
 * - `ask`: listed, but every call asks the client's user, whatever the mode and rules, and
 *   its annotations are not trusted, until it is pinned;
 * - `allow`: offered and run like a pinned tool.
 */
export type NewToolsPolicy = 'pending' | 'ask' | 'allow';

/** When the gateway's audit events reach the disk; see {@link GatewayConfig}. */
export type AuditSyncPolicy = 'auto' | 'always' | 'batched';

/** The values of `audit.sync`, the default first. */
export const AUDIT_SYNC_POLICIES: readonly AuditSyncPolicy[] = ['auto', 'always', 'batched'];

/** `audit.rotate` of a gateway configuration (see `AuditRotateOptions` of the JSONL sink). */
export interface GatewayAuditRotate {
  /** Rotate before an event that would take the file past this many bytes (at least 1024). */
  readonly maxBytes?: number;
  /** Rotate at the first event of each UTC day. Default false. */
  readonly daily?: boolean;
  /** Rotated files kept, 1 to 1000. Default 5. */
  readonly keep?: number;
}

/** Default of `audit.maxSyncDelayMs`, in milliseconds. */
export const DEFAULT_AUDIT_MAX_SYNC_DELAY_MS = 50;

/**
 * Concurrency cap of a server that is not trusted and states no `concurrency`, while every
 * tool it offers is pinned with the probe's verdict `verified`: their annotations are
 * trusted, so its reads may overlap (its writes are still ordered by their locks). Such a
 * server with any other tool runs one call at a time.
 */
export const VERIFIED_CONCURRENCY = 4;

/** Every {@link NewToolsPolicy}; the first is the default. */
export const NEW_TOOLS_POLICIES: readonly NewToolsPolicy[] = ['pending', 'ask', 'allow'];

/**
 * Server names: 1-64 characters of `A-Z a-z 0-9 _ -`. A name becomes the prefix of its
 * tools' names when two servers offer a tool of the same name, so it must fit in one.
 */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Default state paths, relative to the directory of the configuration file. */
export const DEFAULT_STATE_PATHS = {
  audit: '.hintgate/audit.jsonl',
  approvals: '.hintgate/approvals.json',
  pin: 'hintgate.lock',
} as const;

/**
 * Per-tool overrides of one server, keyed by the tool's name on that server (before any
 * prefix). Only the fields stated apply.
 */
export interface GatewayToolOverride {
  /** Annotations merged over the ones the server claims (the ones given here win). */
  readonly annotations?: ToolAnnotations | null;
  /** Resource key templates over the tool's arguments, e.g. `["file:{path}"]`. */
  readonly resources?: readonly string[] | null;
  /** Calls allowed per sliding window. */
  readonly rateLimit?: RateLimit | null;
  /** Time allowed for one call, in milliseconds. */
  readonly timeoutMs?: number;
  /** `true` hides the tool: it is neither listed nor callable. Default `false`. */
  readonly disabled?: boolean;
  /** Scopes a caller must all hold to see and call the tool (see `downstream.http.principals`). */
  readonly scopes?: readonly string[];
}

/** Settings hintgate adds to a server entry of an MCP client configuration. */
export interface GatewayServerExtras {
  /** Whether the server's annotations are used. Default `false` (the MCP spec defaults apply). */
  readonly trusted?: boolean;
  /**
   * Most calls to this server at once (a positive integer). Default: unbounded when
   * trusted; when untrusted, {@link VERIFIED_CONCURRENCY} while every tool it offers is
   * pinned as verified by the probe, else 1.
   */
  readonly concurrency?: number;
  /**
   * One quota across all this server's tools (a backend capped per second): at most `max`
   * calls that succeed per `windowMs`, beside each tool's own `rateLimit` (a call needs a
   * unit of both); a call waits for quota up to `maxWaitMs` (default `windowMs`), then ends
   * `rate_limited`. Default: none.
   */
  readonly rateLimit?: RateLimit | null;
  /**
   * Time allowed for one connection attempt (start, handshake, tool list), in
   * milliseconds. Default 30000.
   */
  readonly connectTimeoutMs?: number;
  /** Per-tool overrides, keyed by the tool's name on this server. */
  readonly tools?: Readonly<Record<string, GatewayToolOverride | null>> | null;
}

/** A server run as a child process and spoken to over stdin/stdout. */
export interface GatewayStdioServerConfig extends GatewayServerExtras {
  /** Tolerated as VS Code and other clients write it; implied by `command`. */
  readonly type?: 'stdio';
  /** Program to run, e.g. `npx`; `./` and `../` paths are relative to the configuration file. */
  readonly command: string;
  readonly args?: readonly string[] | null;
  /** Environment variables; values may use `${VAR}` references. */
  readonly env?: Readonly<Record<string, string>> | null;
  /** Working directory, relative to the configuration file. Default: its directory. */
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface GatewayHttpServerConfig extends GatewayServerExtras {
  /** Tolerated as VS Code and other clients write it; implied by `url`. */
  readonly type?: 'http';
  /** The server's MCP endpoint, `http:` or `https:`; may use `${VAR}` references. */
  readonly url: string;
  /** Headers sent with every request; values may use `${VAR}` references. */
  readonly headers?: Readonly<Record<string, string>> | null;
}

/** One upstream server entry, as written in the file. */
export type GatewayServerConfig = GatewayStdioServerConfig | GatewayHttpServerConfig;

/**
 * The gateway configuration as written in `hintgate.yaml` (or JSON), and as
 * `schema/hintgate.schema.json` describes it. An optional mapping or list may be `null`
 * (a YAML key whose content is all commented out): it then counts as absent.
 */
export interface GatewayConfig {
  /** For editors; ignored. */
  readonly $schema?: string;
  /** The upstream servers by name. Exactly one of `servers` and `mcpServers` is given. */
  readonly servers?: Readonly<Record<string, GatewayServerConfig>>;
  /** The same as `servers`, under the name Claude Desktop and Cursor use. */
  readonly mcpServers?: Readonly<Record<string, GatewayServerConfig>>;
  /** VS Code's prompt inputs; ignored (`${input:...}` references are not supported). */
  readonly inputs?: readonly unknown[];
  /** Default decision by class of call. Default `ask`. */
  readonly mode?: Mode;
  /** Policy rules, as in a policy file. */
  readonly rules?: readonly PolicyRule[] | null;
  /**
   * Configuration of the tools of the global and project tool folders by name: `enabled`
   * (or `disabled`), `timeoutMs`, `annotations`, `scopes`. An upstream server's tools are
   * configured under its `tools`.
   */
  readonly tools?: Readonly<
    Record<
      string,
      {
        readonly enabled?: boolean;
        readonly disabled?: boolean;
        readonly timeoutMs?: number;
        readonly annotations?: ToolAnnotations | null;
        readonly scopes?: readonly string[] | null;
      } | null
    >
  > | null;
  readonly audit?: {
    /** JSONL audit log. Default `.hintgate/audit.jsonl` beside the configuration. */
    readonly path?: string;
    /** Record call arguments (secrets redacted), not only their digest. Default `false`. */
    readonly arguments?: boolean;
    /**
     * When events reach the disk. `always`: a call's result is returned once its events
     * are synced (`fdatasync`). `batched`: once they are appended to the file (they survive
     * a crash or kill of the gateway), synced in the background at most `maxSyncDelayMs`
     * later (a crash of the machine can lose that last moment). `auto` (default): `batched`
     * for a read-only call (by its effective, trusted annotations), `always` for any other,
     * so only the events of read-only calls can be lost by a crash of the machine, those of
     * the last `maxSyncDelayMs` at most.
     */
    readonly sync?: AuditSyncPolicy;
    /**
     * Longest time, in milliseconds, an event waits for a sync no call asks for sooner.
     * Default 50.
     */
    readonly maxSyncDelayMs?: number;
    /**
     * When to start a new log file: `maxBytes` (before an event that would take the file past
     * that size), `daily: true` (at the first event of each UTC day), or both; `keep`, how
     * many old files to keep (`PATH.1` newest ... `PATH.keep`; default 5). A rotation happens
     * only between whole lines. Default: no rotation.
     */
    readonly rotate?: GatewayAuditRotate | null;
  } | null;
  /**
   * Where limits, approvals and pending approval rounds are kept, so that several gateway
   * replicas share them: a Redis URL (`redis://` or `rediss://`, may use `${VAR}`), or
   * `{ url, secret, keyEnv, keyPrefix }`. Absent: in the gateway's process (and the approvals file).
   */
  readonly state?: string | GatewayStateSettings | null;
  readonly approvals?: {
    /** "Always allow" answers. Default `.hintgate/approvals.json` beside the configuration. */
    readonly path?: string;
  } | null;
  readonly pin?: {
    /** Pin file. Default `hintgate.lock` beside the configuration. */
    readonly path?: string;
    /**
     * What happens to a tool that is not pinned yet: `pending` (held back), `ask` (every
     * call asks) or `allow`. Default `pending`.
     */
    readonly newTools?: NewToolsPolicy;
  } | null;
  readonly downstream?: {
    /** Present: serve Streamable HTTP to clients instead of stdio. */
    readonly http?: {
      /** Address to listen on. Default 127.0.0.1. */
      readonly host?: string;
      /** Port to listen on, 0 for any free one. Default 3000. */
      readonly port?: number;
      /** Bearer token clients must send (at least 8 characters); may be `${VAR}`. */
      readonly token?: string;
    } | null;
  } | null;
  /**
   * The web console (approvals inbox, audit trail, tools) on 127.0.0.1: `true`, or its
   * settings. Default: off.
   */
  readonly console?:
    | boolean
    | {
        /** Port on 127.0.0.1, 0 for any free one. Default 0. */
        readonly port?: number;
        /**
         * Login token (at least 16 characters); may be `${VAR}`. Default: a random one on
         * every start, printed on stderr.
         */
        readonly token?: string;
      }
    | null;
}

/** `state` as a mapping; see {@link GatewayConfig.state}. */
export interface GatewayStateSettings {
  /** The Redis URL, `redis://host:6379` or `rediss://` for TLS; may use `${VAR}`. */
  readonly url: string;
  /**
   * The secret (at least 32 bytes, the same on every replica) approval rounds are sealed
   * with, as a reference to the environment variable that holds it: `${HINTGATE_STATE_SECRET}`.
   * A secret written out in the file is refused.
   */
  readonly secret?: string;
  /**
   * Instead of `secret`: the name of the environment variable holding it, read when the
   * gateway starts. Default `HINTGATE_STATE_SECRET`.
   */
  readonly keyEnv?: string;
  /** Prefix of every key, so that several deployments can share one Redis. Default `hintgate:`. */
  readonly keyPrefix?: string;
}

/** `state` after loading. */
export interface LoadedStateConfig {
  /** A `redis:` or `rediss:` URL, `${VAR}` references replaced. */
  readonly url: string;
  readonly keyPrefix: string;
  /** Name of the environment variable the sealing key is read from when the gateway starts. */
  readonly keyEnv: string;
  /** The sealing secret, when the file gave it as `secret` (a `${VAR}` reference). */
  readonly secret?: string;
  /**
   * How long a concurrency slot stays taken after its holder stops renewing it, in ms, when
   * the file sets it. Default (absent): 10000.
   */
  readonly leaseMs?: number;
}

/** A tool override after loading: only the fields stated. */
export interface LoadedToolOverride {
  readonly annotations?: ToolAnnotations;
  readonly resources?: readonly string[];
  readonly rateLimit?: RateLimit;
  readonly timeoutMs?: number;
  readonly disabled?: boolean;
  readonly scopes?: readonly string[];
}

/** What every loaded server has, whatever its transport. */
export interface LoadedServerCommon {
  /** The server's name: its origin, and the prefix of its tools' names on collisions. */
  readonly name: string;
  readonly trusted: boolean;
  readonly concurrency?: number;
  /** Quota across the server's tools, when the file states one. */
  readonly rateLimit?: RateLimit;
  /** Time allowed for one connection attempt, in milliseconds; absent: the default (30 s). */
  readonly connectTimeoutMs?: number;
  /**
   * Protocol era to speak with the server: `auto` probes for 2026-07-28 and falls back to the
   * 2025 handshake, `legacy` is the 2025 handshake, `modern` requires 2026-07-28. Absent:
   * `legacy` over stdio, `auto` over Streamable HTTP.
   */
  readonly era?: 'auto' | 'legacy' | 'modern';
  /** Per-tool overrides by the tool's name on this server; empty when there are none. */
  readonly tools: Readonly<Record<string, LoadedToolOverride>>;
}

/** A stdio server after loading, ready for `connectMcpServer`. */
export interface LoadedStdioServer extends LoadedServerCommon {
  readonly transport: 'stdio';
  /** As written, or absolute when it was a `./` or `../` path. */
  readonly command: string;
  readonly args: readonly string[];
  /** With `${VAR}` references replaced. */
  readonly env?: Readonly<Record<string, string>>;
  /** Absolute; the configuration's directory unless stated. */
  readonly cwd: string;
}

/** A Streamable HTTP server after loading, ready for `connectMcpServer`. */
export interface LoadedHttpServer extends LoadedServerCommon {
  readonly transport: 'http';
  /** An `http:` or `https:` URL, with `${VAR}` references replaced. */
  readonly url: string;
  /** With `${VAR}` references replaced; empty when none. */
  readonly headers: Readonly<Record<string, string>>;
}

/** One upstream server after loading. */
export type LoadedGatewayServer = LoadedStdioServer | LoadedHttpServer;

/** Downstream Streamable HTTP settings after loading: only what the file states. */
export interface LoadedDownstreamHttp {
  readonly host?: string;
  readonly port?: number;
  readonly token?: string;
  /** Callers with their own tokens (`${VAR}` references replaced) and scopes. */
  readonly principals?: readonly LoadedPrincipal[];
  /** Most requests per caller and window; over it, 429 with `Retry-After`. */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number };
  /** Limits of the session table, as `startMcpHttpServer` takes them: only those stated. */
  readonly sessions?: LoadedSessionLimits;
}

/** `downstream.http.sessions` after loading, under `startMcpHttpServer`'s names. */
export interface LoadedSessionLimits {
  readonly maxSessions?: number;
  readonly maxSessionsPerClient?: number;
  readonly sessionIdleMs?: number;
  readonly uninitializedSessionMs?: number;
}

/** One caller of the HTTP endpoint: a name, a bearer token, and the scopes it grants. */
export interface LoadedPrincipal {
  readonly name: string;
  readonly token: string;
  readonly scopes: readonly string[];
}

/** Web console settings after loading: only what the file states. */
export interface LoadedConsole {
  readonly port?: number;
  readonly token?: string;
}

/**
 * OpenTelemetry settings after loading: only what the file states. Whether telemetry is on
 * is decided at start: `enabled` when stated, else on when `endpoint` is stated or the
 * standard `OTEL_*` variables ask for export (`OTEL_SDK_DISABLED=true` turns it off).
 */
export interface LoadedTelemetry {
  /** `true` turns telemetry on, `false` off whatever the environment says. */
  readonly enabled?: boolean;
  /** The `service.name` of the spans and metrics; `OTEL_SERVICE_NAME` overrides it. */
  readonly serviceName?: string;
  /**
   * Base URL of an OTLP/HTTP receiver (`/v1/traces` and `/v1/metrics` are added), used
   * unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or its per-signal variants) is set.
   */
  readonly endpoint?: string;
}

/**
 * A checked gateway configuration: defaults applied, paths absolute, `${VAR}` references
 * replaced, frozen.
 */
export interface LoadedGatewayConfig {
  /** Absolute path of the configuration file. */
  readonly file: string;
  /** Its directory, against which relative paths were resolved. */
  readonly directory: string;
  /** The upstream servers, in file order. */
  readonly servers: readonly LoadedGatewayServer[];
  /** The mode the file states, if any. */
  readonly mode?: Mode;
  /** The rules, checked as `checkPolicy` does; empty when none. */
  readonly rules: readonly PolicyRule[];
  /** `tools:`, when the file has it: configuration of discovered tools by name. */
  readonly tools?: ToolSettings;
  readonly audit: {
    readonly path: string;
    readonly arguments: boolean;
    readonly sync: AuditSyncPolicy;
    readonly maxSyncDelayMs: number;
    /** Present when the file asks for rotation. */
    readonly rotate?: GatewayAuditRotate;
  };
  readonly approvals: { readonly path: string };
  /** Present when the file keeps state in Redis; absent: in the gateway's process. */
  readonly state?: LoadedStateConfig;
  readonly pin: { readonly path: string; readonly newTools: NewToolsPolicy };
  /** `http` is present when the file asks for a Streamable HTTP downstream. */
  readonly downstream: { readonly http?: LoadedDownstreamHttp };
  /** Present when the file turns the web console on. */
  readonly console?: LoadedConsole;
  /** Present when the file has a `telemetry` block (see {@link LoadedTelemetry}). */
  readonly telemetry?: LoadedTelemetry;
  /**
   * `false` keeps the system prompt from reaching clients as the server's MCP
   * `instructions`. Absent: it is sent.
   */
  readonly instructions?: false;
}
