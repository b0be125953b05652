import { HintgateError } from '../errors/index.js';
import type { AbortWatch, Clock, Lease } from '../schedule/index.js';
import type {
  CallErrorCode,
  CallResult,
  ToolCancellation,
  ToolContext,
  ToolProgress,
} from '../tool/index.js';
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
  /**
   * Called when the call ended while its tool still runs (timed out or cancelled): its
   * locks are then freed when the tool stops or the grace period ends, not by the caller.
   */
  readonly onAbandoned?: () => void;
}

const noop = (): void => {};

/** What a tool's context reads its signal from: made only when the tool asks for it. */
interface SignalSource {
  readonly scope: CallAbort;
}

/**
 * A call's cancellation as its tool sees it: the call's abort scope, which is made only
 * when the tool first looks at it (most tools never do). A plain object with methods on
 * its class, so that the context carries it as a plain property.
 */
class CallCancellation implements ToolCancellation {
  readonly #source: SignalSource;

  constructor(source: SignalSource) {
    this.#source = source;
  }

  get aborted(): boolean {
    return this.#source.scope.aborted;
  }

  get reason(): unknown {
    return this.#source.scope.reason;
  }

  /** Calls `listener` once when the call aborts (the scope's listeners are once only). */
  addEventListener(type: 'abort', listener: () => void): void {
    this.#source.scope.addEventListener(type, listener);
  }

  removeEventListener(type: 'abort', listener: () => void): void {
    this.#source.scope.removeEventListener(type, listener);
  }
}

/**
 * The context a tool gets. Its `signal` is an own, enumerable getter (so that a copy of the
 * context, `{ ...context }`, carries the signal), one function shared by every context,
 * since most tools never look at their signal and making one is not free. Never a getter
 * written in an object literal: such a getter is a new function per context, which gives
 * each context a hidden class of its own; V8 keeps those in the old heap, where they hold
 * each call's objects past the young generation's collections (measured: a quarter to all
 * of a call's garbage promoted, and the run's time doubled by the collector). Defining a
 * getter costs about as much as the rest of the context: `cancellation` is a plain
 * property ({@link CallCancellation}).
 */
