import { join, resolve } from 'node:path';
import {
  createMcpToolServer,
  DEFAULT_HTTP_HOST,
  type McpHttpServer,
  type McpStdioServer,
  serveMcpStdio,
  startMcpHttpServer,
} from '../mcp/serve.js';
import { applyToolSettings, DEFAULT_MODE, type Policy } from '../policy/index.js';
import { createApprovalStore } from '../policy/node.js';
import { createRegistry } from '../registry/index.js';
import { createRuntime } from '../runtime/index.js';
import { type RunningTelemetry, startTelemetry } from '../telemetry/index.js';
import { createWorkspaceTools, httpEmbedder } from '../tools/index.js';
import { discoverCliTools } from './discover-cli-tools.js';
import { nextSignal, shutdownNotice } from './next-signal.js';
import type { ServeArgs } from './parse-serve-args.js';
import type { CliIo } from './run-cli.js';
import { messageOf, oneLine } from './serve-messages.js';

/** What `hintgate serve` serves, once its options, workspace and policy file are checked. */
export interface ServeWorkspaceInput {
  readonly args: ServeArgs;
  /** The workspace, absolute, a readable directory. */
  readonly workspace: string;
  readonly policy: Policy;
  readonly io: CliIo;
}

/**
 * Builds a runtime over the built-in workspace tools (and the trusted tool modules) and
 * serves it over stdio or Streamable HTTP until SIGINT, SIGTERM or (stdio) the end of stdin.
 * Resolves to the exit code.
 */
export async function serveWorkspace({
  args,
  workspace,
  policy,
  io,
}: ServeWorkspaceInput): Promise<number> {
  /** A problem before serving: what was made so far is closed, the problem said, exit 2. */
  const refuse = async (error: unknown, close: () => Promise<void>): Promise<number> => {
    await close();
    io.stderr(`hintgate serve: ${oneLine(messageOf(error))}\n`);
    return 2;
  };
  const mode = args.mode ?? policy.mode ?? DEFAULT_MODE;
  const registry = createRegistry({ env: io.env ?? process.env });
  registry.addOrigin({
    name: 'local',
    layer: 'bundled',
    tools: createWorkspaceTools({
      workspace,
      protectedPaths: ['.hintgate', ...(args.policy === undefined ? [] : [resolve(args.policy)])],
      ...(args.fetchAllow === undefined ? {} : { fetchAllow: args.fetchAllow }),
      ...(args.embedder === undefined ? {} : { embedder: httpEmbedder(args.embedder) }),
      ...(args.delegate === undefined ? {} : { delegate: { command: args.delegate } }),
    }),
  });
  try {
    // Over stdio, stdin carries MCP: the project's trust can only be asked with --http.
    const discovery = await discoverCliTools(io, {
      registry,
      project: workspace,
      command: 'serve',
      watch: true,
      mayAsk: args.http,
    });
    // Checked again whenever the tools change (a changed or newly trusted tool module).
    applyToolSettings(registry, policy.tools, {
      someHeldBack: () => discovery.status().heldBack !== undefined,
      onWarning: (message) => io.stderr(`hintgate serve: ${message}\n`),
      onLaterProblem: (message) => io.stderr(`hintgate serve: ${message}\n`),
    });
  } catch (error) {
    return refuse(error, () => registry.close());
  }
  const runtime = createRuntime({
    registry,
    workspace,
    mode,
    ...(policy.rules === undefined ? {} : { rules: policy.rules }),
    approvals: createApprovalStore({ path: join(workspace, '.hintgate', 'approvals.json') }),
  });
  const report = (error: Error): void => io.stderr(`hintgate serve: ${oneLine(error.message)}\n`);
  let telemetry: RunningTelemetry | undefined;
  try {
    telemetry = await startTelemetry({
      serviceName: 'hintgate-serve',
      env: io.env ?? process.env,
    });
  } catch (error) {
    return refuse(error, () => runtime.close());
  }
  const toolServer = createMcpToolServer({
    runtime,
    onError: report,
    ...(telemetry === undefined ? {} : { telemetry: telemetry.telemetry }),
    // The system prompt reaches the client's model as the server's instructions.
    ...(args.noInstructions === true ? {} : { instructions: () => runtime.systemPrompt() }),
  });
  const shutdown = nextSignal();
  const what = `${runtime.listTools().length} tools of ${workspace} (mode ${mode})`;

  let http: McpHttpServer | undefined;
  let stdio: McpStdioServer | undefined;
  if (args.http) {
    const host = args.host ?? DEFAULT_HTTP_HOST;
    try {
      http = await startMcpHttpServer({
        toolServer,
        host,
        ...(args.port === undefined ? {} : { port: args.port }),
        ...(args.token === undefined ? {} : { token: args.token }),
        ...(args.principals === undefined ? {} : { principals: args.principals }),
        ...(args.rateLimit === undefined ? {} : { rateLimit: args.rateLimit }),
        ...args.sessions,
        onError: report,
      });
    } catch (error) {
      shutdown.dispose();
      await toolServer.close();
      await runtime.close();
      await telemetry?.shutdown().catch(report);
      io.stderr(`hintgate serve: cannot listen on ${host}: ${messageOf(error)}\n`);
      return 1;
    }
    const callers = args.principals?.length ?? 0;
    const auth =
      args.token === undefined && callers === 0
        ? ''
        : `, bearer token required${callers === 0 ? '' : ` (${callers} caller${callers === 1 ? '' : 's'} with scopes)`}`;
    io.stderr(`hintgate serve: serving ${what} at ${http.url}${auth}\n`);
    if (args.tokenWarning !== undefined) io.stderr(`hintgate serve: ${args.tokenWarning}\n`);
  } else {
    stdio = serveMcpStdio({ toolServer, onError: report });
    io.stderr(`hintgate serve: serving ${what} over stdio\n`);
  }

  const ended = await Promise.race([
    shutdown.signal,
    ...(stdio === undefined ? [] : [stdio.closed.then(() => undefined)]),
  ]);
  shutdown.dispose();
  // As the gateway: calls under way get a grace period after a signal, none when the stdio
  // client has gone.
  if (ended !== undefined) {
    io.stderr(`hintgate serve: ${shutdownNotice(ended, args.shutdownGraceMs)}\n`);
  }
  await runtime.close({ graceMs: ended === undefined ? 0 : args.shutdownGraceMs });
  await http?.close();
  await stdio?.close();
  await toolServer.close();
  // Last: the spans of the calls that ended above are exported before the process exits.
  await telemetry?.shutdown().catch(report);
  return 0;
}
