import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  createRequestStateCodec,
  type InputRequiredResult,
  type CallToolResult as McpCallToolResult,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CallerIdentity } from '../../audit/audit-event.js';
import { HintgateError } from '../../errors/hintgate-error.js';
import type { ApprovalRequest, Approver, Mode } from '../../policy/policy-types.js';
import { AuditWriteError } from '../../runtime/audit-write-error.js';
import type { ExecuteOptions, Runtime } from '../../runtime/runtime.js';
import type { ToolCall } from '../../runtime/tool-call.js';
import type { ToolProgress } from '../../tool/tool.js';
import type { CallResult } from '../../tool/tool-result.js';
import { type ConnectionInfo, callerIdentity, stamped, stated, whoOf } from './caller-identity.js';
import { callerScopes } from './caller-scopes.js';
import { checkToolServerOptions } from './check-tool-server-options.js';
import {
  type ApprovalRoundState,
  createElicitationApprover,
  createInputRequiredApproval,
  isModernRequest,
  withUnapprovableAdvice,
} from './client-approvers.js';
import { type ClientRequestMethod, createClientRequests } from './client-requests.js';
import {
  type DirectCallOutcome,
  type DirectToolCalls,
  registerDirectToolCalls,
} from './direct-tool-calls.js';
import type {
  McpLogSource,
  McpPromptSource,
  McpResourceSource,
  McpServerEvent,
} from './mcp-server-sources.js';
import { createSourceRelay } from './source-relay.js';
import { toCallToolResult } from './to-call-tool-result.js';
import { toMcpTool } from './to-mcp-tool.js';
import { withApprovalChannels } from './with-approval-channels.js';

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
   * Approval channels besides the client's own (the web console, a terminal): each approval
   * is offered to the client and to these at once, the first answer wins and the others are
   * withdrawn. While a channel may answer, a client that cannot ask its user does not get
   * the call denied: it waits for the channels (up to the runtime's approval timeout). A
   * channel should answer `{ decision: 'deny', asked: false }` only when it cannot ask
   * anyone. Default none.
   */
  readonly approvalChannels?: readonly Approver[];
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
   * instance lists and runs. Default none.
   */
  readonly scopes?: readonly string[];
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

const asError = (error: unknown): Error =>
  error instanceof Error ? error : new Error(String(error));

/**
 * Exposes a runtime over MCP: its tools, and the resources, prompts and log messages of
 * the sources given in the options. Every visible tool is listed with its schemas and
 * its annotations exactly as declared (absent hints stay absent), plus hintgate's view of
 * it in `_meta` under `dev.hintgate/`. Every `tools/call` goes through
 * `runtime.execute`, with the request's abort signal, so calls from any number of requests
 * and clients are admitted, in arrival order, into the runtime's one lock manager.
 *
 * Approvals come from the client that sent the call: a server-initiated
 * `elicitation/create` on 2025-11-25 connections, an `input_required` result on 2026-07-28
 * requests. A client that can do neither gets `denied`, never a silent run.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createMcpToolServer(options: McpToolServerOptions): McpToolServer {
  checkToolServerOptions(options);
  const { runtime } = options;
  const offered = withApprovalChannels(options.approvalChannels);
  const serverInfo = {
    name: options.name ?? 'hintgate',
    version: options.version ?? packageVersion(),
  };
  const scopeOption = options.scopes === undefined ? {} : { scopes: options.scopes };
  /** The scopes of a caller of `server`: its session's token's, else the request's. */
  const scopesOf = (server: Server, ctx?: ServerContext) =>
    callerScopes(options.scopes, connections.get(server)?.scopes ?? ctx?.http?.authInfo?.scopes);
  const report = (error: unknown): void => {
    try {
      options.onError?.(asError(error));
    } catch {
      // Reporting must never break serving.
    }
  };
  const codec = createRequestStateCodec<ApprovalRoundState>({
    key: options.requestStateKey ?? randomBytes(32),
    ttlSeconds: options.approvalRoundTtlSeconds ?? 600,
    // The state is good for tools/call from the principal it was minted for.
    bind: (ctx) => `${ctx.mcpReq.method}\u0000${ctx.http?.authInfo?.clientId ?? ''}`,
  });

  const ttlMs = (options.approvalRoundTtlSeconds ?? 600) * 1000;
  const usedRounds = new Map<string, number>();
  /** Marks an approval round used; false when it was used before (a replay). */
  const consumeRound = (round: string): boolean => {
    const now = Date.now();
    for (const [id, expires] of usedRounds) if (expires <= now) usedRounds.delete(id);
    if (usedRounds.has(round)) return false;
    usedRounds.set(round, now + ttlMs);
    return true;
  };
  // Approvals "for the session" belong to one client connection, never to all of them.
  const connections = new WeakMap<Server, ConnectionInfo>();

  const callerOf = (server: Server, ctx?: ServerContext): CallerIdentity =>
    callerIdentity(server, ctx, connections.get(server));
  const instances = new Set<Server>();
  const listeners = new Set<{ readonly listener: () => void }>();
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
    instances: () => instances,
    emit,
    report,
  });
  const clientRequests = createClientRequests({ instances: () => instances, report });
  const originOf = (name: string, scopes: typeof scopeOption): string | undefined =>
    runtime.registry.resolve(name, scopes)?.origin;
  const fingerprint = (): string => JSON.stringify(runtime.listTools(scopeOption));
  let lastList = fingerprint();
  let closed = false;

  const refresh = (): void => {
    if (closed) return;
    const next = fingerprint();
    if (next === lastList) return;
    lastList = next;
    for (const server of instances) server.sendToolListChanged().catch(report);
    for (const { listener } of [...listeners]) {
      try {
        listener();
      } catch (error) {
        report(error);
      }
    }
    emit({ kind: 'tools_list_changed' });
  };
  const unsubscribe = runtime.registry.onChange(() => refresh());

  const listTools = (scopes: typeof scopeOption) => {
    refresh();
    return runtime
      .listTools(scopes)
      .map((listing) => toMcpTool(listing, runtime.registry.resolve(listing.name, scopes)));
  };

  const callTool = async (
    server: Server,
    params: { readonly name: string; readonly arguments?: Record<string, unknown> | undefined },
    ctx: ServerContext,
  ): Promise<McpCallToolResult | InputRequiredResult> => {
    const modern = isModernRequest(server, ctx);
    const roundApproval = modern
      ? createInputRequiredApproval(server, ctx, codec, consumeRound)
      : undefined;
    // A 2026-07-28 request stands alone: nothing is remembered for a session it lacks.
    const session = modern ? null : (connections.get(server)?.session ?? null);
    const caller = callerOf(server, ctx);
    const approver = offered(
      stamped(
        roundApproval?.approver ?? createElicitationApprover(server, ctx),
        modern ? 'input_required' : 'elicitation',
        whoOf(caller),
      ),
    );
    const progressToken = ctx.mcpReq._meta?.progressToken;
    let running = true;
    const progressSent: Promise<void>[] = [];
    const onProgress =
      progressToken === undefined
        ? undefined
        : (progress: ToolProgress): void => {
            // Progress after the result would name a request the client no longer has.
            if (!running) return;
            progressSent.push(
              ctx.mcpReq
                .notify({
                  method: 'notifications/progress',
                  params: { progressToken, ...progress },
                })
                .catch(report),
            );
          };
    let result: CallResult | undefined;
    const scopes = scopesOf(server, ctx);
    const done = clientRequests.track(server, originOf(params.name, scopes));
    try {
      result = await executeOne(
        {
          id: String(ctx.mcpReq.id),
          name: params.name,
          arguments: params.arguments ?? {},
          ...(onProgress === undefined ? {} : { onProgress }),
        },
        { signal: ctx.mcpReq.signal, approver, session, caller, ...scopes },
      );
    } finally {
      running = false;
      done();
    }
    // The client drops progress that arrives after the result.
    await Promise.all(progressSent);
    const pending = await roundApproval?.pending();
    if (pending !== undefined) return pending;
    return project(server, params.name, result, scopes);
  };

  const { unapprovableAdvice } = options;
  const advised = (approver: Approver | undefined): Approver | undefined =>
    approver === undefined || unapprovableAdvice === undefined
      ? approver
      : withUnapprovableAdvice(approver, unapprovableAdvice);

  /** Runs one call; an audit failure after the call ran leaves its result standing. */
  const executeOne = (
    call: ToolCall,
    executeOptions: ExecuteOptions,
  ): Promise<CallResult | undefined> => {
    let batch: Promise<CallResult[]>;
    try {
      const approver = advised(executeOptions.approver);
      batch = runtime.execute(
        [call],
        approver === undefined ? executeOptions : { ...executeOptions, approver },
      );
    } catch (error) {
      return Promise.reject(error);
    }
    // Chained rather than awaited: no more turns of the microtask queue than the call needs.
    return batch.then(
      ([result]) => result,
      (error: unknown) => {
        if (!(error instanceof AuditWriteError)) throw error;
        // The call ran; its result stands even though the audit trail missed it.
        report(error);
        return error.results[0];
      },
    );
  };

  /** A call's result as an MCP result, projected for the connection's era. */
  const project = (
    server: Server,
    name: string,
    result: CallResult | undefined,
    scopes: typeof scopeOption,
  ): McpCallToolResult => {
    if (result === undefined) throw new Error('the runtime returned no result for the call');
    const outputSchema = runtime.registry.resolve(name, scopes)?.tool.outputSchema;
    return server.projectCallToolResult(toCallToolResult(result), outputSchema?.jsonSchema);
  };

  // Outcomes of calls the stdio fast path ran, left for the tools/call handler to answer.
  const handedOff = new WeakMap<Server, Map<string | number, DirectCallOutcome>>();
  const direct: DirectToolCalls = {
    call(server, id, params, signal, approver) {
      // What callTool does for a 2025-era request without _meta: no progress, no round.
      const caller = callerOf(server);
      const scopes = scopesOf(server);
      const done = clientRequests.track(server, originOf(params.name, scopes));
      return executeOne(
        { id: String(id), name: params.name, arguments: params.arguments ?? {} },
        {
          signal,
          approver: offered(
            stamped(approver ?? createElicitationApprover(server), 'elicitation', whoOf(caller)),
          ),
          session: connections.get(server)?.session ?? null,
          caller,
          ...scopes,
        },
      )
        .finally(done)
        .then((result) => project(server, params.name, result, scopes));
    },
    handOff(server, id, outcome) {
      let outcomes = handedOff.get(server);
      if (outcomes === undefined) {
        outcomes = new Map();
        handedOff.set(server, outcomes);
      }
      outcomes.set(id, outcome);
    },
  };
  const takeHandedOff = (server: Server, id: string | number): DirectCallOutcome | undefined => {
    const outcomes = handedOff.get(server);
    const outcome = outcomes?.get(id);
    if (outcome !== undefined) outcomes?.delete(id);
    return outcome;
  };

  const toolServer: McpToolServer = {
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
        requestState: { verify: codec.verify },
      });
      const session = randomUUID();
      const principal = stated(serverOptions.principal);
      connections.set(server, {
        session,
        ...(serverOptions.transport === undefined ? {} : { transport: serverOptions.transport }),
        ...(principal === undefined ? {} : { principal }),
        ...(serverOptions.scopes === undefined ? {} : { scopes: serverOptions.scopes }),
      });
      server.setRequestHandler('tools/list', (_request, ctx) => ({
        tools: listTools(scopesOf(server, ctx)),
      }));
      server.setRequestHandler('tools/call', (request, ctx) => {
        const outcome = takeHandedOff(server, ctx.mcpReq.id);
        if (outcome === undefined) return callTool(server, request.params, ctx);
        if (outcome.ok) return outcome.result;
        throw outcome.error;
      });
      relay.register(server);
      if (serverOptions.listChanged !== false) {
        instances.add(server);
        clientRequests.register(server);
      }
      const previous = server.onclose;
      server.onclose = () => {
        instances.delete(server);
        relay.forget(server);
        runtime.forgetSession(session);
        previous?.();
      };
      return server;
    },
    setMode(mode) {
      runtime.setMode(mode);
      refresh();
    },
    refresh,
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
    onToolsChanged(listener) {
      if (typeof listener !== 'function') {
        throw new HintgateError('invalid_option', 'onToolsChanged expects a function () => void.');
      }
      const entry = { listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
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
      unsubscribe();
      relay.close();
      listeners.clear();
      eventListeners.clear();
      const open = [...instances];
      instances.clear();
      await Promise.all(open.map((server) => server.close().catch(report)));
    },
  };
  registerDirectToolCalls(toolServer, direct);
  return toolServer;
}
