import type { Tool as McpTool, Transport } from '@modelcontextprotocol/client';
import { isPlainObject } from '../../tool/index.js';

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
 * Watches the messages `transport` receives for `tools/list` answers and keeps each listed
 * tool's `annotations.custom`, before the SDK's client parses the answer (and drops it).
 * Call after the client connected (the client sets the transport's handler then); every
 * message still reaches the client, unchanged. A page that lists a tool without `custom`
 * forgets what an earlier one said of it.
 *
 * Identity of a tool is its name on this connection: a `custom` is only ever put back on a
 * tool of the same name the SDK listed from the same server, so a server can only speak
 * of its own tools.
 */
export function watchRawToolListings(transport: Transport): RawToolListings {
  const customs = new Map<string, Readonly<Record<string, unknown>>>();
  const sdkMessage = transport.onmessage;
  if (sdkMessage !== undefined) {
    transport.onmessage = (message, extra) => {
      const result = 'result' in message ? message.result : undefined;
      const tools = isPlainObject(result) ? result.tools : undefined;
      if (Array.isArray(tools)) {
        for (const tool of tools) {
          if (!isPlainObject(tool) || typeof tool.name !== 'string') continue;
          const annotations = tool.annotations;
          const custom = isPlainObject(annotations) ? annotations.custom : undefined;
          if (isPlainObject(custom)) customs.set(tool.name, cappedCustom(custom));
          else customs.delete(tool.name);
        }
      }
      sdkMessage.call(transport, message, extra);
    };
  }
  return {
    restore(listed) {
      return listed.map((tool) => {
        const custom = customs.get(tool.name);
        if (custom === undefined) return tool;
        return { ...tool, annotations: { ...tool.annotations, custom } } as McpTool;
      });
    },
  };
}
