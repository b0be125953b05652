import { HintgateError } from '../errors/index.js';
import type { Decision } from '../policy/index.js';
import type { AbortScope, Grant } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import type { BatchAudit } from './batch-audit.js';
import { failedInside, failedResult } from './call-result.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { PreparedCall } from './prepare-call.js';
import { resolveRetry } from './retry-delay.js';
import { runCall } from './run-call.js';
import type { TurnContext } from './turn-context.js';

const closedReason = (signal: AbortScope): string | undefined =>
  signal.reason instanceof HintgateError && signal.reason.code === 'runtime_closed'
    ? signal.reason.message
    : undefined;

/**
 * The run stage of a turn: once the scheduler answered for an admitted call, runs it
 * (`call.started`, then the tool under its timeout, cancellation and retries), or gives
 * the result of a call that may not run (withdrawn, cancelled, rate limited). Never throws
 * and never rejects.
 */
export function runGranted(
  context: TurnContext,
  audit: BatchAudit,
  entry: PipelineEntry,
  grant: Grant,
): CallResult | Promise<CallResult> {
  const call = entry.prepared as PreparedCall;
  // Settled: the scheduler's ticket is not needed any more.
  entry.admission = undefined;
  if (!grant.ok) {
    if (grant.reason === 'withdrawn') return entry.refusal as CallResult;
    const closed = grant.reason === 'cancelled' ? closedReason(entry.signal) : undefined;
    const message = `Tool "${call.name}" did not run: ${grant.message}${closed === undefined ? '' : ` (${closed})`}`;
    const result = failedResult(call, grant.reason, message, { queuedMs: grant.queuedMs });
    // Its whole approval group was cancelled: the answers come at once, and are recorded
    // before the call's end. Cancelled alone, it ends now and its answer goes unrecorded.
    const { asking } = entry;
    if (asking?.scope.aborted === true) return asking.answered.then(() => result);
    entry.ended = true;
    return result;
  }
  const decision = entry.decision as Decision;
  audit.record('call.started', entry, {
    decision: decision.decision,
    reason: decision.reason,
    queuedMs: grant.queuedMs,
  });
  const { lease } = grant;
  entry.lease = lease;
  // A bug of ours must not leak the call's locks or reject the turn.
  const failed = (error: unknown): CallResult => {
    lease.settle(false);
    lease.release();
    return failedInside(call, error, { attempts: 1, queuedMs: grant.queuedMs });
  };
  let outcome: CallResult | Promise<CallResult>;
  try {
    outcome = runCall(call, lease, {
      clock: context.clock,
      random: context.random,
      signal: entry.signal,
      timeoutMs:
        call.call.timeoutMs ??
        call.registered.timeoutMs ??
        call.tool.timeoutMs ??
        context.defaultTimeoutMs,
      maxOutputChars: context.maxOutputChars,
      retry: resolveRetry(call.tool.retry, context.retry),
      releaseGraceMs: context.releaseGraceMs,
      queuedMs: grant.queuedMs,
      onAbandoned: () => {
        entry.lease = undefined;
      },
    });
  } catch (error) {
    return failed(error);
  }
  return outcome instanceof Promise ? outcome.catch(failed) : outcome;
}
