import { CallToolRequestSchema, CallToolResultSchema } from '@modelcontextprotocol/core';
import { type JSONRPCMessage, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../tool/index.js';
import { plainCallToolResult } from './plain-call-tool-result.js';

/** A JSON-RPC request id: a string or a safe integer. */
export const isRequestId = (value: unknown): value is string | number =>
  typeof value === 'string' || Number.isSafeInteger(value);

/** JSON-RPC "invalid request": the SDK's code for a request it cannot take. */
export const INVALID_REQUEST = -32_600;
/** JSON-RPC "invalid params": the SDK's code for params or a result its schema refuses. */
export const INVALID_PARAMS = -32_602;

/** The `_meta` key whose value the SDK's 2025-11-25 schema checks besides the progress token. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** `tools/call` params as a transport layer runs them, checked as the SDK's schema checks them. */
export interface WireCallParams {
  readonly name: string;
  readonly arguments: Record<string, unknown> | undefined;
  readonly meta: Record<string, unknown> | undefined;
  readonly progressToken: string | number | undefined;
}

/** Params as the layer runs them, or the SDK schema's words for why they cannot run. */
export type WireCallCheck =
  | ({ readonly ok: true } & WireCallParams)
  | { readonly ok: false; readonly message: string };

const bad = (message: string): WireCallCheck => ({ ok: false, message });

/** The common shapes, quickly; anything this refuses is judged again by the SDK's schema. */
const quickCheck = (params: unknown): WireCallCheck => {
  if (!isPlainObject(params)) return bad('params must be an object');
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string') return bad('params.name must be a string');
  if (args !== undefined && (!isPlainObject(args) || Object.hasOwn(args, '__proto__'))) {
    return bad('params.arguments must be an object');
  }
  if (meta !== undefined && !isPlainObject(meta)) return bad('params._meta must be an object');
  const token = meta?.progressToken;
  if (token !== undefined && !isRequestId(token)) {
    return bad('params._meta.progressToken must be a string or an integer');
  }
  if (meta !== undefined && RELATED_TASK in meta) {
    const task = meta[RELATED_TASK];
    if (!isPlainObject(task) || typeof task.taskId !== 'string') {
      return bad(`params._meta["${RELATED_TASK}"] must be an object with a string taskId`);
    }
  }
  return { ok: true, name, arguments: args, meta, progressToken: token };
};

/**
 * `tools/call` params as the SDK's 2025-11-25 schema checks them: a string `name`, plain
 * object `arguments` (no `__proto__` key, which a copy would lose) and `_meta` whose
 * progress token is a string or an integer. The common shapes are checked quickly, any
 * other by that schema, whose words a refusal carries. Other keys (`task`, ...) are kept
 * out of the call, as the SDK's handler keeps them.
 */
export function wireCallParams(params: unknown): WireCallCheck {
  const quick = quickCheck(params);
  if (quick.ok) return quick;
  const checked = CallToolRequestSchema.safeParse({ method: 'tools/call', params });
  if (!checked.success) return bad(checked.error.message);
  return quickCheck(checked.data.params);
}

/** Whether params carry a 2026-07-28 per-request envelope: such a request is the SDK's to run. */
export const hasModernEnvelope = (params: unknown): boolean => {
  const meta = isPlainObject(params) ? params._meta : undefined;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
};

/** The refusal of a `tools/call` whose params the SDK's schema refuses. */
export const invalidCallParams = (id: string | number, message: string): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    id,
    error: { code: INVALID_PARAMS, message: `Invalid tools/call request: ${message}` },
  }) as JSONRPCMessage;

/** The refusal of a request whose id is that of a call still under way. */
export const duplicateCallId = (id: string | number): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    id,
    error: {
      code: INVALID_REQUEST,
      message: `Invalid Request: id ${JSON.stringify(id)} is already used by a call under way`,
    },
  }) as JSONRPCMessage;

/**
 * The response to a call's result, as the SDK's `CallToolResult` schema passes it on: a
 * plain result as it is, any other checked by the schema; one it refuses gets -32602.
 */
export function callResultResponse(id: string | number, result: unknown): JSONRPCMessage {
  const plain = plainCallToolResult(result);
  if (plain !== undefined) return { result: plain, jsonrpc: '2.0', id } as JSONRPCMessage;
  const checked = CallToolResultSchema.safeParse(result);
  if (checked.success) return { result: checked.data, jsonrpc: '2.0', id } as JSONRPCMessage;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: INVALID_PARAMS, message: `Invalid tools/call result: ${checked.error.message}` },
  } as JSONRPCMessage;
}
