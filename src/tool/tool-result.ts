/** A text content block, as in MCP. */
export interface TextContent {
  readonly type: 'text';
  readonly text: string;
  readonly annotations?: Record<string, unknown>;
  readonly _meta?: Record<string, unknown>;
}

/** Any other MCP content block (image, audio, resource link, embedded resource). */
export interface OtherContent {
  readonly type: 'image' | 'audio' | 'resource_link' | 'resource';
  readonly [field: string]: unknown;
}

/** A content block of a tool result. */
export type ContentBlock = TextContent | OtherContent;

/** The result of an MCP `tools/call`, which a tool may return as is. */
export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

/** How a call ended. */
export type CallStatus = 'ok' | 'error' | 'denied' | 'timeout' | 'cancelled';

/** Why a call failed: a typed code the model or the client can act on. */
export type CallErrorCode =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'denied'
  | 'rate_limited'
  | 'timeout'
  | 'cancelled'
  | 'tool_error'
  | 'upstream_unavailable'
  | 'shared_state_unavailable';

/** One result per call, in call order. */
export interface CallResult {
  /** The call's id, as given. */
  readonly id: string;
  /** The tool name, as called. */
  readonly name: string;
  readonly status: CallStatus;
  /** True for every status but `ok`. */
  readonly isError: boolean;
  /** What the model reads. On failure, one text block that explains it. */
  readonly content: readonly ContentBlock[];
  /** Structured output (parsed through the tool's `outputSchema` when it has one). */
  readonly structuredContent?: Record<string, unknown>;
  /** Present when the call failed. */
  readonly error?: { readonly code: CallErrorCode; readonly message: string };
  /** Times the tool was invoked (0 when it never ran). */
  readonly attempts: number;
  /** Milliseconds spent waiting for conflicting calls, concurrency slots and rate limits. */
  readonly queuedMs: number;
  /** Milliseconds from the first invocation to the end, retries and backoff included. */
  readonly runMs: number;
  /** True when output was cut to `maxOutputChars`. */
  readonly truncated?: true;
  /** Metadata from the tool's `CallToolResult._meta`, passed through. */
  readonly _meta?: Record<string, unknown>;
}

/** True when `value` has the shape of an MCP `CallToolResult`. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every(
      (block) =>
        typeof block === 'object' &&
        block !== null &&
        typeof (block as { type?: unknown }).type === 'string',
    )
  );
}
