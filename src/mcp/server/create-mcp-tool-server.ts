import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  type InputRequiredResult,
  type CallToolResult as McpCallToolResult,
  Server,
} from '@modelcontextprotocol/server';
import type { CallerIdentity } from '../../audit/index.js';
import { asError, HintgateError } from '../../errors/index.js';
import type { ApprovalRequest, Approver, Mode } from '../../policy/index.js';
import type { Runtime } from '../../runtime/index.js';
import type { AbortScope } from '../../schedule/index.js';
import type { CallTelemetry } from '../../telemetry/index.js';
import type { ToolProgress } from '../../tool/index.js';
import type { ApprovalChannel } from './approval-channel.js';
import { createApprovalRounds } from './approval-rounds.js';
import { type ConnectionInfo, callerIdentity, stated } from './caller-identity.js';
import { callerScopes } from './caller-scopes.js';
import { checkToolServerOptions } from './check-tool-server-options.js';
import { type ClientRequestMethod, createClientRequests } from './client-requests.js';
import { elicitationThrough } from './elicitation-channel.js';
import { listPage } from './list-page.js';
import type {
  McpLogSource,
  McpPromptSource,
  McpResourceSource,
  McpServerEvent,
} from './mcp-server-sources.js';
import { createSourceRelay } from './source-relay.js';
import { toMcpTool } from './to-mcp-tool.js';
import { createToolCallHandler, fromServerContext } from './tool-call-handler.js';
import { createToolListNotifier } from './tool-list-notifier.js';

/** Options of {@link createMcpToolServer}. */
export interface McpToolServerOptions {
  /** The runtime whose visible tools are served and through which every call runs. */
  readonly runtime: Runtime;
  /** Server name reported to clients. Default `"hintgate"`. */
  readonly name?: string;
  /** Server version reported to clients. Default: the hintgate package version. */
  readonly version?: string;
  /**
   * Instructions for the client's model, sent at initialization (MCP `instructions`): a
   * string, or a function called for each new connection, such as
   * `() => runtime.systemPrompt()` so that a client hears the rules of the tools offered
   * when it connects. Default none.
   */
  readonly instructions?: string | (() => string);
  /**
   * Scopes of the clients of this server: what they may see and call. Default the
   * runtime's own scopes.
   */
  readonly scopes?: readonly string[];
  /**
   * Secret (at least 32 bytes) that signs the state of a 2026-07-28 approval round
   * (`input_required`), so that a client cannot forge which call an answer approves.
   * Default: random per server, which suits one process serving every round. Give the same
   * secret to every process behind one endpoint.
   */
  readonly requestStateKey?: Uint8Array | string;
  /**
   * Marks an approval round's answer used where every process behind the endpoint sees it
   * (the `useOnce` of a shared state), so that an answer replayed to another process is
   * refused; resolves true the first time. Default: remembered in this process.
   */
  readonly useRoundOnce?: (round: string, ttlMs: number) => Promise<boolean>;
  /** How long a client has to answer an approval round, in seconds. Default 600. */
  readonly approvalRoundTtlSeconds?: number;
  /**
   * Called with errors that cannot reach a client: a failed `list_changed` notification,
   * an audit sink that failed after a call ran. Default: ignore.
   */
  readonly onError?: (error: Error) => void;
  /**
   * Resources to serve besides the tools (`resources/list`, `resources/templates/list`,
   * `resources/read`, `resources/subscribe` and `unsubscribe`, with `list_changed` and
   * `updated` notifications). Default none: the `resources` capability is not declared.
   */
  readonly resources?: McpResourceSource;
  /** Prompts to serve (`prompts/list`, `prompts/get`, `list_changed`). Default none. */
  readonly prompts?: McpPromptSource;
  /**
   * Log messages to relay to clients (`notifications/message`, `logging/setLevel`).
   * Default none: the `logging` capability is not declared.
   */
  readonly logging?: McpLogSource;
  /**
   * The ways to let a call run, for a call that needed a person's approval while its
   * client cannot ask its user: told to the client and recorded in the audit reason in
   * place of the generic advice. `undefined` keeps the generic advice. Default none.
   */
  readonly unapprovableAdvice?: (request: ApprovalRequest) => string | undefined;
  /**
   * Approvers besides each client's own approval channels (the web console, a terminal):
   * every approval is offered to the client and to these at once, the first answer wins and
   * the others are withdrawn. While one of these may answer, a client that cannot ask its
   * user does not end the wait. Default none.
   */
  readonly approvalChannels?: readonly Approver[];
  /**
   * Traces every `tools/call`: a span `execute_tool {name}` that continues the request's
   * `_meta.traceparent` and carries the call's audit facts (see `startTelemetry`).
   * Default none.
   */
  readonly telemetry?: CallTelemetry;
}

