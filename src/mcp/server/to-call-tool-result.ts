import type { CallToolResult as McpCallToolResult } from '@modelcontextprotocol/server';
import type { CallResult } from '../../tool/index.js';
import { META_PREFIX } from '../tool-meta.js';

/** `_meta` keys of a `tools/call` result. */
export const RESULT_META = {
  /** `ok`, `error`, `denied`, `timeout` or `cancelled`. */
  status: `${META_PREFIX}status`,
  /** The error code, when the call failed (`denied`, `tool_error`, `unknown_tool`, ...). */
  code: `${META_PREFIX}code`,
  /** Times the tool was invoked (0 when it never ran). */
  attempts: `${META_PREFIX}attempts`,
  /** Milliseconds the call waited for conflicting calls, slots and quota. */
  queuedMs: `${META_PREFIX}queuedMs`,
  /** Milliseconds from the first invocation to the end. */
  runMs: `${META_PREFIX}runMs`,
  /** True when output was cut to the size limit. */
  truncated: `${META_PREFIX}truncated`,
} as const;

/** `_meta` keys the protocol reserves for the sender of a message, such as its serverInfo. */
const PROTOCOL_META_PREFIX = 'io.modelcontextprotocol/';

/**
 * A tool's `_meta` without the keys the protocol reserves: those of a result relayed from
 * an upstream server describe that server's message, not ours.
 */
function withoutProtocolKeys(
  meta: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (meta === undefined) return kept;
  for (const key of Object.keys(meta)) {
    if (key.startsWith(PROTOCOL_META_PREFIX)) continue;
    // Defined, not assigned: a `__proto__` key stays a key and never becomes the prototype.
    if (key === '__proto__') {
      Object.defineProperty(kept, key, {
        value: meta[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else kept[key] = meta[key];
  }
  return kept;
}

/**
 * Maps a runtime result to an MCP `CallToolResult`: content and structured content as the
 * tool produced them, `isError` for every status but `ok`, and how the call ended under
 * `_meta` `dev.hintgate/` (the tool's own `_meta` is kept, except the protocol's reserved
 * `io.modelcontextprotocol/` keys).
 */
export function toCallToolResult(result: CallResult): McpCallToolResult {
  // Built in place, in the order a spread would give (a key the tool's `_meta` already has
  // keeps its place and takes the new value): no copies of the object per field.
  const meta = withoutProtocolKeys(result._meta);
  meta[RESULT_META.status] = result.status;
  if (result.error !== undefined) meta[RESULT_META.code] = result.error.code;
  meta[RESULT_META.attempts] = result.attempts;
  meta[RESULT_META.queuedMs] = Math.round(result.queuedMs);
  meta[RESULT_META.runMs] = Math.round(result.runMs);
  if (result.truncated === true) meta[RESULT_META.truncated] = true;
  // Blocks are MCP content blocks already (the tool returned them or the runtime made
  // text blocks); the SDK validates them on the way out.
  const content = result.content.map((block) => ({ ...block })) as McpCallToolResult['content'];
  // The common result, text and no more, in one literal.
  if (result.structuredContent === undefined && !result.isError) return { content, _meta: meta };
  return {
    content,
    ...(result.structuredContent === undefined
      ? {}
      : { structuredContent: result.structuredContent }),
    ...(result.isError ? { isError: true } : {}),
    _meta: meta,
  };
}
