import type { Admission, AdmitRequest, GrantListener } from '../schedule/index.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { PreparedCall } from './prepare-call.js';
import type { OriginLimits, TurnContext } from './turn-context.js';

/**
 * The admit stage of a turn: puts a prepared call into the runtime's scheduler with its
 * locks, its origin's concurrency cap and rate limit (`limitsOf`, the turn's lookup) and
 * its tool's rate limit,
 * on hold while its approval is to come. The call's admission is kept on the entry until
 * its grant settles. With `listener`, it is told of the grant with the entry (unless the
 * call was granted as it was admitted).
 */
export function admitCall(
  context: TurnContext,
  limitsOf: (origin: string) => OriginLimits,
  entry: PipelineEntry,
  hold: boolean,
  listener?: GrantListener<PipelineEntry>,
): Admission {
  const call = entry.prepared as PreparedCall;
  const limits = limitsOf(call.origin);
  // Filled in place rather than spread: no throwaway objects per call.
  const request: {
    -readonly [K in keyof AdmitRequest<PipelineEntry>]: AdmitRequest<PipelineEntry>[K];
  } = {
    id: call.id,
    locks: context.locksOf(call),
    origin: call.origin,
    concurrency: limits.concurrency,
    signal: entry.signal,
    hold,
  };
  if (listener !== undefined) {
    request.listener = listener;
    request.waiter = entry;
  }
  const toolLimit = call.tool.rateLimit;
  if (toolLimit !== undefined) {
    request.rateLimit = { key: `${call.origin}\u0000${call.name}`, limit: toolLimit };
  }
  if (limits.rateLimit !== undefined) {
    request.originRateLimit = { key: call.origin, limit: limits.rateLimit };
  }
  const admission = context.scheduler.admit(request);
  entry.admission = admission;
  return admission;
}
