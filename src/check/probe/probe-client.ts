import { pathToFileURL } from 'node:url';
import {
  type CallToolResult,
  Client,
  type Tool as McpTool,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { HintgateError } from '../../errors/index.js';
import type { McpEraOption } from '../../mcp/index.js';
import { MODERN_REVISION } from '../../mcp/index.js';

/** Where the probe reaches the server, already prepared for the sandbox. */
export type ProbeConnection =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      /** The whole environment of the process (the SDK adds LOGNAME, SHELL, TERM, USER). */
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string;
    }
  | {
      readonly kind: 'http';
      readonly url: URL;
      readonly headers: Readonly<Record<string, string>>;
    };

/** Outcome of one tool call: the result, or why there is none. */
export type CallOutcome =
  | { readonly ok: true; readonly result: CallToolResult }
  | { readonly ok: false; readonly error: string };

/** A connected client for the probe. */
export interface ProbeClient {
  /** The tool list read right after connecting. */
  readonly tools: readonly McpTool[];
  /** Reads the tool list again, bypassing the SDK's cache. */
  listTools(): Promise<McpTool[]>;
  /** Calls a tool; a tool error (`isError`), a protocol error or a timeout is `ok: false`. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallOutcome>;
  /** How many tool calls were made so far. */
  callCount(): number;
  /** How many `tools/list_changed` notifications the server sent so far. */
  listChangedCount(): number;
  /** The last few kilobytes of the server's stderr (stdio only). */
  stderrTail(): string;
  close(): Promise<void>;
}

/** Options of {@link openProbeClient}. */
export interface OpenProbeClientOptions {
  /** Names the server in messages: `MCP server "files"`. */
  readonly where: string;
  readonly connection: ProbeConnection;
  /** Offered to the server as its only MCP root. */
  readonly rootDir: string;
  readonly era: McpEraOption;
  readonly connectTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly onStderr?: ((text: string) => void) | undefined;
  /** Said after a timeout while connecting: what to raise. Default: `raise connectTimeoutMs`. */
  readonly timeoutAdvice?: string | undefined;
}

const STDERR_TAIL_CHARS = 4000;

const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** The text of a result (text blocks, and the text of embedded resources), for evidence. */
export function resultText(result: CallToolResult, max = 300): string {
  const texts = (result.content ?? [])
    .map((block) => {
      if (block.type === 'text') return block.text;
      if (block.type === 'resource' && 'text' in block.resource) return block.resource.text;
      return `[${block.type}]`;
    })
    .join(' ');
  return texts.length > max ? `${texts.slice(0, max)}...` : texts;
}

/**
 * Starts (stdio) or reaches (HTTP) the server and connects an MCP client that offers
 * `rootDir` as its only root and counts `tools/list_changed` notifications.
 */
export async function openProbeClient(options: OpenProbeClientOptions): Promise<ProbeClient> {
  let listChanged = 0;
  let calls = 0;
  let stderr = '';
  const client = new Client(
    { name: 'hintgate-probe', version: '1' },
    {
      capabilities: { roots: { listChanged: true } },
      versionNegotiation: {
        mode: options.era === 'modern' ? { pin: MODERN_REVISION } : options.era,
      },
      listChanged: {
        tools: {
          autoRefresh: false,
          debounceMs: 0,
          onChanged: () => {
            listChanged += 1;
          },
        },
      },
    },
  );
  const roots = [{ uri: pathToFileURL(options.rootDir).href, name: 'hintgate probe sandbox' }];
  client.setRequestHandler('roots/list', async () => ({ roots }));
  const { connection } = options;
  let transport: Transport;
  if (connection.kind === 'http') {
    transport = new StreamableHTTPClientTransport(connection.url, {
      requestInit: { headers: { ...connection.headers } },
    });
  } else {
    const stdio = new StdioClientTransport({
      command: connection.command,
      args: [...connection.args],
      env: { ...connection.env },
      cwd: connection.cwd,
      stderr: 'pipe',
    });
    stdio.stderr?.on('data', (chunk: Buffer | string) => {
      const text = String(chunk);
      stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
      try {
        options.onStderr?.(text);
      } catch {
        // A failing listener must not break the pipe that keeps the server running.
      }
    });
    transport = stdio;
  }
  const connectOptions = {
    timeout: options.connectTimeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  let tools: McpTool[];
  try {
    await client.connect(transport, connectOptions);
    ({ tools } = await client.listTools(undefined, { ...connectOptions, cacheMode: 'bypass' }));
  } catch (error) {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    // Let the last stderr chunks of an exited process arrive before they are reported.
    await new Promise((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
    const tail = stderr.trim();
    const timedOut = /timed? ?out/i.test(errorText(error));
    const advice = timedOut
      ? ` It did not answer within ${Math.round(options.connectTimeoutMs / 1000)} s: ${options.timeoutAdvice ?? 'raise connectTimeoutMs'}.`
      : ' Check the command and that the server runs with only the environment its configuration gives.';
    throw new HintgateError(
      'mcp_connect_failed',
      `${options.where} could not be started and connected for the probe: ${errorText(error)}.${
        tail === '' ? '' : ` Its stderr ended with: ${tail.slice(-1000)}`
      }${advice}`,
      { cause: error },
    );
  }
  const callOptions = () => ({
    timeout: options.callTimeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return {
    tools,
    async listTools() {
      const listed = await client.listTools(undefined, { ...callOptions(), cacheMode: 'bypass' });
      return listed.tools;
    },
    async callTool(name, args) {
      calls += 1;
      try {
        const result = (await client.callTool(
          { name, arguments: args },
          callOptions(),
        )) as CallToolResult;
        if (result.isError === true) {
          return { ok: false, error: `the tool reported an error: ${resultText(result)}` };
        }
        return { ok: true, result };
      } catch (error) {
        options.signal?.throwIfAborted();
        return { ok: false, error: `the call failed: ${errorText(error)}` };
      }
    },
    callCount: () => calls,
    listChangedCount: () => listChanged,
    stderrTail: () => stderr,
    async close() {
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  };
}
