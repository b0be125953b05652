import type { RateLimit, Tool, ToolContext } from '../tool/index.js';
import { isCallToolResult, withExecute } from '../tool/index.js';
import type { SharedState, SlotLease, WindowReservation } from './shared-state.js';

/** The limits one tool shares with every replica; see {@link withSharedLimits}. */
export interface SharedLimits {
  /** The tool's own rate limit, one budget across replicas, under `key`. */
  readonly tool?: { readonly key: string; readonly limit: RateLimit };
  /** Its server's quota across its tools, one budget across replicas, under `key`. */
  readonly server?: { readonly key: string; readonly limit: RateLimit };
  /** Its server's concurrency cap across replicas, under `key`. */
  readonly concurrency?: { readonly key: string; readonly max: number };
}

/** A call the shared limits refused; its `code` types the call's failure. */
class SharedLimitError extends Error {
  readonly code = 'rate_limited';
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

const failed = (value: unknown): boolean => isCallToolResult(value) && value.isError === true;

/**
 * The tool with limits kept in shared state, so that replicas of a gateway spend one budget:
 * before each invocation it takes, in one atomic step (one round trip to the store), a
 * concurrency slot and a unit of each rate limit. When a slot is missing it waits for one
 * to be released; when a window is full it waits until a unit frees up, up to that limit's
 * `maxWaitMs` (default its window). Either way it holds nothing while it waits: a full
 * window leaves no slot held, a full slot spends no unit. A call that fails hands its units
 * back. A limit that cannot be had in time ends the call `rate_limited`; an unreachable
 * store ends it `shared_state_unavailable` (it never runs on per-process limits instead).
 * The call's timeout and cancellation cover the waiting.
 */
export function withSharedLimits(tool: Tool, state: SharedState, limits: SharedLimits): Tool {
  const windows = [limits.tool, limits.server].filter(
    (w): w is { key: string; limit: RateLimit } => w !== undefined,
  );
  if (windows.length === 0 && limits.concurrency === undefined) return tool;
  const request = {
    ...(limits.concurrency === undefined ? {} : { slot: limits.concurrency }),
    windows,
  };
  const execute = async (
    args: Parameters<Tool['execute']>[0],
    context: ToolContext,
  ): Promise<unknown> => {
    const { signal } = context;
    let slot: SlotLease | undefined;
    let taken: readonly WindowReservation[] = [];
    let succeeded = false;
    // When each window was first found full: its wait is counted from there.
    const refusedSince = new Map<number, number>();
    try {
      for (;;) {
        const outcome = await state.take(request);
        if ('taken' in outcome) {
          slot = outcome.taken.slot;
          taken = outcome.taken.reservations;
          break;
        }
        if ('slotFull' in outcome) {
          if (signal.aborted) return undefined;
          await state.waitForSlot(limits.concurrency?.key ?? '', 250);
          continue;
        }
        const limit: RateLimit = windows[outcome.windowFull]?.limit ?? { max: 0, windowMs: 0 };
        const maxWait = limit.maxWaitMs ?? limit.windowMs;
        const since = refusedSince.get(outcome.windowFull) ?? Date.now();
        refusedSince.set(outcome.windowFull, since);
        if (Date.now() - since + outcome.retryAfterMs > maxWait || signal.aborted) {
          throw new SharedLimitError(
            `rate limit of ${limit.max} call(s) per ${limit.windowMs} ms (shared by every gateway replica) reached; quota frees up in ${Math.ceil(outcome.retryAfterMs)} ms. Wait before calling this tool again, or batch the work into fewer calls.`,
          );
        }
        await sleep(outcome.retryAfterMs, signal);
      }
      const value = await tool.execute(args, context);
      succeeded = !failed(value);
      return value;
    } finally {
      if (!succeeded && taken.length > 0) {
        await Promise.all(taken.map((reservation) => state.rollback(reservation).catch(() => {})));
      }
      // The result need not wait for the store to hear of the release: the slot is free for
      // the others a round trip later, and a release that never arrives ends with its lease.
      void slot?.release();
    }
  };
  return withExecute(tool, execute);
}
