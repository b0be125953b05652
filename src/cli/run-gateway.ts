import { join } from 'node:path';
import type { GatewayConsole } from '../console/index.js';
import type { LoadedGatewayConfig } from '../gateway/early.js';
import type { Gateway } from '../gateway/index.js';
import {
  DEFAULT_HTTP_HOST,
  fastPathEnabled,
  spawnStdioServerEarly,
  stopEarlyStdioServers,
} from '../mcp/early.js';
import type { McpHttpServer, McpStdioServer } from '../mcp/index.js';
import { MODES, type Mode } from '../policy/index.js';
import { type RunningTelemetry, startTelemetry } from '../telemetry/index.js';
import { takeConsoleOption } from './console-option.js';
import type { FetchAllowArg } from './fetch-allow-arg.js';
import { chooseGatewayConfig } from './gateway-config-file.js';
import { httpTokenCheck, MIN_TOKEN_LENGTH } from './http-token-check.js';
import {
  nextSignal,
  SHUTDOWN_GRACE_USAGE,
  shutdownGraceArg,
  shutdownNotice,
} from './next-signal.js';
import { parseCommandArgs } from './parse-command-args.js';
import type { CliIo } from './run-cli.js';

export const GATEWAY_USAGE = `Usage: hintgate gateway [--config FILE] [--mode MODE] [--fetch-allow LIST]
                        [--http [--host HOST] [--port PORT] [--token TOKEN | --insecure-no-token]]
                        [--console [PORT]] [--terminal] [--shutdown-grace-ms MS]

Fronts the MCP servers of a configuration file: every tool call any MCP client makes goes
through hintgate, which applies the tools' annotations, the mode and rules, and asks the
client's user for approval (elicitation or input_required; denied when the client can do
neither). Tools of the same name on two servers are offered as <server>__<tool>. Tools
whose definition changed since "hintgate pin", and (by default) tools not pinned yet, are
held back: not listed, and their calls denied with the reason. The audit log, approvals
and pin file live beside the configuration file.

Options:
  --config FILE     Gateway configuration (hintgate.yaml, or an MCP client configuration
                    with an mcpServers block). Default: ./hintgate.yaml when it exists;
                    without one, the built-in workspace tools of the current directory
                    are served, as by "hintgate serve". "hintgate init" writes a starter.
  --mode MODE       plan | ask | auto | allowlist | yolo. Default: the configuration's
                    mode, else ask.
  --fetch-allow LIST
                    Without a configuration: private addresses the built-in web_fetch
                    may reach, as by "hintgate serve --fetch-allow".
  --http            Serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (also
                    when the configuration has downstream.http).
  --host HOST       Address to listen on. Default: downstream.http.host, else 127.0.0.1.
                    Host and Origin headers are checked as by "hintgate serve --http".
  --port PORT       Port to listen on; 0 picks a free one. Default: downstream.http.port,
                    else 3000.
  --token TOKEN     Require "Authorization: Bearer TOKEN" on every request; at least
                    ${MIN_TOKEN_LENGTH} characters. Default: HINTGATE_TOKEN, else
                    downstream.http.token. Without a token the gateway refuses to listen
                    on an address other machines may reach (warns on loopback).
  --insecure-no-token
                    Listen without a token on such an address all the same.
  --console [PORT]  Serve the web console (approvals inbox, audit trail, tools, mode) at
                    http://127.0.0.1:PORT/console/ (no PORT: console.port of the
                    configuration, else a free one); its login address is printed once
                    on stderr. Approvals are offered there too, first answer wins; a
                    client that cannot ask its user waits for the console instead of
                    being denied. Also on with "console:" in the configuration.
  --terminal        With --http: also ask for approvals in this terminal (stdin must be
                    one), offered together with the client and the console.
${SHUTDOWN_GRACE_USAGE}  -h, --help        Show this help and exit.

Over stdio, stdout carries the protocol; messages (and the upstream servers' stderr,
prefixed with their names) go to stderr. SIGINT or SIGTERM shuts the gateway down: it
takes no more calls, lets the calls under way finish for up to 5 s (--shutdown-grace-ms; a
second signal stops at once), cancels the rest, stops the upstream servers and flushes the
audit log. On stdio, the client closing stdin does the same without the wait.
Tool modules in ~/.hintgate/tools/ (HINTGATE_HOME moves it) and in .hintgate/tools/ of the
configuration's directory (or of the current directory) are served beside the servers'
tools; the project's only once the folder is trusted (asked on a terminal with --http,
else "hintgate trust DIR"). See "hintgate tools" and docs/discovery.md.

Guide: docs/gateway.md. Configuration reference: docs/gateway-config.md.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  config: { type: 'string' },
  mode: { type: 'string' },
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
  'insecure-no-token': { type: 'boolean' },
  terminal: { type: 'boolean' },
  'fetch-allow': { type: 'string', multiple: true },
  'shutdown-grace-ms': { type: 'string' },
} as const;

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Writes text that arrives in chunks as whole lines, each with a prefix. */
const linePrefixer = (write: (text: string) => void, prefix: string) => {
  let partial = '';
  return (chunk: string): void => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) write(`${prefix}${line}\n`);
  };
};

/**
 * Starts the processes of the configuration's stdio servers that their connections take
 * over (2025-era servers on the upstream fast path), so that they start while the gateway
 * loads the rest of itself. Anything that goes wrong here is met again, and reported, when
 * the server is connected.
 */
const startUpstreamsEarly = (config: LoadedGatewayConfig): void => {
  try {
    if (!fastPathEnabled('upstream')) return;
  } catch {
    return;
  }
  for (const server of config.servers) {
    if (server.transport !== 'stdio' || (server.era ?? 'legacy') !== 'legacy') continue;
    try {
      spawnStdioServerEarly({
        command: server.command,
        args: server.args,
        ...(server.env === undefined ? {} : { env: server.env }),
        cwd: server.cwd,
      });
    } catch {
      // The connection starts it itself, and says what is wrong.
    }
  }
};

/**
 * `hintgate gateway`: loads the configuration (or takes the embedded default), starts the
 * gateway and serves it over stdio or Streamable HTTP until SIGINT, SIGTERM or (stdio) the
 * end of stdin. Resolves to the exit code: 2 for bad options or configuration, 1 when it
 * cannot start, 0 after a clean shutdown.
 */
export async function runGateway(argv: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string): void => io.stderr(`hintgate gateway: ${line}\n`);
  const consoleOption = takeConsoleOption(argv);
  if (!consoleOption.ok) {
    say(`${consoleOption.message} Run "hintgate gateway --help" for usage.`);
    return 2;
  }
  const parsed = parseCommandArgs('gateway', consoleOption.argv, OPTIONS);
  if (!parsed.ok) {
    say(parsed.message);
    return 2;
  }
  const values = parsed.values as {
    help?: boolean;
    config?: string;
    mode?: string;
    http?: boolean;
    host?: string;
    port?: string;
    token?: string;
    'insecure-no-token'?: boolean;
    terminal?: boolean;
    'shutdown-grace-ms'?: string;
  };
  if (values.help === true) {
    io.stdout(GATEWAY_USAGE);
    return 0;
  }
  const { mode } = values;
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) {
    say(`--mode "${mode}" is not a mode; use one of ${MODES.join(', ')}.`);
    return 2;
  }
  const grace = shutdownGraceArg(values['shutdown-grace-ms']);
  if (!grace.ok) {
    say(grace.message);
    return 2;
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
    if (!(port >= 0 && port <= 65_535)) {
      say(
        `--port "${values.port}" is not a port; use an integer from 0 to 65535 (0 picks a free one).`,
      );
      return 2;
    }
  }
  // The built-in tools (which check the entries) are loaded only when there are entries.
  const allowed = (parsed.values as Record<string, unknown>)['fetch-allow'];
  const fetchAllow: FetchAllowArg =
    allowed === undefined
      ? { ok: true, entries: [] }
      : (await import('./fetch-allow-arg.js')).fetchAllowArg(allowed);
  if (!fetchAllow.ok) {
    say(fetchAllow.message);
    return 2;
  }
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  const choice = await chooseGatewayConfig(values.config, cwd, env);
  if (choice.kind === 'invalid') {
    for (const line of choice.lines) say(line);
    return 2;
  }
  const config = choice.kind === 'loaded' ? choice.config : undefined;
  if (config !== undefined && fetchAllow.entries.length > 0) {
    say(
      '--fetch-allow only applies to the built-in workspace tools, served without a configuration; a configuration fronts other servers, whose fetch tools have their own settings.',
    );
    return 2;
  }
  const downstream = config?.downstream.http;
  const http = values.http === true || downstream !== undefined;
  for (const name of ['host', 'port', 'token', 'insecure-no-token'] as const) {
    if (values[name] !== undefined && !http) {
      say(
        `--${name} only applies with --http (or downstream.http in the configuration). Run "hintgate gateway --help" for usage.`,
      );
      return 2;
    }
  }
  if (values.terminal === true && !http) {
    say(
      '--terminal only applies with --http: over stdio, stdin carries the MCP protocol. Use --console for approvals in a browser.',
    );
    return 2;
  }
  if (values.terminal === true && process.stdin.isTTY !== true) {
    say('--terminal needs an interactive terminal on stdin; run the gateway in one.');
    return 2;
  }
  const envToken = env.HINTGATE_TOKEN === '' ? undefined : env.HINTGATE_TOKEN;
  const token = values.token ?? (http ? (envToken ?? downstream?.token) : undefined);
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    const source = values.token === undefined ? 'HINTGATE_TOKEN' : '--token';
    say(`${source} must be at least ${MIN_TOKEN_LENGTH} characters long.`);
    return 2;
  }
  const host = values.host ?? downstream?.host ?? DEFAULT_HTTP_HOST;
  const tokenCheck = httpTokenCheck({
    host,
    token: token ?? downstream?.principals?.[0]?.token,
    insecureNoToken: values['insecure-no-token'] === true,
  });
  if (!tokenCheck.ok) {
    say(tokenCheck.message);
    return 2;
  }
  // Listening from before the start: a signal while the gateway loads or upstreams are
  // still being reached stops the start, and what it began (upstream processes, started
  // as early as here) is closed before exiting.
  const shutdown = nextSignal();
  const stopStart = new AbortController();
  let signalled: string | undefined;
  void shutdown.signal.then((name) => {
    signalled = name;
    stopStart.abort(new Error(`${name} while starting`));
  });
  if (config === undefined) {
    say(
      `no ${choice.kind === 'none' ? choice.looked : 'configuration'}: serving the built-in workspace tools of ${cwd} ("hintgate init" writes a configuration to front other MCP servers).`,
    );
  } else startUpstreamsEarly(config);
  try {
    const [{ createGateway }, { serveMcpStdio, startMcpHttpServer }, { discoverCliTools }] =
      await Promise.all([
        import('../gateway/index.js'),
        import('../mcp/index.js'),
        import('./discover-cli-tools.js'),
      ]);

    const report = (error: Error): void => {
      const [first = '', ...rest] = error.message.split('\n');
      say(first);
      for (const line of rest) if (line.trim() !== '') io.stderr(`  ${line}\n`);
    };
    const consoleSettings =
      consoleOption.console === undefined
        ? config?.console
        : { ...config?.console, ...consoleOption.console };
    let webConsole: GatewayConsole | undefined;
    if (consoleSettings !== undefined) {
      const state = join(cwd, '.hintgate');
      try {
        const { prepareGatewayConsole } = await import('../console/index.js');
        webConsole = await prepareGatewayConsole({
          auditPath: config?.audit.path ?? join(state, 'audit.jsonl'),
          approvalsFile: config?.approvals.path ?? join(state, 'approvals.json'),
          ...consoleSettings,
          ...(config === undefined ? {} : { configFile: config.file }),
        });
      } catch (error) {
        say(`cannot read the audit log for the console: ${messageOf(error)}`);
        return 1;
      }
    }
    let telemetry: RunningTelemetry | undefined;
    try {
      telemetry = await startTelemetry({
        config: config?.telemetry,
        serviceName: 'hintgate-gateway',
        env,
      });
    } catch (error) {
      await webConsole?.close();
      report(new Error(messageOf(error)));
      return 1;
    }
    // Last on every way out: what the calls left is exported before the process exits.
    const stopTelemetry = async (): Promise<void> => {
      await telemetry?.shutdown().catch(report);
    };
    const upstreamLines = new Map<string, (chunk: string) => void>();
    let gateway: Gateway;
    try {
      gateway = await createGateway({
        signal: stopStart.signal,
        ...(config === undefined
          ? {
              workspace: cwd,
              ...(fetchAllow.entries.length === 0 ? {} : { fetchAllow: fetchAllow.entries }),
            }
          : { config }),
        ...(mode === undefined ? {} : { mode: mode as Mode }),
        // Over stdio, stdin carries MCP: the project's trust can only be asked with --http.
        discoverTools: (registry) =>
          discoverCliTools(io, {
            registry,
            project: config?.directory ?? cwd,
            command: 'gateway',
            watch: true,
            mayAsk: http,
          }),
        ...(webConsole === undefined ? {} : { auditSinks: webConsole.auditSinks }),
        ...(telemetry === undefined ? {} : { telemetry: telemetry.telemetry }),
        ...(webConsole === undefined && values.terminal !== true
          ? {}
          : {
              approvalChannels: [
                ...(webConsole?.approvalChannels ?? []),
                ...(values.terminal === true
                  ? [(await import('./terminal-channel.js')).terminalChannel()]
                  : []),
              ],
            }),
        onError: report,
        onNotice: say,
        onUpstreamStderr: (server, text) => {
          let write = upstreamLines.get(server);
          if (write === undefined) {
            write = linePrefixer(io.stderr, `[${server}] `);
            upstreamLines.set(server, write);
          }
          write(text);
        },
      });
    } catch (error) {
      stopEarlyStdioServers();
      shutdown.dispose();
      await webConsole?.close();
      await stopTelemetry();
      if (signalled !== undefined) {
        say(`${signalled}: stopped while starting.`);
        return 0;
      }
      report(new Error(messageOf(error)));
      return 1;
    }
    // Every connection has started: what none took over is not the gateway's.
    stopEarlyStdioServers();
    const { runtime, toolServer } = gateway;
    const held = gateway.blockedTools().size;
    const what = `${runtime.listTools().length} tools${
      config === undefined
        ? ` of ${cwd}`
        : gateway.connections.size === config.servers.length
          ? ` of ${config.servers.length} server${config.servers.length === 1 ? '' : 's'}`
          : gateway.connections.size === 0
            ? config.servers.length === 1
              ? ' (its server is not reached yet; its tools appear once it is)'
              : ` (none of the ${config.servers.length} servers is reached yet; their tools appear once they are)`
            : ` of ${gateway.connections.size} of ${config.servers.length} servers (the others are not reached yet)`
    }${held === 0 ? '' : ` (${held} held back by pins)`}, mode ${runtime.mode ?? 'custom'}`;

    let httpServer: McpHttpServer | undefined;
    let stdio: McpStdioServer | undefined;
    if (http) {
      const listenPort = port ?? downstream?.port;
      try {
        httpServer = await startMcpHttpServer({
          toolServer,
          host,
          ...(listenPort === undefined ? {} : { port: listenPort }),
          ...(token === undefined ? {} : { token }),
          ...(downstream?.principals === undefined ? {} : { principals: downstream.principals }),
          ...(downstream?.rateLimit === undefined ? {} : { rateLimit: downstream.rateLimit }),
          ...downstream?.sessions,
          readiness: gateway.readiness,
          onError: report,
        });
      } catch (error) {
        shutdown.dispose();
        await webConsole?.close();
        await gateway.close();
        await stopTelemetry();
        say(`cannot listen on ${host}: ${messageOf(error)}`);
        return 1;
      }
      const callers = downstream?.principals?.length ?? 0;
      const auth =
        callers > 0
          ? `, bearer token of one of ${callers + (token === undefined ? 0 : 1)} callers required`
          : token === undefined
            ? ''
            : ', bearer token required';
      say(`serving ${what} at ${httpServer.url}${auth}`);
      if (tokenCheck.warning !== undefined) say(tokenCheck.warning);
    } else {
      stdio = serveMcpStdio({ toolServer, onError: report });
      say(`serving ${what} over stdio`);
    }

    if (webConsole !== undefined) {
      try {
        const started = await webConsole.start(gateway);
        say(
          consoleSettings?.token === undefined
            ? `console at ${started.loginUrl} (this address signs you in; it holds a new token on every start)`
            : `console at ${started.loginUrl} (sign in with the configured console.token)`,
        );
      } catch (error) {
        shutdown.dispose();
        await webConsole.close();
        await gateway.close();
        await httpServer?.close();
        await stdio?.close();
        await stopTelemetry();
        say(`cannot start the console: ${messageOf(error)}`);
        return 1;
      }
    }

    const ended = await Promise.race([
      shutdown.signal,
      ...(stdio === undefined ? [] : [stdio.closed.then(() => undefined)]),
    ]);
    shutdown.dispose();
    // On a signal, calls under way get a grace period and their results still reach the
    // clients; when the stdio client has gone, nobody waits for them.
    if (ended !== undefined) {
      say(shutdownNotice(ended, grace.ms));
    }
    await gateway.close({ graceMs: ended === undefined ? 0 : grace.ms });
    await webConsole?.close();
    await httpServer?.close();
    await stdio?.close();
    await stopTelemetry();
    return 0;
  } finally {
    // Whatever the start did not take over is stopped (at the latest).
    stopEarlyStdioServers();
    shutdown.dispose();
  }
}
