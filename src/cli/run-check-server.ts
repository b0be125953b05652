import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type { ToolVerdict } from '../check/check-types.js';
import { lintTools } from '../check/lint/index.js';
import {
  createSandbox,
  type ProbeFixtures,
  type ProbeTarget,
  probeServer,
  sandboxCommandLine,
  sandboxEnvironment,
} from '../check/probe/index.js';
import type { CheckedServer, ReportedFinding } from '../check/report/index.js';
import type { LoadedGatewayServer } from '../gateway/config/index.js';
import { connectMcpServer, type McpServerConnection } from '../mcp/client/index.js';
import { toRemoteTools } from '../mcp/client/remote-tool.js';
import { createRegistry } from '../registry/index.js';
import { isPlainObject, type ToolListing, toToolListing } from '../tool/index.js';

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
  /** Time allowed to start or reach a server and read its tool list, in milliseconds. Default: 30 s. */
  readonly connectTimeoutMs?: number;
}

/** One server's part of a check. */
export interface ServerCheck {
  readonly server: CheckedServer;
  readonly findings: readonly ReportedFinding[];
  readonly verdicts: readonly ToolVerdict[];
  /** The tools as the gateway registers them, for pin comparison and pinning. */
  readonly listings: readonly ToolListing[];
}

// The connection's own advice names its option; here the option is the command line's.
const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(
    'raise "connectTimeoutMs"',
    'raise it with --connect-timeout SECONDS',
  );

/**
 * Lists the server's tools without calling any. A stdio server runs in a fresh probe
 * sandbox (empty home, temp and XDG directories, host directories in its arguments replaced
 * by the sandbox's work directory): an unknown server gets neither the user's home nor
 * their files just to be linted.
 */
async function listTools(
  server: LoadedGatewayServer,
  options: CheckServerOptions,
): Promise<{ readonly tools: readonly McpTool[]; readonly replaced: readonly string[] }> {
  const common = {
    name: server.name,
    registry: createRegistry({ env: {} }),
    reconnect: false as const,
    ...(options.connectTimeoutMs === undefined
      ? {}
      : { connectTimeoutMs: options.connectTimeoutMs }),
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
    const line = sandboxCommandLine(server.command, server.args, sandbox.work, server.cwd);
    connection = await connectMcpServer({
      ...common,
      command: line.command,
      args: line.args,
      env: sandboxEnvironment(sandbox, server.env, options.passEnv),
      cwd: sandbox.work,
    });
    return { tools: connection.tools, replaced: line.substituted.map((arg) => arg.from) };
  } finally {
    await connection?.close();
    await sandbox.dispose();
  }
}

/**
 * The listed tools as the gateway registers them (and `hintgate pin` pins them): malformed
 * entries and names hintgate cannot register are left out, as the gateway leaves them out.
 */
function listingsOf(server: string, tools: readonly unknown[]): ToolListing[] {
  const usable = tools.filter(
    (tool): tool is McpTool => isPlainObject(tool) && typeof tool.name === 'string',
  );
  const unused = () => Promise.reject(new Error('hintgate check does not call tools here.'));
  return toRemoteTools(usable, server, unused).tools.map((tool) => toToolListing(tool));
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
 * A server that cannot be started, reached or listed comes back `failed` with the reason
 * (and the tail of its stderr), never as an exception.
 */
export async function checkServer(
  server: LoadedGatewayServer,
  options: CheckServerOptions,
): Promise<ServerCheck> {
  let tools: readonly unknown[];
  let replaced: readonly string[];
  let verdicts: readonly ToolVerdict[] = [];
  const findings: ReportedFinding[] = [];
  try {
    if (options.probe) {
      const probed = await probeServer({
        server: server.name,
        target: probeTarget(server),
        allowWrites: options.allowWrites,
        ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
        passEnv: options.passEnv,
        ...(options.connectTimeoutMs === undefined
          ? {}
          : { connectTimeoutMs: options.connectTimeoutMs }),
      });
      tools = probed.tools;
      replaced = probed.sandbox.substitutedArguments.map((arg) => arg.from);
      verdicts = probed.verdicts;
      findings.push(...probed.findings.map((finding) => ({ ...finding, kind: 'probe' as const })));
    } else {
      ({ tools, replaced } = await listTools(server, options));
    }
  } catch (error) {
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
  return {
    server: {
      name: server.name,
      status: 'checked',
      tools: names,
      ...(replaced.length === 0 ? {} : { replacedDirectories: [...new Set(replaced)] }),
    },
    findings,
    verdicts,
    listings: listingsOf(server.name, tools),
  };
}
