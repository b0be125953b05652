import { HintgateError } from '../errors/index.js';
import type { AbortWatch, Clock, Lease } from '../schedule/index.js';
import type { CallErrorCode, CallResult, ToolContext, ToolProgress } from '../tool/index.js';
import { normalizeOutput, outputFits, truncateOutput } from '../tool/index.js';
import { ABORTED, CallAbort } from './call-abort.js';
import { failedResult } from './call-result.js';
import type { PreparedCall } from './prepare-call.js';
import { type ResolvedRetry, retryDelay } from './retry-delay.js';
import { isRetryable } from './retryable-error.js';

/** What running one call needs from the runtime. */
export interface RunContext {
  readonly clock: Clock;
  readonly random: () => number;
  /** The batch's signal. */
  readonly signal: AbortWatch | undefined;
  readonly timeoutMs: number;
  readonly maxOutputChars: number;
  readonly retry: ResolvedRetry;
  /** How long the locks of a call that timed out or was cancelled stay held while the tool still runs. */
  readonly releaseGraceMs: number;
  readonly queuedMs: number;
}

const noop = (): void => {};

/**
 * The context a tool gets. Its `signal` is an own, enumerable getter (so that a copy of the
 * context, `{ ...context }`, carries the signal), one function shared by every context,
 * since most tools never look at their signal and making one is not free. Never a getter
 * written in an object literal: such a getter is a new function per context, which gives
 * each context a hidden class of its own; V8 keeps those in the old heap, where they hold
 * each call's objects past the young generation's collections (measured: a quarter to all
 * of a call's garbage promoted, and the run's time doubled by the collector).
 */
class CallContext implements ToolContext {
  static readonly #signal: PropertyDescriptor = Object.freeze({
    get(this: CallContext): AbortSignal {
      return this.#scope.signal;
    },
    enumerable: true,
    configurable: true,
  });

  readonly #scope: CallAbort;
  declare readonly signal: AbortSignal;
  readonly callId: string;
  readonly attempt: number;
  readonly deadline: number;
  readonly onProgress?: (progress: ToolProgress) => void;

  constructor(
    scope: CallAbort,
    callId: string,
    attempt: number,
    deadline: number,
    onProgress: ((progress: ToolProgress) => void) | undefined,
  ) {
    this.#scope = scope;
    Object.defineProperty(this, 'signal', CallContext.#signal);
    this.callId = callId;
    this.attempt = attempt;
    this.deadline = deadline;
    if (onProgress !== undefined) this.onProgress = onProgress;
  }
}

/** A readable message for anything a tool may throw; never throws itself. */
const messageOf = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
};

/** Codes a tool's error may carry to type the call's failure; any other is `tool_error`. */
const TYPED_TOOL_ERRORS: ReadonlySet<unknown> = new Set<CallErrorCode>([
  'upstream_unavailable',
  'shared_state_unavailable',
  'rate_limited',
]);

const toolErrorCode = (error: unknown): CallErrorCode => {
  const code = (error as { code?: unknown } | null)?.code;
  return TYPED_TOOL_ERRORS.has(code) ? (code as CallErrorCode) : 'tool_error';
};

/**
 * Runs a granted call: invokes the tool under a timeout and the batch's cancellation,
 * retries retryable failures of read-only or idempotent tools with backoff and jitter,
 * shapes and truncates the output, then settles the lease. Never throws.
 */