/** Options of {@link McpToolServer.createServer}. */
export interface CreateServerOptions {
  /**
   * Whether this instance lives for a connection and should push
   * `notifications/tools/list_changed` itself (stdio, a 2025-11-25 HTTP session). Default
   * true. Per-request instances (2026-07-28 over HTTP) pass false: their clients hear of
   * changes through the HTTP entry's `subscriptions/listen` streams instead.
   */
  readonly listChanged?: boolean;
  /**
   * How its client reaches this instance, for audit records (`caller.transport`): `stdio`,
   * `http`. Default: `http` for a request that came over HTTP, else `in-process`.
   */
  readonly transport?: string;
  /** The principal of the bearer token that opened it (HTTP), for audit records. */
  readonly principal?: string;
  /**
   * Scopes the principal's token grants, added to the tool server's `scopes` for what this
   * instance lists and may call. Default none.
   */
  readonly scopes?: readonly string[];
}

/**
 * A `tools/call` that a transport layer read itself, past the SDK's dispatch, for
 * {@link McpToolServer.callTool}.
 */
export interface TransportToolCall {
  /** The request's JSON-RPC id. */
  readonly id: string | number;
  /** The tool's name. */
  readonly name: string;
  /** The call's arguments; absent means none. */
  readonly arguments?: Record<string, unknown> | undefined;
  /**
   * Aborts when the client cancels the request or its connection ends: an `AbortSignal`, or
   * a cheaper `AbortScope`.
   */
  readonly signal: AbortSignal | AbortScope;
  /**
   * How a person can be asked about the call. Default: `elicitation/create` sent through
   * the instance.
   */
  readonly channels?: readonly ApprovalChannel[];
  /** Sends one progress notification for the call; absent when the client asked for none. */
  readonly progress?: ((progress: ToolProgress) => Promise<void>) | undefined;
  /** The request's `params._meta` (a `traceparent` for telemetry); hostile, unchecked. */
  readonly meta?: unknown;
}

/** What {@link createMcpToolServer} returns. */
export interface McpToolServer {
  /** The runtime it serves. */
  readonly runtime: Runtime;
  /**
   * Builds one MCP protocol instance (a low-level SDK `Server`) that serves the runtime's
   * tools. Use it as the factory of `serveStdio` / `createMcpHandler`, or connect it to any
   * transport yourself.
   */
  createServer(options?: CreateServerOptions): Server;
  /**
   * Answers one `tools/call` that a transport read itself, past the SDK's dispatch, for a
   * 2025-11-25 connection served by `server` (an instance built by
   * {@link McpToolServer.createServer} that lives for its connection): through the same
   * handler as the instance's own `tools/call`, with the connection's session and caller.
   * The result is projected for the connection; what the handler throws is thrown. For the
   * fast transport layers of `serveMcpStdio` and `startMcpHttpServer`.
   *
   * @throws HintgateError `invalid_option` when `server` is not such an instance.
   */
  callTool(
    server: Server,
    call: TransportToolCall,
  ): Promise<McpCallToolResult | InputRequiredResult>;
  /**
   * Switches the runtime's mode and tells connected clients that the tool list changed
   * when it did (plan mode hides mutating tools).
   */
  setMode(mode: Mode): void;
  /**
   * Checks whether the tool list changed (for example after `runtime.setMode` was called
   * directly) and notifies clients if so. Registry changes and {@link McpToolServer.setMode}
   * are followed without this; the list is also checked on every `tools/list`, not on
   * `tools/call`.
   */
  refresh(): void;
  /** Calls `listener` whenever the tool list changed. Returns a function that unsubscribes. */
  onToolsChanged(listener: () => void): () => void;
  /**
   * Calls `listener` with every change clients are told of: tool, prompt and resource
   * lists, and updates of resources clients subscribed to. Returns a function that
   * unsubscribes.
   */
  onServerEvent(listener: (event: McpServerEvent) => void): () => void;
  /**
   * Asks a connected 2025-11-25 client to answer a request of the upstream server
   * `origin` (`roots/list`, `sampling/createMessage`, `elicitation/create`): the client
   * whose call of one of its tools is under way, else the one active last, of those that
   * declared the capability.
   *
   * @throws ProtocolError `MethodNotFound` when no connected client can answer it.
   */
  askClient(
    origin: string,
    method: ClientRequestMethod,
    params: unknown,
    signal: AbortSignal,
  ): Promise<unknown>;
  /**
   * Calls `listener` when a client's roots may have changed (it sent
   * `notifications/roots/list_changed`, or a client with roots started). Returns a
   * function that unsubscribes.
   */
  onClientRootsChanged(listener: () => void): () => void;
  /** Stops listening to the registry and closes every instance it built. */
  close(): Promise<void>;
}

