import type {
  InputRequiredResult,
  CallToolResult as McpCallToolResult,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { AuditEvent, CallerIdentity } from '../../audit/index.js';
import type { ApprovalRequest, Approver } from '../../policy/index.js';
import type { Runtime } from '../../runtime/index.js';
import { AuditWriteError } from '../../runtime/index.js';
import type { AbortScope } from '../../schedule/index.js';
import type { CallTelemetry } from '../../telemetry/index.js';
import type { CallResult, ToolProgress } from '../../tool/index.js';
import { type ApprovalChannel, approverOf } from './approval-channel.js';
import type { ApprovalRounds } from './approval-rounds.js';
import { type ConnectionInfo, callerIdentity, whoOf } from './caller-identity.js';
import { callerScopes } from './caller-scopes.js';
import type { ClientRequests } from './client-requests.js';
import { elicitationThrough } from './elicitation-channel.js';
import { createInputRequiredChannel } from './input-required-channel.js';
import { isModernRequest } from './request-era.js';
import { toCallToolResult } from './to-call-tool-result.js';
import { withApprovalChannels } from './with-approval-channels.js';
import { withUnapprovableAdvice } from './with-unapprovable-advice.js';

/** The params of a `tools/call` as the SDK checked them. */
export interface ToolCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
}

/** The SDK instance a request came to, and what it knows of its connection. */
export interface ToolCallInstance {
  /** The SDK instance that received the request. */
  readonly server: Server;
  /** Its connection: the session approvals are remembered for, transport, principal. */
  readonly connection: ConnectionInfo;
}

/**
 * One `tools/call`, whichever transport read it: the SDK's dispatch ({@link
 * fromServerContext}) or a transport layer that reads calls itself.
 */
export interface ToolCallRequest {
  /** The instance of the client's connection. */
  readonly instance: ToolCallInstance;
  /** The request's JSON-RPC id (the call id in the audit log). */
  readonly id: string | number;
  /** Tool name and arguments. */
  readonly params: ToolCallParams;
  /** Aborts when the client cancels the request or its connection ends. */
  readonly signal: AbortSignal | AbortScope;
  /** True on the 2026-07-28 era: no session, nothing remembered for one. */
  readonly modern: boolean;
  /** Who makes the call, for the audit log. */
  readonly caller: CallerIdentity;
  /** How a person can be asked about the call; offered together, first answer wins. */
  readonly channels: readonly ApprovalChannel[];
  /** Scopes the caller's token grants beyond the server's; absent: none. */
  readonly grantedScopes?: readonly string[] | undefined;
  /** Sends one progress notification for the call; absent when the client asked for none. */
  readonly progress?: ((progress: ToolProgress) => Promise<void>) | undefined;
  /** The request's `params._meta` (a `traceparent` for telemetry); hostile, unchecked. */
  readonly meta?: unknown;
}

/** Options of {@link createToolCallHandler}. */
export interface ToolCallHandlerOptions {
  /** The runtime every call goes through. */
  readonly runtime: Runtime;
  /** Scopes of the clients; absent: the runtime's own. */
  readonly scopes?: readonly string[] | undefined;
  /** Requests of upstream servers, routed to the client whose call is under way. */
  readonly clientRequests: ClientRequests;
  /** Approvers offered each approval beside the request's channels (a web console). */
  readonly approvalChannels?: readonly Approver[] | undefined;
  /** Advice for a call that needed approval from a client that cannot ask. */
  readonly unapprovableAdvice?: ((request: ApprovalRequest) => string | undefined) | undefined;
  /** Receives errors that cannot reach the client. */
  readonly report: (error: unknown) => void;
  /** Traces each call (a span continuing the request's `traceparent`); absent: none. */
  readonly telemetry?: CallTelemetry | undefined;
}

/** Answers one `tools/call`; see {@link createToolCallHandler}. */
export type ToolCallHandler = (
  request: ToolCallRequest,
) => Promise<McpCallToolResult | InputRequiredResult>;

/**
 * A request the SDK dispatched, as a {@link ToolCallRequest}: its approval channels are
 * `input_required` on the 2026-07-28 era and `elicitation/create` on a 2025-11-25
 * connection, and its progress goes out when it carries a progress token.
 */
export function fromServerContext(
  instance: ToolCallInstance,
  params: ToolCallParams,
  ctx: ServerContext,
  rounds: ApprovalRounds,
): ToolCallRequest {
  const { server, connection } = instance;
  const modern = isModernRequest(server, ctx);
  const meta = ctx.mcpReq._meta;
  const progressToken = meta?.progressToken;
  return {
    instance,
    id: ctx.mcpReq.id,
    params,
    signal: ctx.mcpReq.signal,
    modern,
    caller: callerIdentity(server, ctx, connection),
    grantedScopes: connection.scopes ?? ctx.http?.authInfo?.scopes,
    channels: modern
      ? [createInputRequiredChannel(server, ctx, rounds)]
      : [elicitationThrough(server, ctx)],
    ...(meta === undefined ? {} : { meta }),
    progress:
      progressToken === undefined
        ? undefined
        : (progress) =>
            ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken, ...progress },
            }),
  };
}