export async function runCall(
  prepared: PreparedCall,
  lease: Lease,
  context: RunContext,
): Promise<CallResult> {
  const { clock, signal } = context;
  const { tool } = prepared;
  const startedAt = clock.now();
  const scope = new CallAbort({ clock, batch: signal, timeoutMs: context.timeoutMs });
  const eligible = prepared.effective.readOnlyHint || prepared.effective.idempotentHint;
  const maxAttempts = eligible ? Math.max(1, context.retry.attempts) : 1;
  let attempts = 0;
  let pendingTool: Promise<unknown> | undefined;
  const facts = () => ({ attempts, queuedMs: context.queuedMs, runMs: clock.now() - startedAt });
  const listener = prepared.call.onProgress;
  const onProgress =
    listener === undefined
      ? undefined
      : (progress: ToolProgress): void => {
          try {
            listener(progress);
          } catch {
            // The caller's listener must not fail the tool.
          }
        };

  const finish = (result: CallResult): CallResult => {
    scope.dispose();
    lease.settle(result.status === 'ok');
    if (pendingTool === undefined) {
      lease.release();
    } else {
      // The tool ignored the abort and still runs: keep its locks until it stops, or
      // until the grace period ends, so later conflicting calls do not race it.
      const grace = clock.setTimeout(() => lease.release(), context.releaseGraceMs);
      pendingTool.then(
        () => {
          clock.clearTimeout(grace);
          lease.release();
        },
        () => {
          clock.clearTimeout(grace);
          lease.release();
        },
      );
    }
    return result;
  };
  const abortResult = (): CallResult => {
    if (scope.timedOut) {
      return failedResult(
        prepared,
        'timeout',
        `Tool "${prepared.name}" did not finish within ${context.timeoutMs} ms and was stopped. Try a narrower request.`,
        facts(),
      );
    }
    const closed = scope.reason instanceof HintgateError && scope.reason.code === 'runtime_closed';
    return failedResult(
      prepared,
      'cancelled',
      closed
        ? `Tool "${prepared.name}" was cancelled while running: ${scope.reason.message}.`
        : `Tool "${prepared.name}" was cancelled while running.`,
      facts(),
    );
  };

  for (;;) {
    if (scope.aborted) return finish(abortResult());
    attempts += 1;
    let value: unknown;
    let failure: { error: unknown } | undefined;
    try {
      const deadline = Date.now() + context.timeoutMs - (clock.now() - startedAt);
      const toolContext: ToolContext = new CallContext(
        scope,
        prepared.id,
        attempts,
        deadline,
        onProgress,
      );
      value = tool.execute(prepared.arguments, toolContext);
      if (
        value instanceof Promise ||
        typeof (value as PromiseLike<unknown> | null)?.then === 'function'
      ) {
        const running = Promise.resolve(value);
        pendingTool = running;
        const outcome = await Promise.race([running, scope.whenAborted()]);
        if (outcome === ABORTED) return finish(abortResult());
        pendingTool = undefined;
        value = outcome;
      }
    } catch (error) {
      pendingTool = undefined;
      failure = { error };
    }

    if (failure === undefined) {
      const unchecked = (error: unknown) => ({
        problem: `its output could not be checked (${messageOf(error)})`,
      });
      let output: Awaited<ReturnType<typeof normalizeOutput>>;
      try {
        const normalized = normalizeOutput(value, tool);
        // Most outputs need no schema check: no extra turn of the microtask queue for them.
        output = normalized instanceof Promise ? await normalized.catch(unchecked) : normalized;
      } catch (error) {
        output = unchecked(error);
      }
      if ('problem' in output) {
        return finish(
          failedResult(
            prepared,
            'tool_error',
            `Tool "${prepared.name}" failed: ${output.problem}.`,
            facts(),
          ),
        );
      }
      const cap = tool.maxOutputChars ?? context.maxOutputChars;
      // Most outputs fit: they go on as they are, with no copy.
      const shaped = outputFits(output, cap) ? output : truncateOutput(output, cap);
      const first = shaped.content.find((block) => block.type === 'text');
      const errorMessage =
        first?.type === 'text' ? first.text : `Tool "${prepared.name}" reported an error.`;
      return finish({
        id: prepared.id,
        name: prepared.name,
        status: shaped.isError ? 'error' : 'ok',
        isError: shaped.isError,
        content: shaped.content,
        ...(shaped.structuredContent === undefined
          ? {}
          : { structuredContent: shaped.structuredContent }),
        ...(shaped.isError
          ? { error: { code: 'tool_error' as const, message: errorMessage } }
          : {}),
        ...facts(),
        ...('truncated' in shaped && shaped.truncated ? { truncated: true as const } : {}),
        ...(shaped._meta === undefined ? {} : { _meta: shaped._meta }),
      });
    }

    const { error } = failure;
    if (scope.aborted) return finish(abortResult());
    const message = `Tool "${prepared.name}" failed: ${messageOf(error)}`;
    if (!isRetryable(error) || attempts >= maxAttempts) {
      return finish(failedResult(prepared, toolErrorCode(error), message, facts()));
    }
    const asked = (error as { retryAfterMs?: unknown }).retryAfterMs;
    const delay = retryDelay(
      attempts,
      context.retry,
      context.random,
      typeof asked === 'number' ? asked : 0,
    );
    const elapsed = clock.now() - startedAt;
    if (elapsed + delay >= context.timeoutMs) {
      return finish(failedResult(prepared, toolErrorCode(error), message, facts()));
    }
    if (delay > 0) {
      let wake = noop;
      const slept = new Promise<void>((resolve) => {
        wake = resolve;
      });
      const sleeper = clock.setTimeout(wake, delay);
      const outcome = await Promise.race([slept, scope.whenAborted()]);
      clock.clearTimeout(sleeper);
      if (outcome === ABORTED) return finish(abortResult());
    }
  }
}
