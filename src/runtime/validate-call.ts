import { HintgateError } from '../errors/index.js';
import { isPlainObject, isTimerMs, MAX_TIMER_MS } from '../tool/index.js';
import type { ToolCall } from './tool-call.js';

/** How a message names the call given as `at` to {@link validateCall}. */
const label = (at: string | number): string => (typeof at === 'number' ? `calls[${at}]` : at);

/**
 * Checks the shape of one call handed to `execute`, `turn().call` or `decide`: these are
 * the caller's mistakes, not the model's, so they throw. `at` names the call in the
 * message: a label such as `decide(call)`, or the call's index in a batch (`calls[2]`),
 * made into a label only when there is something to say.
 *
 * @throws HintgateError `invalid_calls` naming the call and what to fix.
 */
export function validateCall(call: unknown, at: string | number): asserts call is ToolCall {
  if (!isPlainObject(call)) {
    throw new HintgateError(
      'invalid_calls',
      `${label(at)} must be an object { id, name, arguments }.`,
    );
  }
  if (typeof call.id !== 'string' || call.id === '') {
    throw new HintgateError(
      'invalid_calls',
      `${label(at)}.id must be a non-empty string (the model's tool call id).`,
    );
  }
  if (typeof call.name !== 'string') {
    throw new HintgateError(
      'invalid_calls',
      `${label(at)}.name must be the tool name as a string.`,
    );
  }
  const timeout = call.timeoutMs;
  if (timeout !== undefined && !isTimerMs(timeout)) {
    throw new HintgateError(
      'invalid_calls',
      `${label(at)}.timeoutMs must be milliseconds in (0, ${MAX_TIMER_MS}].`,
    );
  }
  if (call.onProgress !== undefined && typeof call.onProgress !== 'function') {
    throw new HintgateError(
      'invalid_calls',
      `${label(at)}.onProgress must be a function (progress) => void.`,
    );
  }
}
