import { HintgateError } from '../errors/hintgate-error.js';
import { isPlainObject } from '../tool/json-schema.js';
import { isTimerMs, MAX_TIMER_MS } from '../tool/max-timer-ms.js';
import type { ToolCall } from './tool-call.js';

/**
 * Checks the shape of a batch handed to `execute` or `plan`: these are the caller's
 * mistakes, not the model's, so they throw.
 *
 * @throws HintgateError `invalid_calls` naming the offending call and what to fix.
 */
export function validateBatch(calls: unknown): asserts calls is readonly ToolCall[] {
  if (!Array.isArray(calls)) {
    throw new HintgateError(
      'invalid_calls',
      `execute(calls) expects an array of { id, name, arguments }, got ${calls === null ? 'null' : typeof calls}.`,
    );
  }
  const seen = new Map<string, number>();
  calls.forEach((call: unknown, index) => {
    const where = `calls[${index}]`;
    if (!isPlainObject(call)) {
      throw new HintgateError(
        'invalid_calls',
        `${where} must be an object { id, name, arguments }.`,
      );
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
    const earlier = seen.get(call.id);
    if (earlier !== undefined) {
      throw new HintgateError(
        'invalid_calls',
        `calls[${earlier}] and ${where} share the id "${call.id}"; ids must be unique within a batch.`,
      );
    }
    seen.set(call.id, index);
  });
}
