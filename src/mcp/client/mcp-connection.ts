import {
  type CallToolResult,
  type Client,
  type Implementation,
  type Tool as McpTool,
  type ProtocolEra,
  SdkError,
  SdkErrorCode,
  type ServerCapabilities,
} from '@modelcontextprotocol/client';
import { asError } from '../../errors/index.js';
import { type Clock, systemClock } from '../../schedule/index.js';
import { ConnectionEmitter } from './connection-emitter.js';
import type {
  McpConnectionEvents,
  McpConnectionStatus,
  McpServerConnection,
  McpStatusEvent,
} from './connection-events.js';
import { callLive, downMessage, type LiveCallHooks, type LiveClient } from './live-client.js';
import type { CheckedMcpServerOptions } from './mcp-server-options.js';
import { openMcpClient } from './open-mcp-client.js';
import { reconnectDelay } from './reconnect-delay.js';
import type { McpToolProblem, RemoteCallRequest } from './remote-tool.js';
import { RemoteToolOrigin } from './remote-tool-origin.js';
import { StderrTail } from './stderr-tail.js';
import { NotJsonRpcMessageError } from './stdio-upstream-transport.js';
import { UpstreamRateWindow } from './upstream-rate-window.js';
import { isConnectionFailure, UpstreamUnavailableError } from './upstream-unavailable-error.js';
import { watchNotificationStream } from './watch-notification-stream.js';

const noop = (): void => {};
const lastLine = (text: string): string => text.split('\n').at(-1)?.slice(-300) ?? '';

/**
 * The lifecycle of one MCP server connection: the first connection, tool registration and
 * refresh, loss detection, reconnecting with backoff, and close. Created and started by
 * `connectMcpServer`.
 */
export class McpConnection implements McpServerConnection {
  readonly origin: string;
  readonly #options: CheckedMcpServerOptions;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #abort = new AbortController();
  readonly #events = new ConnectionEmitter();
  readonly #rateWindow: UpstreamRateWindow;
  #status: McpConnectionStatus = 'connecting';
  #live: LiveClient | undefined;
  readonly #origin: RemoteToolOrigin;
  #serverInfo: Implementation | undefined;
  #era: ProtocolEra | undefined;
  /** Consecutive failures (failed attempts, connections lost soon after they were made): the backoff exponent. */
  #failures = 0;
  /** Attempts since the connection was last ready, for `maxAttempts`. */
  #attempts = 0;
  #lastError: Error | undefined;
  #timer: unknown;
  #nextAttemptAt: number | undefined;
  #pending: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #lastStderr: StderrTail | undefined;
  /**
   * Connections whose server is being asked whether it is still there, with the transport's
   * reports meanwhile: told if it answers, dropped if it is lost (the loss says why).
   */
  readonly #probing = new WeakMap<LiveClient, Error[]>();

  /** What a call needs of this connection (see `callLive`): made once, not per call. */
  readonly #hooks: LiveCallHooks;

