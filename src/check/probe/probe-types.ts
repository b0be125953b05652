import type { McpEraOption, McpHttpTarget, McpStdioTarget } from '../../mcp/index.js';
import type { CheckFinding, ToolVerdict } from '../check-types.js';
import type { IsolationOption } from './bubblewrap.js';
import type { ProbeFixtures } from './load-probe-fixtures.js';
import type { SandboxIsolation } from './prepare-launch.js';
import type { SandboxInfo, SubstitutedArgument } from './sandbox.js';

/** Where a probe is, for progress on a terminal. */
export type ProbeProgress =
  /** `npx` installs the server's package (before the server starts). */
  | { readonly phase: 'installing' }
  /** The server is started (or reached) and its tools listed. */
  | { readonly phase: 'starting' }
  /** Its tool list was read. */
  | { readonly phase: 'listed'; readonly tools: number }
  /** Its zero-argument read-only tools are read to find what shows its state. */
  | { readonly phase: 'fingerprint' }
  /** Tool `index` (1-based) of `total` is being probed. */
  | {
      readonly phase: 'probing';
      readonly tool: string;
      readonly index: number;
      readonly total: number;
    };

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
  /**
   * Said after a connect timeout, for what to raise (the command line names its flag).
   * Default: `raise connectTimeoutMs`.
   */
  readonly connectTimeoutAdvice?: string;
  /** Time allowed for each call (tool calls and tool lists), in milliseconds. Default 30000. */
  readonly callTimeoutMs?: number;
  /**
   * A zero-argument read-only tool whose call takes longer than this is left out of the state
   * fingerprint (it is called after every probed tool), in milliseconds. Default 2000.
   */
  readonly fingerprintMaxMs?: number;
  /**
   * OS isolation of a stdio server: `auto` (default) uses bubblewrap where it works (Linux
   * with `bwrap`), so that the host's files are read-only to the server except its sandbox
   * and the package caches; `bubblewrap` insists on it; `none` runs the server as you.
   */
  readonly isolation?: IsolationOption;
  /**
   * Hand the host's package caches (npm's, uv's and uv's Pythons) to a stdio server, so that
   * `npx` and `uvx` need not download everything into the empty sandbox home. Default true.
   */
  readonly hostCaches?: boolean;
  /**
   * Time `npx` may take to install a server's package before it starts, in milliseconds
   * (apart from `connectTimeoutMs`). Default 300000.
   */
  readonly installTimeoutMs?: number;
  /** Told where the probe is (for progress on a terminal). */
  readonly onProgress?: (progress: ProbeProgress) => void;
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
  /** How the server was kept apart from the host (stdio; absent for HTTP). */
  readonly isolation?: SandboxIsolation;
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