/**
 * Relays a call's progress to the client when its request asked for it (a progress
 * token); `wait` resolves once what was sent left, since the client drops progress that
 * arrives after the result.
 */
const progressRelay = (
  send: ToolCallRequest['progress'],
  report: (error: unknown) => void,
): { onProgress?: (progress: ToolProgress) => void; end(): Promise<void> } => {
  if (send === undefined) return { end: () => Promise.resolve() };
  let running = true;
  const sent: Promise<void>[] = [];
  return {
    onProgress(progress) {
      // Progress after the result would name a request the client no longer has.
      if (!running) return;
      try {
        sent.push(send(progress).catch(report));
      } catch (error) {
        report(error);
      }
    },
    async end() {
      running = false;
      await Promise.all(sent);
    },
  };
};

/**
 * The one `tools/call` handler of a tool server, whatever transport and era brought the
 * request (stdio, Streamable HTTP sessions, 2026-07-28 requests), in named stages:
 *
 * 1. who: the caller (client, transport, principal) and the session approvals are
 *    remembered for (none on the 2026-07-28 era, which has no sessions);
 * 2. approvals: the request's {@link ApprovalChannel}s, offered together;
 * 3. run: `runtime.execute` with the request's signal and its progress relayed, inside
 *    the call's span when there is telemetry; an audit failure after the call ran leaves
 *    its result standing (reported);
 * 4. settle: a question deferred to the client's retry becomes the `input_required` result;
 * 5. project: the result as an MCP result for the connection's era and the tool's output
 *    schema.
 */
export function createToolCallHandler(options: ToolCallHandlerOptions): ToolCallHandler {
  const { runtime, clientRequests, report, unapprovableAdvice, telemetry } = options;
  const offered = withApprovalChannels(options.approvalChannels);

  const advised = (approver: Approver): Approver =>
    unapprovableAdvice === undefined
      ? approver
      : withUnapprovableAdvice(approver, unapprovableAdvice);

  /** Runs one call; an audit failure after the call ran leaves its result standing. */
  const run = async (...args: Parameters<Runtime['execute']>): Promise<CallResult | undefined> => {
    try {
      const [result] = await runtime.execute(...args);
      return result;
    } catch (error) {
      if (!(error instanceof AuditWriteError)) throw error;
      report(error);
      return error.results[0];
    }
  };

  return async (request) => {
    const { instance, params, caller, channels } = request;
    const { server } = instance;
    // A 2026-07-28 request stands alone: nothing is remembered for a session it lacks.
    const session = request.modern ? null : instance.connection.session;
    const scopeOption = callerScopes(options.scopes, request.grantedScopes);
    const approver = advised(offered(approverOf(channels, whoOf(caller))));
    const progress = progressRelay(request.progress, report);
    const tool = runtime.registry.resolve(params.name, scopeOption);
    const done = clientRequests.track(server, tool?.origin);
    const execute = (onEvent?: (event: AuditEvent) => void) =>
      run(
        [
          {
            id: String(request.id),
            name: params.name,
            arguments: params.arguments ?? {},
            ...(progress.onProgress === undefined ? {} : { onProgress: progress.onProgress }),
          },
        ],
        {
          signal: request.signal,
          approver,
          session,
          caller,
          ...scopeOption,
          ...(onEvent === undefined ? {} : { onEvent }),
        },
      );
    let result: CallResult | undefined;
    try {
      result =
        telemetry === undefined
          ? await execute()
          : await telemetry.call(
              {
                tool: params.name,
                requestId: request.id,
                meta: request.meta,
                ...(caller.transport === undefined ? {} : { transport: caller.transport }),
                ...(tool === undefined
                  ? {}
                  : {
                      server: tool.origin,
                      claimed: tool.claimed,
                      effective: tool.effective,
                      verified: tool.trusted,
                    }),
              },
              execute,
            );
    } finally {
      done();
      // Without progress there is nothing to wait for (no await: a turn of the queue less).
      if (progress.onProgress !== undefined) await progress.end();
    }
    for (const channel of channels) {
      if (channel.settle === undefined) continue;
      const pending = await channel.settle();
      if (pending !== undefined) return pending;
    }
    if (result === undefined) throw new Error('the runtime returned no result for the call');
    const outputSchema = runtime.registry.resolve(params.name, scopeOption)?.tool.outputSchema;
    return server.projectCallToolResult(toCallToolResult(result), outputSchema?.jsonSchema);
  };
}
