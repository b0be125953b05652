import { basename } from 'node:path';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type {
  CheckedServer,
  CheckedServerSandbox,
  ReportedFinding,
  ToolVerdict,
} from '../check/index.js';
import {
  createSandbox,
  type IsolationOption,
  lintTools,
  type ProbeFixtures,
  type ProbeProgress,
  type ProbeTarget,
  prepareLaunch,
  probeServer,
  type SandboxIsolation,
} from '../check/index.js';
import type { LoadedGatewayServer } from '../gateway/index.js';
import { connectMcpServer, type McpServerConnection, toRemoteTools } from '../mcp/index.js';
import { createRegistry } from '../registry/index.js';
import { isPlainObject, type Tool, type ToolListing, toToolListing } from '../tool/index.js';

/** How {@link checkServer} checks a server. */
export interface CheckServerOptions {
  /** Run the side-effect probe. */
  readonly probe: boolean;
  /** Let the probe call tools that are not read-only. */
  readonly allowWrites: boolean;
  /** Argument sets for the probe, by tool name. */
  readonly fixtures?: ProbeFixtures;
  /** Host environment variables (of this process) handed to a sandboxed server, by name. */
  readonly passEnv: readonly string[];
  /**
   * Time allowed to start or reach a server and read its tool list, in milliseconds.
   * Default: 30 s, and 120 s for launchers that download what they run on a first start
   * (`uvx`, `pipx`, `bunx`, `pnpx`, `pnpm dlx`, `docker`); `npx` installs before the start,
   * within `installTimeoutMs`.
   */
  readonly connectTimeoutMs?: number;
  /** Time `npx` may take to install a server's package, in milliseconds. Default 300 s. */
  readonly installTimeoutMs?: number;
  /** OS isolation of stdio servers (see `probeServer`). Default `auto`. */
  readonly isolation?: IsolationOption;
  /** Hand the host's package caches to stdio servers. Default true. */
  readonly hostCaches?: boolean;
  /** Told where the check of the server is, for progress on a terminal. */
  readonly onProgress?: (progress: ServerCheckProgress) => void;
  /**
   * Stops the check (a signal to the process): the server is closed, its sandbox removed,
   * and the check comes back `failed` with the signal's reason.
   */
  readonly signal?: AbortSignal;
}

/** Where the check of one server is. */
export type ServerCheckProgress =
  | ProbeProgress
  /** Its tools are listed for the lint (no probe). */
  | { readonly phase: 'listing' }
  /** Its check ended. */
  | {
      readonly phase: 'done';
      readonly tools: number;
      readonly findings: number;
      readonly violations: number;
    }
  /** It could not be checked. */
  | { readonly phase: 'failed'; readonly error: string };