class CallContext implements ToolContext {
  static readonly #signal: PropertyDescriptor = Object.freeze({
    get(this: CallContext): AbortSignal {
      return this.#source.scope.signal;
    },
    enumerable: true,
    configurable: true,
  });

  readonly #source: SignalSource;
  declare readonly signal: AbortSignal;
  readonly cancellation: ToolCancellation;
  readonly callId: string;
  readonly attempt: number;
  readonly deadline: number;
  readonly onProgress?: (progress: ToolProgress) => void;

  constructor(
    source: SignalSource,
    callId: string,
    attempt: number,
    deadline: number,
    onProgress: ((progress: ToolProgress) => void) | undefined,
  ) {
    this.#source = source;
    Object.defineProperty(this, 'signal', CallContext.#signal);
    this.cancellation = new CallCancellation(source);
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
/** The output of a call whose output check failed. */
const unchecked = (error: unknown): { problem: string } => ({
  problem: `its output could not be checked (${messageOf(error)})`,
});

const TYPED_TOOL_ERRORS: ReadonlySet<unknown> = new Set<CallErrorCode>([
  'upstream_unavailable',
  'shared_state_unavailable',
  'rate_limited',
]);

const toolErrorCode = (error: unknown): CallErrorCode => {
  const code = (error as { code?: unknown } | null)?.code;
  return TYPED_TOOL_ERRORS.has(code) ? (code as CallErrorCode) : 'tool_error';
};

/** The caller's progress listener, kept from failing the tool. */
const guardedProgress = (
  listener: ((progress: ToolProgress) => void) | undefined,
): ((progress: ToolProgress) => void) | undefined =>
  listener === undefined
    ? undefined
    : (progress) => {
        try {
          listener(progress);
        } catch {
          // The caller's listener must not fail the tool.
        }
      };

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value instanceof Promise || typeof (value as PromiseLike<unknown> | null)?.then === 'function';

/**
 * One granted call under way: its attempts, its abort scope (made when a tool asks for its
 * signal, goes asynchronous, or a retry waits) and its lease. A tool that answers at once
 * is run, shaped and settled without a promise; the rest continues asynchronously.
 */
class CallRun implements SignalSource {
  readonly #prepared: PreparedCall;
  readonly #lease: Lease;
  readonly #context: RunContext;
  readonly #startedAt: number;
  readonly #maxAttempts: number;
  readonly #onProgress: ((progress: ToolProgress) => void) | undefined;
  #scope: CallAbort | undefined;
  #attempts = 0;
  #pendingTool: Promise<unknown> | undefined;
  /** It went asynchronous: its caller frees the locks once its result is settled. */
  #async = false;

  constructor(prepared: PreparedCall, lease: Lease, context: RunContext) {
    this.#prepared = prepared;
    this.#lease = lease;
    this.#context = context;
    this.#startedAt = context.clock.now();
    const { effective } = prepared;
    this.#maxAttempts =
      effective.readOnlyHint || effective.idempotentHint ? Math.max(1, context.retry.attempts) : 1;
    this.#onProgress = guardedProgress(prepared.call.onProgress);
  }

  /** The call's abort scope: its deadline and the batch's signal. */
  get scope(): CallAbort {
    const { clock, signal, timeoutMs } = this.#context;
    this.#scope ??= new CallAbort({ clock, batch: signal, timeoutMs, startedAt: this.#startedAt });
    return this.#scope;
  }

  get #aborted(): boolean {
    return this.#scope === undefined ? this.#context.signal?.aborted === true : this.#scope.aborted;
  }

  #facts(): { attempts: number; queuedMs: number; runMs: number } {
    return {
      attempts: this.#attempts,
      queuedMs: this.#context.queuedMs,
      runMs: this.#context.clock.now() - this.#startedAt,
    };
  }

  /** Runs the next attempt; the call's result, at once when the tool answers at once. */
  attempt(): CallResult | Promise<CallResult> {
    if (this.#aborted) return this.#finish(this.#abortResult());
    this.#attempts += 1;
    const prepared = this.#prepared;
    const { clock, timeoutMs } = this.#context;
    let value: unknown;
    try {
      // The first attempt starts now: no second reading of the clock for it.
      const elapsed = this.#attempts === 1 ? 0 : clock.now() - this.#startedAt;
      const toolContext: ToolContext = new CallContext(
        this,
        prepared.id,
        this.#attempts,
        Date.now() + timeoutMs - elapsed,
        this.#onProgress,
      );
      value = prepared.tool.execute(prepared.arguments, toolContext);
    } catch (error) {
      return this.#failed(error);
    }
    if (isThenable(value)) return this.#awaitTool(Promise.resolve(value));
    return this.#succeeded(value);
  }

  /** Waits for a tool that went asynchronous, under the call's deadline and cancellation. */
  async #awaitTool(running: Promise<unknown>): Promise<CallResult> {
    this.#async = true;
    this.#pendingTool = running;
    let outcome: unknown;
    try {
      outcome = await Promise.race([running, this.scope.whenAborted()]);
    } catch (error) {
      this.#pendingTool = undefined;
      return this.#failed(error);
    }
    if (outcome === ABORTED) return this.#finish(this.#abortResult());
    this.#pendingTool = undefined;
    return this.#succeeded(outcome);
  }

  /** Shapes what the tool returned into the call's result. */
  #succeeded(value: unknown): CallResult | Promise<CallResult> {
    let normalized: ReturnType<typeof normalizeOutput>;
    try {
      normalized = normalizeOutput(value, this.#prepared.tool);
    } catch (error) {
      return this.#shaped(unchecked(error));
    }
    // Most outputs need no schema check: no turn of the microtask queue for them.
    if (normalized instanceof Promise) {
      this.#async = true;
      return normalized.catch(unchecked).then((output) => this.#shaped(output));
    }
    return this.#shaped(normalized);
  }

  #shaped(output: Awaited<ReturnType<typeof normalizeOutput>>): CallResult {
    const prepared = this.#prepared;
    if ('problem' in output) {
      return this.#finish(
        failedResult(
          prepared,
          'tool_error',
          `Tool "${prepared.name}" failed: ${output.problem}.`,
          this.#facts(),
        ),
      );
    }
    const cap = prepared.tool.maxOutputChars ?? this.#context.maxOutputChars;
    // Most outputs fit: they go on as they are, with no copy.
    const shaped = outputFits(output, cap) ? output : truncateOutput(output, cap);
    // Filled in place rather than spread: no throwaway objects per call.
    const result: { -readonly [K in keyof CallResult]: CallResult[K] } = {
      id: prepared.id,
      name: prepared.name,
      status: shaped.isError ? 'error' : 'ok',
      isError: shaped.isError,
      content: shaped.content,
      attempts: this.#attempts,
      queuedMs: this.#context.queuedMs,
      runMs: this.#context.clock.now() - this.#startedAt,
    };
    if (shaped.structuredContent !== undefined) {
      result.structuredContent = shaped.structuredContent;
    }
    if (shaped.isError) {
      result.error = {
        code: 'tool_error',
        message: errorMessageOf(shaped.content, prepared.name),
      };
    }
    if ('truncated' in shaped && shaped.truncated) result.truncated = true;
    if (shaped._meta !== undefined) result._meta = shaped._meta;
    return this.#finish(result);
  }

  /** A tool that threw or rejected: the call fails, or is tried again after a pause. */
  #failed(error: unknown): CallResult | Promise<CallResult> {
    if (this.#aborted) return this.#finish(this.#abortResult());
    const prepared = this.#prepared;
    const { clock, retry, random, timeoutMs } = this.#context;
    const message = `Tool "${prepared.name}" failed: ${messageOf(error)}`;
    if (!isRetryable(error) || this.#attempts >= this.#maxAttempts) {
      return this.#finish(failedResult(prepared, toolErrorCode(error), message, this.#facts()));
    }
    const asked = (error as { retryAfterMs?: unknown }).retryAfterMs;
    const delay = retryDelay(this.#attempts, retry, random, typeof asked === 'number' ? asked : 0);
    const elapsed = clock.now() - this.#startedAt;
    if (elapsed + delay >= timeoutMs) {
      return this.#finish(failedResult(prepared, toolErrorCode(error), message, this.#facts()));
    }
    return delay > 0 ? this.#retryAfter(delay) : this.attempt();
  }

  /** Sleeps `delay` ms (cut short by the call's abort), then tries again. */
  async #retryAfter(delay: number): Promise<CallResult> {
    this.#async = true;
    const { clock } = this.#context;
    let wake = noop;
    const slept = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const sleeper = clock.setTimeout(wake, delay);
    const outcome = await Promise.race([slept, this.scope.whenAborted()]);
    clock.clearTimeout(sleeper);
    if (outcome === ABORTED) return this.#finish(this.#abortResult());
    return this.attempt();
  }

  #abortResult(): CallResult {
    const prepared = this.#prepared;
    const { scope } = this;
    if (scope.timedOut) {
      return failedResult(
        prepared,
        'timeout',
        `Tool "${prepared.name}" did not finish within ${this.#context.timeoutMs} ms and was stopped. Try a narrower request.`,
        this.#facts(),
      );
    }
    const closed = scope.reason instanceof HintgateError && scope.reason.code === 'runtime_closed';
    return failedResult(
      prepared,
      'cancelled',
      closed
        ? `Tool "${prepared.name}" was cancelled while running: ${scope.reason.message}.`
        : `Tool "${prepared.name}" was cancelled while running.`,
      this.#facts(),
    );
  }

  /** Settles the lease and frees the call's locks (later, while an abandoned tool runs). */
  #finish(result: CallResult): CallResult {
    const lease = this.#lease;
    this.#scope?.dispose();
    lease.settle(result.status === 'ok');
    const pendingTool = this.#pendingTool;
    if (pendingTool === undefined) {
      // An asynchronous run's locks are freed by its caller once its result is settled, so
      // that a later conflicting call is never answered before it (see `runGranted`).
      if (!this.#async) lease.release();
    } else {
      // The tool ignored the abort and still runs: keep its locks until it stops, or
      // until the grace period ends, so later conflicting calls do not race it.
      this.#context.onAbandoned?.();
      const { clock } = this.#context;
      const grace = clock.setTimeout(() => lease.release(), this.#context.releaseGraceMs);
      const done = (): void => {
        clock.clearTimeout(grace);
        lease.release();
      };
      pendingTool.then(done, done);
    }
    return result;
  }
}

/** The message of a result the tool marked as an error: its first text, or a generic one. */
const errorMessageOf = (content: CallResult['content'], name: string): string => {
  const first = content.find((block) => block.type === 'text');
  return first?.type === 'text' ? first.text : `Tool "${name}" reported an error.`;
};

/**
 * Runs a granted call: invokes the tool under a timeout and the batch's cancellation,
 * retries retryable failures of read-only or idempotent tools with backoff and jitter,
 * shapes and truncates the output, then settles the lease. Answers at once (no promise)
 * when the tool does and its output needs no asynchronous check, and then releases the
 * lease; a call that answers with a promise leaves the release to its caller, once the
 * result is settled (unless its tool was abandoned: then the grace period does). Never
 * throws or rejects.
 */
export function runCall(
  prepared: PreparedCall,
  lease: Lease,
  context: RunContext,
): CallResult | Promise<CallResult> {
  return new CallRun(prepared, lease, context).attempt();
}