  constructor(options: CheckedMcpServerOptions) {
    this.origin = options.name;
    this.#hooks = {
      origin: this.origin,
      lost: (gone, error) => this.#lost(gone, error),
      closed: () => this.#status === 'closed',
    };
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#rateWindow = new UpstreamRateWindow(this.origin, {
      onLimited: (limit) => this.#events.emit('rateLimited', limit),
      clock: this.#clock,
    });
    this.#random = options.random ?? Math.random;
    this.#origin = new RemoteToolOrigin(options, (request) => this.#call(request));
  }

  get tools(): readonly McpTool[] {
    return this.#origin.listed;
  }

  get problems(): readonly McpToolProblem[] {
    return this.#origin.problems;
  }

  get status(): McpConnectionStatus {
    return this.#status;
  }

  get serverInfo(): Implementation | undefined {
    return this.#serverInfo;
  }

  get lastError(): Error | undefined {
    return this.#lastError;
  }

  get protocolEra(): ProtocolEra | undefined {
    return this.#era;
  }

  get capabilities(): ServerCapabilities | undefined {
    const live = this.#live;
    return live?.alive === true ? live.client.getServerCapabilities() : undefined;
  }

  async request<T>(what: string, send: (client: Client) => Promise<T>): Promise<T> {
    const live = this.#live;
    if (live === undefined || !live.alive) {
      const why = this.#lastError === undefined ? '' : ` (${this.#lastError.message})`;
      throw new UpstreamUnavailableError(
        this.origin,
        `MCP server "${this.origin}" is ${this.#status === 'closed' ? 'disconnected' : 'unavailable, being reconnected'}${why}; ${what} was not sent.`,
      );
    }
    try {
      return await send(live.client);
    } catch (error) {
      if (!live.alive || isConnectionFailure(error)) {
        this.#lost(live, asError(error));
        throw new UpstreamUnavailableError(
          this.origin,
          `MCP server "${this.origin}" went away during ${what} (${live.lostReason ?? asError(error).message}).`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** The last characters of the latest server process's stderr (stdio), for error messages. */
  stderrTail(): string {
    return this.#lastStderr?.text ?? '';
  }

  on<E extends keyof McpConnectionEvents>(
    event: E,
    listener: (payload: McpConnectionEvents[E]) => void,
  ): () => void {
    return this.#events.on(event, listener);
  }

  /** Makes the first connection and registers the tools; rejects with the cause on failure. */
  async start(): Promise<void> {
    this.#adopt(await this.#open());
  }

  /**
   * After a failed first connection (`firstConnection: 'retry'`): tries again with the
   * backoff of `reconnect`, as after a loss; `error` is why, told by the `reconnecting`
   * status. Without reconnecting (`reconnect: false`) the connection closes with it.
   */
  retryFirstConnection(error: Error): void {
    if (this.#status !== 'connecting') return;
    this.#failures = 1;
    this.#lastError = error;
    this.#scheduleReconnect(error);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown(undefined);
    return this.#closing;
  }

  #setStatus(
    status: McpConnectionStatus,
    extra: Omit<McpStatusEvent, 'status' | 'previous'> = {},
  ): void {
    const previous = this.#status;
    this.#status = status;
    this.#events.emit('status', { status, previous, ...extra });
  }

  async #open(): Promise<{ live: LiveClient; tools: McpTool[]; closed: () => boolean }> {
    const slot: { live?: LiveClient; closed: boolean } = { closed: false };
    const stderr = new StderrTail();
    this.#lastStderr = stderr;
    const opened = await openMcpClient({
      stderr,
      origin: this.origin,
      target: this.#options.target,
      era: this.#options.era,
      connectTimeoutMs: this.#options.connectTimeoutMs,
      ...(this.#options.clientInfo === undefined ? {} : { clientInfo: this.#options.clientInfo }),
      ...(this.#options.onStderr === undefined ? {} : { onStderr: this.#options.onStderr }),
      ...(this.#options.serverRequests === undefined
        ? {}
        : { serverRequests: this.#options.serverRequests }),
      signal: this.#abort.signal,
      onClose: () => {
        slot.closed = true;
        if (slot.live === undefined) return;
        const tail = lastLine(slot.live.stderr.text);
        if (this.#options.target.kind === 'stdio') {
          slot.live.lostReason = `the server process exited${tail === '' ? '' : `; its stderr ended with: ${tail}`}`;
        } else slot.live.lostReason ??= 'the connection closed';
        this.#lost(slot.live, new Error(slot.live.lostReason));
      },
      http: {
        onUnreachable: (error) => {
          const live = slot.live;
          if (live === undefined) return;
          const detail = error.cause instanceof Error ? error.cause.message : error.message;
          this.#lost(
            live,
            new Error(`the server could not be reached (${detail})`, { cause: error }),
          );
        },
        onStreamBroken: (error) => {
          if (slot.live !== undefined) this.#probe(slot.live, error);
        },
        onRateLimited: (retryAfterMs) => this.#rateWindow.note(retryAfterMs, 'http'),
      },
      onTransportError: (error) => {
        const live = slot.live;
        if (live === undefined || live !== this.#live || !live.alive) return;
        const report = new Error(
          `The connection to MCP server "${this.origin}" reported: ${error.message}`,
          { cause: error },
        );
        const held = this.#probing.get(live);
        if (held === undefined) this.#events.emit('error', report);
        else held.push(report);
      },
      onToolsChanged: (tools) => {
        if (slot.live !== undefined && slot.live === this.#live) this.#refresh(tools, slot.live);
      },
      onNotification: (notification) => {
        if (slot.live !== undefined && slot.live !== this.#live) return;
        this.#events.emit('notification', notification);
      },
      onProtocolError: (error) => {
        if (slot.live === undefined || slot.live !== this.#live) return;
        const problem =
          error.name === 'ZodError' || error instanceof NotJsonRpcMessageError
            ? 'it is not a JSON-RPC message'
            : error.message;
        this.#events.emit(
          'error',
          new Error(
            `MCP server "${this.origin}" sent a message that could not be used, which was ignored: ${problem}`,
            { cause: error },
          ),
        );
      },
      onToolsError: (error) => {
        if (slot.live === undefined || slot.live !== this.#live) return;
        this.#events.emit(
          'error',
          new Error(
            `MCP server "${this.origin}" announced a new tool list, but reading it failed: ${error.message}. The previous tools stay registered.`,
            { cause: error },
          ),
        );
      },
    });
    const live: LiveClient = {
      client: opened.client,
      progress: opened.progress,
      ...(opened.raw === undefined ? {} : { raw: opened.raw }),
      listings: opened.listings,
      stderr,
      connectedAt: this.#clock.now(),
      alive: true,
    };
    slot.live = live;
    return { live, tools: opened.tools, closed: () => slot.closed };
  }

  #adopt(opened: { live: LiveClient; tools: McpTool[]; closed: () => boolean }): void {
    const { live } = opened;
    if (opened.closed()) {
      throw new Error(live.lostReason ?? 'the connection closed right after it was made');
    }
    if (this.#status !== 'connecting') this.#refresh(opened.tools, live);
    else {
      try {
        this.#origin.apply(opened.tools, live.listings?.problems);
      } catch (error) {
        live.alive = false;
        void live.client.close().catch(noop);
        throw error;
      }
    }
    this.#live = live;
    this.#serverInfo = live.client.getServerVersion();
    this.#era = live.client.getProtocolEra();
    const { reconnect } = this.#options;
    watchNotificationStream(live, live.client.autoOpenedSubscription, {
      clock: this.#clock,
      delayMs: reconnect === false ? 250 : reconnect.initialDelayMs,
      timeoutMs: this.#options.connectTimeoutMs,
      onTools: (tools) => {
        if (live === this.#live) this.#refresh(tools, live);
      },
      onLost: (error) => this.#lost(live, error),
    });
    this.#attempts = 0;
    this.#lastError = undefined;
    this.#nextAttemptAt = undefined;
    if (this.#status !== 'ready') this.#setStatus('ready');
  }

  /** Applies a list read after a change; a list the registry refuses leaves the old one. */
  #refresh(listed: McpTool[], live: LiveClient): void {
    try {
      if (!this.#origin.apply(listed, live.listings?.problems)) return;
    } catch (error) {
      this.#events.emit(
        'error',
        new Error(
          `The new tool list of MCP server "${this.origin}" was not applied: ${asError(error).message} The previous tools stay registered.`,
          { cause: error },
        ),
      );
      return;
    }
    this.#events.emit('change', { tools: this.#origin.listed, problems: this.#origin.problems });
  }

  /** One call, once the server's rate-limit window (if any) is over; see {@link UpstreamRateWindow}. */
  #call(request: RemoteCallRequest): Promise<CallToolResult> {
    return this.#rateWindow.call(request, () => this.#send(request));
  }

  #send(request: RemoteCallRequest): Promise<CallToolResult> {
    const live = this.#live;
    if (live === undefined || !live.alive) {
      const message = downMessage({
        origin: this.origin,
        tool: request.name,
        closed: this.#status === 'closed',
        lastError: this.#lastError,
        nextAttemptInMs:
          this.#nextAttemptAt === undefined ? undefined : this.#nextAttemptAt - this.#clock.now(),
      });
      return Promise.reject(new UpstreamUnavailableError(this.origin, message));
    }
    const hooks = this.#hooks;
    const trace = this.#options.telemetry?.upstream(request.name, this.origin);
    if (trace === undefined) return callLive(live, request, hooks);
    return callLive(live, { ...request, meta: trace.meta }, hooks).then(
      (result) => {
        trace.end(result.isError === true ? 'the tool reported an error' : undefined);
        return result;
      },
      (error: unknown) => {
        trace.end(asError(error).message);
        throw error;
      },
    );
  }

  /**
   * A response stream of `live` broke off: asks the server whether it is still there. Its
   * answer, even an error, means only that stream was lost (the SDK resumes it when it
   * can); no answer or an unreachable server means the connection is lost.
   */
  #probe(live: LiveClient, broken: Error): void {
    if (live !== this.#live || !live.alive || this.#probing.has(live)) return;
    const held: Error[] = [];
    this.#probing.set(live, held);
    live.client.ping({ timeout: this.#options.connectTimeoutMs }).then(
      () => {
        this.#probing.delete(live);
        for (const report of held) this.#events.emit('error', report);
      },
      (error: unknown) => {
        this.#probing.delete(live);
        const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
        if (!live.alive) return;
        if (!timedOut && !isConnectionFailure(error)) {
          for (const report of held) this.#events.emit('error', report);
          return;
        }
        this.#lost(
          live,
          new Error(
            `a response stream broke off (${broken.message}) and the server did not answer (${asError(error).message})`,
            { cause: error },
          ),
        );
      },
    );
  }

  #lost(live: LiveClient, error: Error): void {
    if (!live.alive) return;
    live.alive = false;
    live.lostReason ??= error.message;
    void live.client.close().catch(noop);
    if (this.#live !== live) return;
    this.#live = undefined;
    if (this.#status === 'closed') return;
    const reconnect = this.#options.reconnect;
    const stable =
      reconnect !== false && this.#clock.now() - live.connectedAt >= reconnect.maxDelayMs;
    this.#failures = stable ? 0 : this.#failures + 1;
    this.#lastError = error;
    this.#scheduleReconnect(error);
  }

  #scheduleReconnect(error: Error): void {
    const reconnect = this.#options.reconnect;
    if (reconnect === false || this.#attempts >= reconnect.maxAttempts) {
      this.#closing ??= this.#shutdown(error);
      return;
    }
    const delay = reconnectDelay(this.#failures + 1, reconnect, this.#random);
    this.#nextAttemptAt = this.#clock.now() + delay;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#nextAttemptAt = undefined;
      this.#pending = this.#attempt();
    }, delay);
    this.#setStatus('reconnecting', { error, retryInMs: delay, attempt: this.#attempts + 1 });
  }

  async #attempt(): Promise<void> {
    this.#attempts += 1;
    try {
      const opened = await this.#open();
      if (this.#status === 'closed') {
        await opened.live.client.close().catch(noop);
        return;
      }
      this.#adopt(opened);
    } catch (error) {
      if (this.#status === 'closed') return;
      this.#failures += 1;
      const tail = lastLine(this.#lastStderr?.text ?? '');
      this.#lastError = new Error(
        `${asError(error).message}${tail === '' ? '' : `; its stderr ended with: ${tail}`}`,
        { cause: error },
      );
      this.#scheduleReconnect(this.#lastError);
    }
  }

  async #shutdown(error: Error | undefined): Promise<void> {
    if (this.#status === 'closed') return;
    const previous = this.#status;
    this.#status = 'closed';
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#abort.abort();
    const live = this.#live;
    this.#live = undefined;
    if (live !== undefined) live.alive = false;
    this.#origin.remove();
    this.#events.emit('status', {
      status: 'closed',
      previous,
      ...(error === undefined ? {} : { error }),
    });
    await live?.client.close().catch(noop);
    await this.#pending;
  }
}