const packageVersion = (): string => {
  const require = createRequire(import.meta.url);
  return (require('../../../package.json') as { version: string }).version;
};

/** The `instructions` server option of one new connection; none when the function fails. */
const instructionsOf = (
  instructions: McpToolServerOptions['instructions'],
  report: (error: unknown) => void,
): { instructions?: string } => {
  if (typeof instructions !== 'function') {
    return instructions === undefined ? {} : { instructions };
  }
  try {
    const text = instructions();
    return typeof text === 'string' && text !== '' ? { instructions: text } : {};
  } catch (error) {
    report(error);
    return {};
  }
};

/**
 * Exposes a runtime over MCP: its tools, and the resources, prompts and log messages of
 * the sources given in the options. Every visible tool is listed with its schemas and
 * its annotations exactly as declared (absent hints stay absent), plus hintgate's view of
 * it in `_meta` under `dev.hintgate/`. Every `tools/call`, whatever transport and era
 * brought it, goes through one handler (`createToolCallHandler`) and `runtime.execute`,
 * with the request's abort signal, so calls from any number of requests and clients are
 * admitted, in arrival order, into the runtime's one lock manager.
 *
 * Approvals come from the client that sent the call, through the approval channels its
 * request offers: a server-initiated `elicitation/create` on 2025-11-25 connections, an
 * `input_required` result on 2026-07-28 requests. A client that can do neither gets
 * `denied`, never a silent run.
 *
 * This function wires the stages: the call handler, the approval rounds
 * (`createApprovalRounds`), the tool-list notifier (`createToolListNotifier`), the relay
 * of resources, prompts and logs, and the requests of upstream servers to clients.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createMcpToolServer(options: McpToolServerOptions): McpToolServer {
  checkToolServerOptions(options);
  const { runtime } = options;
  const serverInfo = {
    name: options.name ?? 'hintgate',
    version: options.version ?? packageVersion(),
  };
  const report = (error: unknown): void => {
    try {
      options.onError?.(asError(error));
    } catch {
      // Reporting must never break serving.
    }
  };
  const rounds = createApprovalRounds({
    ...(options.requestStateKey === undefined ? {} : { key: options.requestStateKey }),
    ...(options.useRoundOnce === undefined ? {} : { useOnce: options.useRoundOnce }),
    ...(options.approvalRoundTtlSeconds === undefined
      ? {}
      : { ttlSeconds: options.approvalRoundTtlSeconds }),
  });
  /** Instances that live for a connection, with what they know of it. */
  const instances = new Map<Server, ConnectionInfo>();
  /**
   * Who calls through each instance's {@link McpToolServer.callTool}: fixed once its client
   * initialized (a 2025-11-25 connection), so made at its first call, not at every one.
   */
  const transportCallers = new Map<Server, CallerIdentity>();
  const eventListeners = new Set<{ readonly listener: (event: McpServerEvent) => void }>();
  const emit = (event: McpServerEvent): void => {
    for (const { listener } of [...eventListeners]) {
      try {
        listener(event);
      } catch (error) {
        report(error);
      }
    }
  };
  const relay = createSourceRelay({
    ...(options.resources === undefined ? {} : { resources: options.resources }),
    ...(options.prompts === undefined ? {} : { prompts: options.prompts }),
    ...(options.logging === undefined ? {} : { logging: options.logging }),
    instances: () => instances.keys(),
    emit,
    report,
  });
  const clientRequests = createClientRequests({ instances: () => instances, report });
  const notifier = createToolListNotifier({
    runtime,
    scopes: options.scopes,
    instances: () => instances.keys(),
    onChange: () => emit({ kind: 'tools_list_changed' }),
    report,
  });
  const callTool = createToolCallHandler({
    runtime,
    scopes: options.scopes,
    clientRequests,
    unapprovableAdvice: options.unapprovableAdvice,
    approvalChannels: options.approvalChannels,
    report,
    telemetry: options.telemetry,
  });
  let closed = false;

  /** What a caller with `granted` scopes may see: the server's scopes and the token's. */
  const listTools = (granted: readonly string[] | undefined) => {
    notifier.refresh();
    const scopes = callerScopes(options.scopes, granted);
    return runtime
      .listTools(scopes)
      .map((listing) => toMcpTool(listing, runtime.registry.resolve(listing.name, scopes)));
  };

  return {
    runtime,
    createServer(serverOptions = {}) {
      if (closed) {
        throw new HintgateError('invalid_option', 'This MCP tool server is closed.');
      }
      // The low-level Server, not McpServer: McpServer validates arguments with its own
      // schemas before the handler runs (the runtime validates them, applies defaults and
      // audits the failure), registers tools statically (ours come from a registry that
      // changes), and derives listings itself. Here tools/list returns exactly the listing
      // the runtime renders, annotations untouched.
      const server = new Server(serverInfo, {
        capabilities: { tools: { listChanged: true }, ...relay.capabilities },
        ...instructionsOf(options.instructions, report),
        requestState: { verify: rounds.codec.verify },
      });
      // Approvals "for the session" belong to one client connection, never to all of them.
      const session = randomUUID();
      const principal = stated(serverOptions.principal);
      const connection: ConnectionInfo = {
        session,
        ...(serverOptions.transport === undefined ? {} : { transport: serverOptions.transport }),
        ...(principal === undefined ? {} : { principal }),
        ...(serverOptions.scopes === undefined ? {} : { scopes: serverOptions.scopes }),
      };
      server.setRequestHandler('tools/list', (request, ctx) =>
        listPage(
          listTools(connection.scopes ?? ctx.http?.authInfo?.scopes),
          request.params?.cursor,
        ),
      );
      server.setRequestHandler('tools/call', (request, ctx) =>
        callTool(fromServerContext({ server, connection }, request.params, ctx, rounds)),
      );
      relay.register(server);
      if (serverOptions.listChanged !== false) {
        instances.set(server, connection);
        clientRequests.register(server);
      }
      const previous = server.onclose;
      server.onclose = () => {
        instances.delete(server);
        transportCallers.delete(server);
        relay.forget(server);
        runtime.forgetSession(session);
        previous?.();
      };
      return server;
    },
    callTool(server, call) {
      const connection = instances.get(server);
      if (connection === undefined) {
        return Promise.reject(
          new HintgateError(
            'invalid_option',
            'callTool takes an instance built by this tool server for a connection (createServer without listChanged: false) that is still open.',
          ),
        );
      }
      let caller = transportCallers.get(server);
      if (caller === undefined) {
        caller = callerIdentity(server, undefined, connection);
        // Kept once the client said who it is (before its initialize, it has not).
        if (server.getClientVersion() !== undefined) transportCallers.set(server, caller);
      }
      return callTool({
        instance: { server, connection },
        id: call.id,
        params: { name: call.name, arguments: call.arguments },
        signal: call.signal,
        modern: false,
        caller,
        grantedScopes: connection.scopes,
        channels: call.channels ?? [elicitationThrough(server)],
        progress: call.progress,
        meta: call.meta,
      });
    },
    setMode(mode) {
      runtime.setMode(mode);
      notifier.refresh();
    },
    refresh: () => notifier.refresh(),
    askClient: (origin, method, params, signal) =>
      clientRequests.ask(origin, method, params, signal),
    onClientRootsChanged(listener) {
      if (typeof listener !== 'function') {
        throw new HintgateError(
          'invalid_option',
          'onClientRootsChanged expects a function () => void.',
        );
      }
      return clientRequests.onRootsChanged(listener);
    },
    onToolsChanged: (listener) => notifier.onToolsChanged(listener),
    onServerEvent(listener) {
      if (typeof listener !== 'function') {
        throw new HintgateError(
          'invalid_option',
          'onServerEvent expects a function (event) => void.',
        );
      }
      const entry = { listener };
      eventListeners.add(entry);
      return () => {
        eventListeners.delete(entry);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      notifier.close();
      relay.close();
      eventListeners.clear();
      const open = [...instances.keys()];
      instances.clear();
      transportCallers.clear();
      await Promise.all(open.map((server) => server.close().catch(report)));
    },
  };
}
