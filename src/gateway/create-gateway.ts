import { unwatchFile, watchFile } from 'node:fs';
import { createJsonlAuditSink } from '../audit/node.js';
import { asError, HintgateError } from '../errors/index.js';
import type { LoadedGatewayServer } from '../gateway/config/index.js';
import {
  connectMcpServer,
  createMcpToolServer,
  type McpServerConnection,
  UpstreamUnavailableError,
} from '../mcp/index.js';
import { applyToolSettings, DEFAULT_MODE } from '../policy/index.js';
import { createRegistry, type ToolRegistry } from '../registry/index.js';
import { createRuntime, graceMsOf } from '../runtime/index.js';
import { anySignal } from '../schedule/index.js';
import { addServerOrigins } from './add-server-origins.js';
import { backgroundAudit } from './background-audit.js';
import type { CreateGatewayOptions, Gateway } from './gateway-api.js';
import { createGatewayPrompts } from './gateway-prompts.js';
import { gatewayReadiness } from './gateway-readiness.js';
import { createGatewayResources } from './gateway-resources.js';
import { gatewayStateWiring } from './gateway-state-wiring.js';
import { GatewayTools } from './gateway-tools.js';
import { GatewayUpstreams } from './gateway-upstreams.js';
import { relayLogging } from './relay-logging.js';
import { reportUpstreamRateLimits } from './report-upstream-rate-limits.js';
import { reportUpstreamToolProblems } from './report-upstream-tool-problems.js';
import { unapprovableAdvice } from './unapprovable-advice.js';
import { GATEWAY_CLIENT_CAPABILITIES, upstreamOptions } from './upstream-options.js';
import { RECONNECT_WAIT_MS } from './upstream-retry.js';

export type { CreateGatewayOptions, Gateway };

const stderrLine = (text: string): void => {
  process.stderr.write(`hintgate gateway: ${text.replaceAll('\n', ' ')}\n`);
};

/** Whether a loader's outcome (a `ToolDiscovery`) holds a project's tools back. */
const heldBackIn = (discovered: unknown): boolean => {
  const status = (discovered as { status?: unknown } | undefined)?.status;
  if (typeof status !== 'function') return false;
  return (status.call(discovered) as { heldBack?: unknown }).heldBack !== undefined;
};

/**
 * Starts the gateway of a configuration: connects every upstream server (each its own
 * origin in one registry, with its trust and concurrency cap), names their tools (a tool
 * keeps its name unless two servers share it: then each is `<server>__<tool>`; tools held
 * back by their pins take no part in naming; renamed tools keep their name on the server as
 * `nameOnOrigin`, which rules and approvals bind to), applies the
 * per-tool overrides, holds back tools whose pins say so (changed since pinned; not pinned
 * yet while `pin.newTools` is `pending`; under `ask` those are offered and every call asks),
 * trusts the annotations of tools pinned as `verified`, and builds the runtime (mode, rules, approvals
 * file, JSONL audit log) and its MCP server. Tool lists are followed as they change:
 * names, overrides and pins are applied again on every `list_changed`. The servers'
 * resources, prompts and log messages are passed through (`createGatewayResources`,
 * `createGatewayPrompts`, `relayLogging`), and a call's progress is relayed to the
 * client that asked for it.
 *
 * An upstream whose first connection fails is reported through `onError` and tried again
 * with the backoff of `reconnect` (its tools appear once it is reached); the others are
 * served meanwhile. One that is lost later is reconnected the same way, its calls ending
 * `upstream_unavailable` meanwhile.
 *
 * @throws HintgateError `invalid_lock_file` when the pin file exists but is not one, or
 * `invalid_option` for bad options.
 */