/** One server's part of a check. */
export interface ServerCheck {
  readonly server: CheckedServer;
  readonly findings: readonly ReportedFinding[];
  readonly verdicts: readonly ToolVerdict[];
  /** The tools as the gateway registers them, for pin comparison and pinning. */
  readonly listings: readonly ToolListing[];
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Launchers that download what they run when it is not in their cache yet. */
const DOWNLOADERS = new Set([
  'uvx',
  'uv',
  'pipx',
  'bunx',
  'pnpx',
  'pnpm',
  'yarn',
  'docker',
  'podman',
]);

const DEFAULT_CONNECT_MS = 30_000;
const DOWNLOADER_CONNECT_MS = 120_000;

/** The connect timeout of a server, and what to say when it runs out. */
function connectTimeout(
  server: LoadedGatewayServer,
  options: CheckServerOptions,
): { readonly ms: number; readonly advice: string } {
  const launcher =
    server.transport === 'stdio' ? basename(server.command).replace(/\.(cmd|exe)$/, '') : '';
  const downloads = DOWNLOADERS.has(launcher);
  const ms = options.connectTimeoutMs ?? (downloads ? DOWNLOADER_CONNECT_MS : DEFAULT_CONNECT_MS);
  const more = Math.max(Math.ceil((ms * 2) / 1000), 60);
  return {
    ms,
    advice: downloads
      ? `${launcher} may still be downloading what it runs on a first start: raise it with --connect-timeout ${more}`
      : `raise it with --connect-timeout ${more}`,
  };
}

/** The report's view of how a server was isolated. */
const sandboxOf = (isolation: SandboxIsolation): CheckedServerSandbox => ({
  isolation: isolation.kind,
  ...(isolation.reason === undefined ? {} : { reason: isolation.reason }),
  caches: isolation.caches.map(({ name, path, writable }) => ({ name, path, writable })),
  ...(isolation.serverCopy === undefined ? {} : { copiedFrom: isolation.serverCopy.from }),
  ...(isolation.notCopied === undefined ? {} : { notCopied: isolation.notCopied }),
});

/**
 * Lists the server's tools without calling any. A stdio server runs in a fresh probe
 * sandbox (empty home, temp and XDG directories, host directories in its arguments replaced
 * by the sandbox's work directory): an unknown server gets neither the user's home nor
 * their files just to be linted.
 */
async function listTools(
  server: LoadedGatewayServer,
  options: CheckServerOptions,
): Promise<{
  readonly tools: readonly McpTool[];
  readonly replaced: readonly string[];
  readonly sandbox?: CheckedServerSandbox;
}> {
  const timeout = connectTimeout(server, options);
  const common = {
    name: server.name,
    registry: createRegistry({ env: {} }),
    reconnect: false as const,
    connectTimeoutMs: timeout.ms,
    connectTimeoutHint: timeout.advice,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  if (server.transport === 'http') {
    const connection = await connectMcpServer({
      ...common,
      url: server.url,
      headers: { ...server.headers },
    });
    const { tools } = connection;
    await connection.close();
    return { tools, replaced: [] };
  }
  const sandbox = await createSandbox();
  let connection: McpServerConnection | undefined;
  try {
    const plan = await prepareLaunch({
      sandbox,
      command: server.command,
      args: server.args,
      env: server.env,
      cwd: server.cwd,
      passEnv: options.passEnv,
      isolation: options.isolation,
      hostCaches: options.hostCaches,
      installTimeoutMs: options.installTimeoutMs,
      where: `MCP server "${server.name}"`,
      signal: options.signal,
      onInstall: () => options.onProgress?.({ phase: 'installing' }),
    });
    options.onProgress?.({ phase: 'listing' });
    connection = await connectMcpServer({
      ...common,
      command: plan.command,
      args: [...plan.args],
      env: { ...plan.env },
      cwd: plan.cwd,
    });
    return {
      tools: connection.tools,
      replaced: plan.substituted.map((arg) => arg.from),
      sandbox: sandboxOf(plan.isolation),
    };
  } finally {
    await connection?.close();
    await sandbox.dispose();
  }
}

/**
 * The listed tools as the gateway registers them (and `hintgate pin` pins them): malformed
 * entries and names hintgate cannot register are left out, as the gateway leaves them out.
 */
function registered(server: string, tools: readonly unknown[]): readonly Tool[] {
  const usable = tools.filter(
    (tool): tool is McpTool => isPlainObject(tool) && typeof tool.name === 'string',
  );
  const unused = () => Promise.reject(new Error('hintgate check does not call tools here.'));
  return toRemoteTools(usable, server, unused).tools;
}

const probeTarget = (server: LoadedGatewayServer): ProbeTarget =>
  server.transport === 'http'
    ? { url: server.url, headers: { ...server.headers } }
    : {
        command: server.command,
        args: [...server.args],
        ...(server.env === undefined ? {} : { env: { ...server.env } }),
        cwd: server.cwd,
      };

/**
 * Checks one server: lists its tools (in the probe's sandbox for stdio) and lints them, or
 * with `probe` runs the side-effect probe, which lists them too, and lints the list it read.
 * A stdio server is started as `prepareLaunch` prepares it (host package caches, its code
 * copied into the sandbox, bubblewrap where it works); the result says how
 * (`server.sandbox`). Progress goes to `onProgress`, ending with `done` or `failed`. A
 * server that cannot be started, reached or listed comes back `failed` with the reason
 * (and the tail of its stderr), never as an exception.
 */
export async function checkServer(
  server: LoadedGatewayServer,
  options: CheckServerOptions,
): Promise<ServerCheck> {
  const progress = (event: ServerCheckProgress): void => {
    try {
      options.onProgress?.(event);
    } catch {
      // Progress is for show.
    }
  };
  const listed = { ...options, onProgress: progress };
  let tools: readonly unknown[];
  let replaced: readonly string[];
  let sandbox: CheckedServerSandbox | undefined;
  let verdicts: readonly ToolVerdict[] = [];
  const findings: ReportedFinding[] = [];
  try {
    if (options.probe) {
      const timeout = connectTimeout(server, options);
      const probed = await probeServer({
        server: server.name,
        target: probeTarget(server),
        allowWrites: options.allowWrites,
        ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
        passEnv: options.passEnv,
        connectTimeoutMs: timeout.ms,
        connectTimeoutAdvice: timeout.advice,
        ...(options.installTimeoutMs === undefined
          ? {}
          : { installTimeoutMs: options.installTimeoutMs }),
        ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
        ...(options.hostCaches === undefined ? {} : { hostCaches: options.hostCaches }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        onProgress: progress,
      });
      tools = probed.tools;
      replaced = probed.sandbox.substitutedArguments.map((arg) => arg.from);
      sandbox =
        probed.sandbox.isolation === undefined ? undefined : sandboxOf(probed.sandbox.isolation);
      verdicts = probed.verdicts;
      findings.push(...probed.findings.map((finding) => ({ ...finding, kind: 'probe' as const })));
    } else {
      ({ tools, replaced, sandbox } = await listTools(server, listed));
    }
  } catch (caught) {
    const error = options.signal?.aborted === true ? options.signal.reason : caught;
    progress({ phase: 'failed', error: messageOf(error) });
    return {
      server: { name: server.name, status: 'failed', tools: [], error: messageOf(error) },
      findings: [],
      verdicts: [],
      listings: [],
    };
  }
  findings.unshift(
    ...lintTools(server.name, tools).map((finding) => ({ ...finding, kind: 'lint' as const })),
  );
  const names = tools
    .map((tool) => (isPlainObject(tool) ? tool.name : undefined))
    .filter((name): name is string => typeof name === 'string');
  progress({
    phase: 'done',
    tools: names.length,
    findings: findings.length,
    violations: verdicts.filter((verdict) => verdict.verdict === 'violation').length,
  });
  const made = registered(server.name, tools);
  const declaredLimits = made.flatMap((tool) => {
    const declared = tool.annotations.custom?.rateLimit;
    return declared === undefined || tool.rateLimit === undefined
      ? []
      : [{ tool: tool.name, rateLimit: tool.rateLimit }];
  });
  return {
    server: {
      name: server.name,
      status: 'checked',
      tools: names,
      ...(declaredLimits.length === 0 ? {} : { declaredLimits }),
      ...(replaced.length === 0 ? {} : { replacedDirectories: [...new Set(replaced)] }),
      ...(sandbox === undefined ? {} : { sandbox }),
    },
    findings,
    verdicts,
    listings: made.map((tool) => toToolListing(tool)),
  };
}
