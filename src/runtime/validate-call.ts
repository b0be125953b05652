import { HintgateError } from '../errors/index.js';
import { isPlainObject, isTimerMs, MAX_TIMER_MS } from '../tool/index.js';
import type { ToolCall } from './tool-call.js';

/**
 * Checks the shape of one call handed to `execute`, `turn().call` or `decide`: these are
 * the caller's mistakes, not the model's, so they throw. `where` names the call in the
 * message, e.g. `calls[2]`.
 *
 * @throws HintgateError `invalid_calls` naming the call and what to fix.
 */
export function validateCall(call: unknown, where: string): asserts call is ToolCall {
  if (!isPlainObject(call)) {
    throw new HintgateError('invalid_calls', `${where} must be an object { id, name, arguments }.`);
  }
  if (typeof call.id !== 'string' || call.id === '') {
    throw new HintgateError(
      'invalid_calls',
      `${where}.id must be a non-empty string (the model's tool call id).`,
    );
  }
  if (typeof call.name !== 'string') {
    throw new HintgateError('invalid_calls', `${where}.name must be the tool name as a string.`);
  }
  const timeout = call.timeoutMs;
  if (timeout !== undefined && !isTimerMs(timeout)) {
    throw new HintgateError(
      'invalid_calls',
      `${where}.timeoutMs must be milliseconds in (0, ${MAX_TIMER_MS}].`,
    );
  }
  if (call.onProgress !== undefined && typeof call.onProgress !== 'function') {
    throw new HintgateError(
      'invalid_calls',
      `${where}.onProgress must be a function (progress) => void.`,
    );
  }
}
