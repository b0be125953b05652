import { AbortScope } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import { BatchResults } from './batch-results.js';
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
 * call order, in one synchronous pass, so that the batch keeps its order in the lock
 * manager against batches that arrive meanwhile; resolves with one result per call, in
 * call order, once the batch's end events are written. The calls' results are gathered
 * into one array by slot: a call waiting for its turn holds no promise of its own.
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
  const results = new BatchResults(calls.length);
  for (let slot = 0; slot < calls.length; slot += 1) {
    pipeline.take(calls[slot] as ToolCall, results, slot);
  }
  // then rather than finally: one turn of the microtask queue less for every batch.
  const finish = (settled: CallResult[]): CallResult[] => {
    running.untrack(batch);
    unlink?.();
    leave();
    return settled;
  };
  const fail = (error: unknown): never => {
    running.untrack(batch);
    unlink?.();
    leave();
    throw error;
  };
  const batch = results.all.then((settled) => pipeline.endBatch(settled)).then(finish, fail);
  running.add(batch, stop);
  return batch;
}
