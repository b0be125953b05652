import type {
  JSONRPCMessage,
  Tool as McpTool,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
import { isPlainObject } from '../../tool/index.js';
import { readableTool } from './readable-tool.js';
import type { McpToolProblem } from './remote-tool.js';
import { TransportLayer } from './transport-layer.js';

/** Largest `annotations.custom` carried whole, as JSON characters; a larger one keeps only its `rateLimit`. */
export const MAX_CUSTOM_CHARS = 8192;

/**
 * What a server's `tools/list` answers said in `annotations.custom`, which the SDK's
 * schema strips (it knows only the spec's hints): kept by tool name from the raw
 * messages, and put back on the tools the SDK hands over.
 */
export interface RawToolListings {
  /**
   * The tools with the `annotations.custom` their server listed put back, as listed; a tool
   * the server listed without one is returned as it is.
   */
  restore(tools: readonly McpTool[]): McpTool[];
  /**
   * Tools of the latest list the MCP client could not read as listed: left out, or kept
   * without the fields it could not read (see `readableTool`), each with what was wrong.
   */
  readonly problems: readonly McpToolProblem[];
}

/** A listed `custom`, capped: a huge one is hostile, but its declared limit still applies. */
const cappedCustom = (custom: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  let size: number;
  try {
    size = JSON.stringify(custom).length;
  } catch {
    size = Number.POSITIVE_INFINITY;
  }
  if (size <= MAX_CUSTOM_CHARS) return custom;
  return isPlainObject(custom.rateLimit) ? { rateLimit: custom.rateLimit } : {};
};

/**
 * A transport layer that reads the `tools/list` answers the server sends before the SDK's
 * client parses them. It keeps each listed tool's `annotations.custom` (which the client's
 * schema drops); a page that lists a tool without `custom` forgets what an earlier one said
 * of it. And it hands the client each page with every tool the client's schema would
 * refuse (which fails the whole page, and with it the connection) left out or repaired:
 * one bad tool costs its server that tool, never the others. Every other message reaches
 * the client unchanged.
 *
 * Identity of a tool is its name on this connection: a `custom` is only ever put back on a
 * tool of the same name the SDK listed from the same server, so a server can only speak
 * of its own tools.
 */
export class RawToolListingsTransport extends TransportLayer implements RawToolListings {
  readonly #customs = new Map<string, Readonly<Record<string, unknown>>>();
  readonly #origin: string;
  /** Problems of the list being read, by position (a page's tools, pages in order). */
  #problems: McpToolProblem[] = [];

  /** @param origin - The server's name in problem messages. */
  constructor(inner: Transport, origin: string) {
    super(inner);
    this.#origin = origin;
  }

  get problems(): readonly McpToolProblem[] {
    return this.#problems;
  }

  restore(listed: readonly McpTool[]): McpTool[] {
    return listed.map((tool) => {
      const custom = this.#customs.get(tool.name);
      if (custom === undefined) return tool;
      return { ...tool, annotations: { ...tool.annotations, custom } } as McpTool;
    });
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // A list read from its start (no cursor) starts over; the pages after it add to it.
    if ('method' in message && message.method === 'tools/list' && 'id' in message) {
      if (!isPlainObject(message.params) || message.params.cursor === undefined)
        this.#problems = [];
    }
    return super.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const result = 'result' in message ? message.result : undefined;
    const tools = isPlainObject(result) ? result.tools : undefined;
    if (!Array.isArray(tools)) {
      super.receive(message, extra);
      return;
    }
    let read: unknown[] | undefined;
    for (let index = 0; index < tools.length; index++) {
      const listed: unknown = tools[index];
      const { tool, faults } = readableTool(listed);
      if (faults.length > 0) {
        read ??= tools.slice(0, index);
        this.#problems.push(this.#problem(listed, index, tool !== undefined, faults));
      }
      if (tool === undefined) continue;
      read?.push(tool);
      const annotations: unknown = tool.annotations;
      const custom = isPlainObject(annotations) ? annotations.custom : undefined;
      if (isPlainObject(custom)) this.#customs.set(tool.name, cappedCustom(custom));
      else this.#customs.delete(tool.name);
    }
    if (read === undefined || !isPlainObject(result)) super.receive(message, extra);
    else super.receive({ ...message, result: { ...result, tools: read } } as JSONRPCMessage, extra);
  }

  #problem(
    listed: unknown,
    index: number,
    kept: boolean,
    faults: readonly string[],
  ): McpToolProblem {
    const name = isPlainObject(listed) ? listed.name : undefined;
    const label = typeof name === 'string' ? name.slice(0, 200) : `#${index}`;
    const tool =
      typeof name === 'string'
        ? `tool ${JSON.stringify(label)} of MCP server "${this.#origin}"`
        : `entry ${index} of a tools/list page of MCP server "${this.#origin}"`;
    const what = faults.slice(0, 5).join('; ').slice(0, 600);
    return {
      name: label,
      skipped: !kept,
      message: kept
        ? `${tool} is listed with fields the MCP client cannot read (${what}); it is served without them.`
        : `${tool} cannot be registered: the MCP client cannot read it (${what}).`,
    };
  }
}
