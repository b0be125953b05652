import { HintgateError } from '../errors/index.js';
import { type BatchIds, batchIdSet } from './batch-ids.js';
import type { ToolCall } from './tool-call.js';
import { validateCall } from './validate-call.js';

/**
 * Checks the shape of a batch handed to `execute` or `plan`: these are the caller's
 * mistakes, not the model's, so they throw.
 *
 * @throws HintgateError `invalid_calls` naming the offending call and what to fix.
 */
export function validateBatch(calls: unknown): asserts calls is readonly ToolCall[] {
  validateBatchArray(calls);
  const seen = batchIds(calls);
  try {
    for (let index = 0; index < calls.length; index += 1) validateBatchCall(calls, index, seen);
  } finally {
    seen?.release();
  }
}

/** Checks that a batch is an array; its calls are checked by {@link validateBatchCall}. */
export function validateBatchArray(calls: unknown): asserts calls is readonly unknown[] {
  if (!Array.isArray(calls)) {
    throw new HintgateError(
      'invalid_calls',
      `execute(calls) expects an array of { id, name, arguments }, got ${calls === null ? 'null' : typeof calls}.`,
    );
  }
}

/**
 * The ids seen so far in a batch, for {@link validateBatchCall}; to be released once the
 * batch's calls are checked. One call (the common case) has no id to share: nothing kept
 * for it.
 */
export const batchIds = (calls: readonly unknown[]): BatchIds | undefined =>
  calls.length > 1 ? batchIdSet(calls.length, (index) => (calls[index] as ToolCall).id) : undefined;

/**
 * Checks call `index` of a batch, and that no earlier call has its id (`seen`, from
 * {@link batchIds}).
 */
export function validateBatchCall(
  calls: readonly unknown[],
  index: number,
  seen: BatchIds | undefined,
): void {
  const call: unknown = calls[index];
  validateCall(call, index);
  if (seen === undefined) return;
  const earlier = seen.add(call.id, index);
  if (earlier < 0) return;
  throw new HintgateError(
    'invalid_calls',
    `calls[${earlier}] and calls[${index}] share the id "${call.id}"; ids must be unique within a batch.`,
  );
}
