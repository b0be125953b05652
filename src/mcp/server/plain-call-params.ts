import { isPlainObject } from '../../tool/index.js';
import type { ToolCallParams } from './tool-call-handler.js';

/** A JSON-RPC request id: a string or a safe integer. */
export const isRequestId = (value: unknown): value is string | number =>
  typeof value === 'string' || Number.isSafeInteger(value);

/**
 * `tools/call` params of the plain shape, which the SDK's schema passes on unchanged: a
 * string `name` and plain-object `arguments` (whose keys a copy keeps: no `__proto__`),
 * nothing else; so no `_meta`, hence no progress token.
 */
export const plainCallParams = (params: unknown): ToolCallParams | undefined => {
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  const args = params.arguments;
  let keys = 1;
  if (args !== undefined || Object.hasOwn(params, 'arguments')) {
    if (!isPlainObject(args) || Object.hasOwn(args, '__proto__')) return undefined;
    keys += 1;
  }
  if (Object.keys(params).length !== keys || !Object.hasOwn(params, 'name')) return undefined;
  return args === undefined ? { name: params.name } : { name: params.name, arguments: args };
};
