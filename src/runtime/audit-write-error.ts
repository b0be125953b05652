import { HintgateError } from '../errors/index.js';
import type { CallResult } from '../tool/index.js';

/**
 * `execute` rejects with this when an audit sink failed to record the batch's events. The
 * calls did run: their results are here, so nothing is lost.
 */
export class AuditWriteError extends HintgateError {
  /** The batch's results, in call order. */
  readonly results: readonly CallResult[];

  constructor(cause: unknown, results: readonly CallResult[]) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'audit_write_failed',
      `${reason} The calls ran; their results are on this error's "results".`,
      { cause },
    );
    this.name = 'AuditWriteError';
    this.results = results;
  }
}
