import type { Admission } from '../schedule/index.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { PreparedCall } from './prepare-call.js';
import type { TurnContext } from './turn-context.js';

/**
 * The admit stage of a turn: puts a prepared call into the runtime's scheduler with its
 * locks, its origin's concurrency cap (`capOf`, the turn's lookup) and its rate limits,
 * on hold while its approval is to come. The call's admission is kept on the entry until
 * its grant settles.
 */
export function admitCall(
  context: TurnContext,
  capOf: (origin: string) => number,
  entry: PipelineEntry,
  hold: boolean,
): Admission {
  const call = entry.prepared as PreparedCall;
  const originLimit = context.registry.origin(call.origin)?.rateLimit;
  const admission = context.scheduler.admit({
    id: call.id,
    locks: context.locksOf(call),
    origin: call.origin,
    concurrency: capOf(call.origin),
    ...(call.tool.rateLimit === undefined
      ? {}
      : { rateLimit: { key: `${call.origin}\u0000${call.name}`, limit: call.tool.rateLimit } }),
    ...(originLimit === undefined
      ? {}
      : { originRateLimit: { key: call.origin, limit: originLimit } }),
    signal: entry.signal,
    hold,
  });
  entry.admission = admission;
  return admission;
}
