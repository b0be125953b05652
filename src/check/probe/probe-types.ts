import type { McpEraOption, McpHttpTarget, McpStdioTarget } from '../../mcp/client/index.js';
import type { CheckFinding, ToolVerdict } from '../check-types.js';
import type { ProbeFixtures } from './load-probe-fixtures.js';
import type { SandboxInfo, SubstitutedArgument } from './sandbox.js';

/** Where the probed server is: a command run in the sandbox, or an HTTP endpoint. */
export type ProbeTarget = McpStdioTarget | McpHttpTarget;

/** Options of {@link probeServer}. */
export interface ProbeServerOptions {
  /** The server's name, as the configuration names it; put on every verdict and finding. */
  readonly server: string;
  /**
   * How to reach it. A stdio server runs in the sandbox: its working directory is the
   * sandbox's work directory, its environment is `env` plus `PATH` (and `passEnv`) with
   * `HOME`, `TMPDIR`, `TEMP`, `TMP` and `XDG_*` pointing into the sandbox, and every argument
   * that names a host directory is replaced by the work directory. `cwd` only resolves
   * relative paths in `command` and `args`. An HTTP server is reached as it is; its files
   * are out of the probe's sight.
   */
  readonly target: ProbeTarget;
  /**
   * Call tools that do not claim `readOnlyHint: true` (in the sandbox): idempotent tools are
   * called twice and checked, others once. Default `false`: such tools are never called.
   */
  readonly allowWrites?: boolean;
  /** Argument sets per tool name, used instead of synthesized arguments. Default none. */
  readonly fixtures?: ProbeFixtures;
  /** Further host environment variables to hand to the server, by name (e.g. `npm_config_cache`). Default none. */
  readonly passEnv?: readonly string[];
  /** Leave the sandbox on disk afterwards, for debugging; its path is in the report. Default `false`. */
  readonly keepSandbox?: boolean;
  /** Where the sandbox directory is made. Default `os.tmpdir()`. */
  readonly sandboxParent?: string;
  /** Protocol era negotiation. Default `auto`. */
  readonly era?: McpEraOption;
  /** Time to start and connect to the server, in milliseconds. Default 30000. */
  readonly connectTimeoutMs?: number;
  /** Time allowed for each call (tool calls and tool lists), in milliseconds. Default 30000. */
  readonly callTimeoutMs?: number;
  /**
   * A zero-argument read-only tool whose call takes longer than this is left out of the state
   * fingerprint (it is called after every probed tool), in milliseconds. Default 2000.
   */
  readonly fingerprintMaxMs?: number;
  /** Stops the probe: it rejects with the signal's reason after closing the server. */
  readonly signal?: AbortSignal;
  /** Receives the server process's stderr (stdio only). Default: kept as a tail for errors. */
  readonly onStderr?: (text: string) => void;
}

/** The sandbox a probe ran in, for reports. */
export interface ProbeSandboxReport extends SandboxInfo {
  /** Command line arguments that named a host directory and were given the work directory. */
  readonly substitutedArguments: readonly SubstitutedArgument[];
  /** Names of the environment variables the server was given (stdio). */
  readonly environment: readonly string[];
}

/** What {@link probeServer} found. */
export interface ProbeReport {
  readonly server: string;
  /** One verdict per tool of the first tool list, in list order. */
  readonly verdicts: readonly ToolVerdict[];
  /** Violations (high) and tools that could not be run (low), per {@link PROBE_RULES}. */
  readonly findings: readonly CheckFinding[];
  /** The server's tools as its first `tools/list` gave them. */
  readonly tools: readonly unknown[];
  /** Zero-argument read-only tools whose output stood for the server's state. */
  readonly fingerprintTools: readonly string[];
  /** Tool calls made, fingerprint calls included. */
  readonly calls: number;
  readonly sandbox: ProbeSandboxReport;
}
