import type { ApprovalAnswer, Decision } from '../policy/index.js';
import type { AbortScope, Admission, Lease } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import type { PreparedCall } from './prepare-call.js';
import type { ToolCall } from './tool-call.js';

/**
 * One call on its way through a turn's pipeline: what its stages (prepare, authorize,
 * admit, run, audit) learn of it, each field set by the stage that knows it. Fields a
 * later stage no longer needs are cleared, so that a call's state dies with the call.
 */
export interface PipelineEntry {
  /** The call as the caller gave it. */
  readonly call: ToolCall;
  /** Its place in its `execute` batch, where its result goes; -1 for a call of a turn. */
  readonly index: number;
  /** Cancels this call (the turn's signal, or the call's own). */
  readonly signal: AbortScope;
  /** The answer to its approval, given beforehand. */
  readonly approval: ApprovalAnswer | undefined;
  /** Audit writes to wait for before the call's result is given. */
  readonly pending: Promise<void>[];
  /** Set by prepare: the resolved, validated call. */
  prepared: PreparedCall | undefined;
  /** Set by authorize: the policy's decision, then the approver's. */
  decision: Decision | undefined;
  /** Set by run: the lease its run frees once its result is settled (see `runCall`). */
  lease: Lease | undefined;
  /** Set by admit, cleared by run: its place in the scheduler until its grant settles. */
  admission: Admission | undefined;
  /** The result of a call taken out of the queue before it ran (denied). */
  refusal: CallResult | undefined;
  /** While its approval is asked: what ends the wait, and what settles with the answers. */
  asking: { readonly scope: AbortScope; readonly answered: Promise<void> } | undefined;
  /** It ended before its answer came: the answer is not recorded for it. */
  ended: boolean;
}