export async function createGateway(options: CreateGatewayOptions = {}): Promise<Gateway> {
  const report = (error: unknown): void => {
    try {
      (options.onError ?? ((e: Error) => stderrLine(e.message)))(asError(error));
    } catch {
      // Reporting must never break the gateway.
    }
  };
  const notice = (message: string): void => {
    try {
      (options.onNotice ?? stderrLine)(message);
    } catch {
      // As above.
    }
  };
  if (options.stateLeaseMs !== undefined) {
    // The state layer is loaded only for a gateway that uses it (or is given this option).
    const { checkLeaseMs } = await import('../state/index.js');
    checkLeaseMs(options.stateLeaseMs, 'createGateway: stateLeaseMs');
  }
  const { config } = options;
  if (config === undefined) {
    // Loaded only here: a gateway of configured servers does not load the workspace tools.
    const { workspaceGateway } = await import('./workspace-gateway.js');
    return workspaceGateway(options, report);
  }
  if (config.servers.length === 0) {
    throw new HintgateError('invalid_option', 'createGateway: the configuration has no servers.');
  }

  const registry = createRegistry({
    ...(options.env === undefined ? {} : { env: options.env }),
    onListenerError: report,
  });
  addServerOrigins(registry, config);
  const discovered = await options.discoverTools?.(registry);
  let stopToolSettings: () => void;
  try {
    // Checked again whenever the tools change: an upstream reached late, a changed list,
    // a reloaded or newly trusted tool module.
    stopToolSettings = applyToolSettings(registry, config.tools, {
      otherOrigins: new Set(config.servers.map((server) => server.name)),
      someHeldBack: () => heldBackIn(discovered),
      onWarning: notice,
      onLaterProblem: notice,
      code: 'invalid_config',
    });
  } catch (error) {
    // The loaders the discovery attached (their modules, their watchers) go with it.
    await registry.close();
    throw error;
  }
  const sink = createJsonlAuditSink({
    path: config.audit.path,
    sync: config.audit.sync === 'always' ? true : config.audit.sync,
    maxSyncDelayMs: config.audit.maxSyncDelayMs,
    onSyncError: report,
    ...(config.audit.rotate === undefined
      ? {}
      : { rotate: config.audit.rotate, onRotateError: report }),
  });
  const sinks = [sink, ...(options.auditSinks ?? [])];
  // Pin findings (`tool.changed`) and shared state changes are written without making
  // anyone wait; close waits.
  const findings = backgroundAudit(sinks, report);
  const state = await gatewayStateWiring({
    config,
    env: options.env ?? process.env,
    audit: findings.write,
    notice,
    leaseMs: options.stateLeaseMs ?? config.state?.leaseMs,
  });
  const runtime = createRuntime({
    registry,
    mode: options.mode ?? config.mode ?? DEFAULT_MODE,
    rules: config.rules,
    ...state.runtime,
    auditSinks: sinks,
    auditArguments: config.audit.arguments,
    workspace: config.directory,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const tools = new GatewayTools({
    config,
    registry,
    notice,
    audit: findings.write,
    report,
    ...(state.share === undefined ? {} : { share: state.share }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    // Read once a call needs it, after the upstreams below exist. A reconnect that is not
    // tried within the wait cannot help a waiting call: then nothing is sent again.
    ...(options.reconnect === false || (options.reconnect?.initialDelayMs ?? 0) > RECONNECT_WAIT_MS
      ? {}
      : { connection: (server: string) => upstreams.connections.get(server) }),
  });
  const upstreams = new GatewayUpstreams(config.servers.map((server) => server.name));
  const { connections } = upstreams;
  const resources = createGatewayResources({ upstreams, report });
  const prompts = createGatewayPrompts({ upstreams, report });
  const logging = relayLogging({ upstreams, report });
  // Resources, prompts and logging are declared whichever servers are reached: a client's
  // capabilities are fixed when it connects, and servers are reached (again) at any time.
  const toolServer = createMcpToolServer({
    runtime,
    onError: report,
    // Each client hears the rules of the tools offered when it connects.
    ...(config.instructions === false ? {} : { instructions: () => runtime.systemPrompt() }),
    resources,
    prompts,
    logging,
    unapprovableAdvice: unapprovableAdvice({ config, registry, mode: () => runtime.mode }),
    ...state.toolServer,
    ...(options.approvalChannels === undefined
      ? {}
      : { approvalChannels: options.approvalChannels }),
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
  });
  tools.onApplied = () => toolServer.refresh();
  // A client's roots changed: the servers, which may have asked for them, are told.
  const stopRoots = toolServer.onClientRootsChanged(() => {
    for (const [name, connection] of connections) {
      connection
        .request('notifications/roots/list_changed', (client) => client.sendRootsListChanged())
        .catch((error: unknown) => {
          if (!(error instanceof UpstreamUnavailableError)) {
            report(
              new Error(
                `could not tell server "${name}" that the roots changed: ${asError(error).message}`,
              ),
            );
          }
        });
    }
  });

  /** Connections made, reached or not yet; a server is served once its connection is ready. */
  const made: McpServerConnection[] = [];
  const closeAll = async (graceMs = 0): Promise<void> => {
    // Pin findings first, then the calls under way (they need their upstreams and the
    // clients' connections to end), then the rest.
    await findings.settled();
    stopRoots();
    stopToolSettings();
    await runtime.close({ graceMs });
    resources.close();
    prompts.close();
    logging.close();
    await Promise.all(made.map((connection) => connection.close()));
    await toolServer.close();
    await state.close();
  };
  // The pin file is read while the servers start (a big one takes a while to check): the
  // tools are applied once both are done.
  const pinsRead = tools.reloadPins();
  // Stops the first connections when the pin file cannot be read.
  const badPins = new AbortController();
  pinsRead.catch((error: unknown) => badPins.abort(error));
  let closed = false;
  const { onUpstreamStderr } = options;
  // Only the first attempts heed the signal: later ones are stopped by `close()`.
  const startSignals =
    options.signal === undefined ? undefined : anySignal([options.signal, badPins.signal]);
  let starting: AbortSignal | undefined = startSignals?.signal ?? badPins.signal;

  /** Serves the tools of `server` through `connection`, which is ready. */
  const serve = (server: LoadedGatewayServer, connection: McpServerConnection): void => {
    upstreams.add(server.name, connection);
    connection.on('error', report);
    reportUpstreamRateLimits(server.name, connection, { notice, audit: findings.write });
    reportUpstreamToolProblems(connection, notice);
  };

  /**
   * Connects one server. A failed first connection is the connection's to retry, with the
   * backoff of `reconnect` (`firstConnection: 'retry'`); the server is served once reached.
   */
  const connect = async (server: LoadedGatewayServer, staging: ToolRegistry): Promise<void> => {
    let connection: McpServerConnection;
    try {
      connection = await connectMcpServer({
        ...upstreamOptions(server, staging, {
          ...(options.connectTimeoutMs === undefined
            ? {}
            : { connectTimeoutMs: options.connectTimeoutMs }),
          ...(options.reconnect === undefined ? {} : { reconnect: options.reconnect }),
          ...(onUpstreamStderr === undefined
            ? {}
            : { onStderr: (text: string) => onUpstreamStderr(server.name, text) }),
          ...(starting === undefined ? {} : { signal: starting }),
          ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
          ...(options.clock === undefined ? {} : { clock: options.clock }),
          serverRequests: {
            capabilities: GATEWAY_CLIENT_CAPABILITIES,
            handle: (method, params, signal) =>
              toolServer.askClient(server.name, method, params, signal),
          },
        }),
        firstConnection: 'retry',
      });
    } catch (error) {
      if (closed || starting?.aborted === true) return;
      report(
        new Error(
          `${asError(error).message}\nThe gateway starts without it; restart the gateway once it is fixed.`,
          { cause: error },
        ),
      );
      return;
    }
    made.push(connection);
    if (closed || starting?.aborted === true) {
      await connection.close();
      return;
    }
    let reached = connection.status === 'ready';
    if (reached) serve(server, connection);
    else {
      report(
        new Error(
          `${connection.lastError?.message ?? `server "${server.name}" could not be reached`}\nThe gateway starts without it and keeps trying to reach it, with the backoff of \`reconnect\`.`,
          { cause: connection.lastError },
        ),
      );
    }
    connection.on('status', (event) => {
      if (event.status === 'ready' && !reached) {
        reached = true;
        notice(`server "${server.name}" is reachable now; its tools are served.`);
        serve(server, connection);
      } else if (event.status === 'reconnecting' && event.previous === 'ready') {
        notice(
          `server "${server.name}" was lost (${event.error?.message ?? 'no reason given'}); its calls end upstream_unavailable until it is back. Reconnecting in ${event.retryInMs ?? 0} ms.`,
        );
      } else if (event.status === 'ready' && event.previous === 'reconnecting') {
        notice(`server "${server.name}" is back.`);
      } else if (event.status === 'closed' && event.error !== undefined) {
        report(
          new Error(
            `server "${server.name}" could not be ${reached ? 'reconnected' : 'reached'} and is no longer served: ${event.error.message}`,
          ),
        );
      }
    });
  };
  await Promise.all(
    config.servers.map((server) => {
      const staging: ToolRegistry = createRegistry({ env: {}, onListenerError: report });
      tools.stage(server.name, staging);
      return connect(server, staging);
    }),
  );
  const pinsFailed = await pinsRead.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  startSignals?.dispose();
  if (starting?.aborted === true || pinsFailed !== undefined) {
    closed = true;
    await closeAll();
    // A start given up by the signal says so, else the pin file's problem.
    throw options.signal?.aborted === true ? options.signal.reason : pinsFailed?.error;
  }
  starting = undefined;
  tools.start();

  const watch = options.watchPins ?? { intervalMs: 1000 };
  const onPinFile = (): void => {
    tools.reloadPins().catch(report);
  };
  if (watch !== false) {
    watchFile(config.pin.path, { interval: watch.intervalMs, persistent: false }, onPinFile);
  }

  let closing: Promise<void> | undefined;
  return {
    runtime,
    toolServer,
    connections,
    readiness: gatewayReadiness({
      servers: config.servers,
      connections,
      sharedState: state.sharedState,
    }),
    blockedTools: () => new Map(tools.blocked),
    reloadPins: () => tools.reloadPins(),
    toolStates: () => tools.states(),
    recordEvent: findings.write,
    ...(state.sharedState === undefined ? {} : { sharedState: state.sharedState }),
    close(closeOptions) {
      let graceMs: number;
      try {
        graceMs = graceMsOf(closeOptions, 'gateway.close');
      } catch (error) {
        return Promise.reject(error);
      }
      closing ??= (async () => {
        closed = true;
        if (watch !== false) unwatchFile(config.pin.path, onPinFile);
        tools.stop();
        await closeAll(graceMs);
      })();
      return closing;
    },
  };
}
