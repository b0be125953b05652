import type {
  JSONRPCMessage,
  Tool as McpTool,
  MessageExtraInfo,
} from '@modelcontextprotocol/client';
import { isPlainObject } from '../../tool/index.js';
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
 * A transport layer that reads the `tools/list` answers the server sends and keeps each
 * listed tool's `annotations.custom`, before the SDK's client parses the answer (and drops
 * it); every message still reaches the client, unchanged. A page that lists a tool without
 * `custom` forgets what an earlier one said of it.
 *
 * Identity of a tool is its name on this connection: a `custom` is only ever put back on a
 * tool of the same name the SDK listed from the same server, so a server can only speak
 * of its own tools.
 */
export class RawToolListingsTransport extends TransportLayer implements RawToolListings {
  readonly #customs = new Map<string, Readonly<Record<string, unknown>>>();

  restore(listed: readonly McpTool[]): McpTool[] {
    return listed.map((tool) => {
      const custom = this.#customs.get(tool.name);
      if (custom === undefined) return tool;
      return { ...tool, annotations: { ...tool.annotations, custom } } as McpTool;
    });
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const result = 'result' in message ? message.result : undefined;
    const tools = isPlainObject(result) ? result.tools : undefined;
    if (Array.isArray(tools)) {
      for (const tool of tools) {
        if (!isPlainObject(tool) || typeof tool.name !== 'string') continue;
        const annotations = tool.annotations;
        const custom = isPlainObject(annotations) ? annotations.custom : undefined;
        if (isPlainObject(custom)) this.#customs.set(tool.name, cappedCustom(custom));
        else this.#customs.delete(tool.name);
      }
    }
    super.receive(message, extra);
  }
}
