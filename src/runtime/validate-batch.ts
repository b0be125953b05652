import { HintgateError } from '../errors/index.js';
import type { ToolCall } from './tool-call.js';
import { validateCall } from './validate-call.js';

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
  // One call (the common case) has no id to share: no set for it. The set holds ids only;
  // a repeated id's first index is looked up when it is found, not kept for every call.
  const seen = calls.length > 1 ? new Set<string>() : undefined;
  for (let index = 0; index < calls.length; index += 1) {
    const call: unknown = calls[index];
    validateCall(call, index);
    if (seen === undefined) continue;
    if (seen.has(call.id)) {
      const earlier = calls.findIndex((other: ToolCall) => other.id === call.id);
      throw new HintgateError(
        'invalid_calls',
        `calls[${earlier}] and calls[${index}] share the id "${call.id}"; ids must be unique within a batch.`,
      );
    }
    seen.add(call.id);
  }
}
