import type { AuditEmitter, AuditEvent, AuditEventType, CallerIdentity } from '../audit/index.js';
import type { Decision } from '../policy/index.js';
import type { CallResult } from '../tool/index.js';
import { AuditWriteError } from './audit-write-error.js';
import { callEvent, resultFields } from './call-event.js';
import type { PreparedCall } from './prepare-call.js';
import type { ToolCall } from './tool-call.js';

/** A call as its audit events describe it. */
export interface AuditedCall {
  readonly call: ToolCall;
  /** Audit writes to wait for before the call's result is given. */
  readonly pending: Promise<void>[];
  readonly prepared: PreparedCall | undefined;
  readonly decision: Decision | undefined;
}

/** Options of {@link BatchAudit}. */
export interface BatchAuditOptions {
  /** The turn's id, the `batchId` of its events: asked for only when an event is made. */
  readonly batchId: () => string;
  /** Where the events go. */
  readonly audit: AuditEmitter;
  /** Put redacted arguments into the events. */
  readonly includeArguments: boolean;
  /** Who makes the calls, carried by every event. */
  readonly caller: CallerIdentity | undefined;
  /** Hears each event as it is made, sinks or not (see `ExecuteOptions.onEvent`). */
  readonly onEvent?: ((event: AuditEvent) => void) | undefined;
}

/**
 * The audit stage of a turn's pipeline: writes the events of its calls, and gives a call's
 * result (`endEach`) or the batch's results (`endBatch`) once the events they wait for
 * are stored, or rejects with {@link AuditWriteError} carrying them.
 */
export class BatchAudit {
  readonly #options: BatchAuditOptions;

  constructor(options: BatchAuditOptions) {
    this.#options = options;
  }

  /** Whether events are made at all: to a sink, or to an `onEvent` listener. */
  get heard(): boolean {
    return this.#options.audit.enabled || this.#options.onEvent !== undefined;
  }

  /** Writes an event of `entry`, and hands it to the listener, unless no one hears it. */
  record(type: AuditEventType, entry: AuditedCall, extra: Partial<AuditEvent>): void {
    const { audit, includeArguments, batchId, caller, onEvent } = this.#options;
    if (!audit.enabled && onEvent === undefined) return;
    const event = callEvent(
      type,
      batchId(),
      entry.prepared ?? entry.call,
      caller === undefined ? extra : { caller, ...extra },
      includeArguments,
    );
    if (audit.enabled) audit.emit(event, entry.pending);
    if (onEvent === undefined) return;
    try {
      onEvent(event);
    } catch {
      // A listener's failure must not change the call (see `ExecuteOptions.onEvent`).
    }
  }

  /** Writes the end event of `entry`: `call.succeeded` or `call.failed`. */
  recordEnd(entry: AuditedCall, result: CallResult): void {
    const { decision } = entry;
    this.record(result.status === 'ok' ? 'call.succeeded' : 'call.failed', entry, {
      ...(decision === undefined ? {} : { decision: decision.decision, reason: decision.reason }),
      ...resultFields(result),
    });
  }

  /**
   * Writes the end events of every call, in call order, and waits for the batch's writes
   * `pending`. Rejects with `AuditWriteError`, carrying the results, when a sink failed.
   */
  endBatch(
    entries: readonly AuditedCall[],
    results: CallResult[],
    pending: Promise<void>[],
  ): CallResult[] | Promise<CallResult[]> {
    const { audit } = this.#options;
    if (!this.heard) return results;
    for (const [index, result] of results.entries()) {
      this.recordEnd(entries[index] as AuditedCall, result);
    }
    if (!audit.enabled) return results;
    return audit.settle(pending).then(
      () => results,
      (error: unknown) => {
        throw new AuditWriteError(error, results);
      },
    );
  }

  /** Writes a call's end event once it ended; its result once its events are stored. */
  endEach(entry: AuditedCall, outcome: CallResult | Promise<CallResult>): Promise<CallResult> {
    const { audit } = this.#options;
    const stored = (result: CallResult): CallResult | Promise<CallResult> => {
      if (!this.heard) return result;
      this.recordEnd(entry, result);
      if (!audit.enabled) return result;
      return audit.settle(entry.pending).then(
        () => result,
        (error: unknown) => {
          throw new AuditWriteError(error, [result]);
        },
      );
    };
    return outcome instanceof Promise ? outcome.then(stored) : Promise.resolve(stored(outcome));
  }
}
