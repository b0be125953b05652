import { AbortScope } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import { CallPipeline } from './call-pipeline.js';
import { checkExecuteOptions } from './check-execute-options.js';
import type { RunningWork } from './running-work.js';
import type { ExecuteOptions } from './runtime.js';
import type { ToolCall } from './tool-call.js';
import type { TurnContext } from './turn-context.js';
import { validateBatch } from './validate-batch.js';

/** What {@link executeBatch} needs of the runtime besides the turn context. */
export interface BatchRuntime {
  /** The turn context every call of the runtime shares. */
  readonly context: TurnContext;
  /** Scopes of a caller that gives none. */
  readonly defaultScopes: readonly string[];
  /** The work under way, which closing the runtime waits for and cancels. */
  readonly running: RunningWork;
  /** Holds the registry's tools for the batch (reloads wait); returns the release. */
  holdTurn(): () => void;
}

/**
 * `runtime.execute`: checks the batch, then hands its calls to one {@link CallPipeline} in
 * call order (`arriveAll`: one synchronous pass, or for a big batch parts that keep its
 * place), so that the batch keeps its order in the lock manager against batches that arrive
 * meanwhile; resolves with one result per call, in
 * call order, once the batch's end events are written.
 */
export function executeBatch(
  runtime: BatchRuntime,
  calls: readonly ToolCall[],
  options: ExecuteOptions,
): Promise<CallResult[]> {
  try {
    validateBatch(calls);
    checkExecuteOptions(options, 'execute');
  } catch (error) {
    return Promise.reject(error);
  }
  const { running } = runtime;
  const stop = new AbortScope();
  const unlink = options.signal === undefined ? undefined : stop.follow(options.signal);
  const pipeline = new CallPipeline(runtime.context, {
    scopes: options.scopes ?? runtime.defaultScopes,
    approver: options.approver,
    session: options.session,
    caller: options.caller,
    onEvent: options.onEvent,
    signal: stop,
    eachCall: false,
  });
  // The batch keeps the tools it started with: reloads of tool modules wait for it.
  const leave = runtime.holdTurn();
  // then rather than finally: one turn of the microtask queue less for every batch.
  const finish = (settled: CallResult[]): CallResult[] => {
    running.untrack(tracked);
    unlink?.();
    leave();
    return settled;
  };
  const fail = (error: unknown): never => {
    running.untrack(tracked);
    unlink?.();
    leave();
    throw error;
  };
  const end = (settled: CallResult[]): CallResult[] | Promise<CallResult[]> => {
    let ended: CallResult[] | Promise<CallResult[]>;
    try {
      ended = pipeline.endBatch(settled);
    } catch (error) {
      return fail(error);
    }
    return ended instanceof Promise ? ended.then(finish, fail) : finish(ended);
  };
  const batch = pipeline.arriveAll(calls, end, fail);
  const tracked = running.add(batch, stop);
  return batch;
}
