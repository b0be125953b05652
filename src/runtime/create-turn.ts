import { HintgateError } from '../errors/index.js';
import { AbortScope } from '../schedule/index.js';
import type { CallResult } from '../tool/index.js';
import { isPlainObject } from '../tool/index.js';
import { AuditWriteError } from './audit-write-error.js';
import { CallPipeline } from './call-pipeline.js';
import { checkApprovalAnswer } from './check-approval-answer.js';
import type { ExecuteOptions, Turn, TurnCallOptions } from './runtime.js';
import type { ToolCall } from './tool-call.js';
import type { ArriveOptions, TurnContext } from './turn-context.js';
import { validateCall } from './validate-call.js';

/** What a turn needs from its runtime besides the {@link TurnContext}. */
export interface TurnHooks {
  /** The runtime's default scopes, for a turn that names none. */
  readonly defaultScopes: readonly string[];
  /** True once the runtime is closing: no more calls are taken. */
  closing(): boolean;
  /** Tracks a call under way until it settles, with the scope that cancels it on close. */
  track(call: Promise<unknown>, scope: AbortScope): void;
  /**
   * Marks the turn as under way until the returned function is called (at `end`), so that
   * reloads of tool modules wait for it. Default: nothing is held.
   */
  hold?(): () => void;
}

const noop = (): void => {};

/** Checks the options of one call, and makes what the pipeline needs of them. */
const arriveOptions = (
  options: unknown,
  turnScope: AbortScope,
): { arrive: ArriveOptions; unlink: () => void } => {
  if (options === undefined) return { arrive: {}, unlink: noop };
  if (!isPlainObject(options)) {
    throw new HintgateError(
      'invalid_option',
      'call: options must be an object { signal?, approval? }.',
    );
  }
  const { signal, approval } = options as TurnCallOptions;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new HintgateError('invalid_option', 'call: signal must be an AbortSignal.');
  }
  if (approval !== undefined) checkApprovalAnswer(approval, 'call: approval');
  if (signal === undefined) {
    return { arrive: approval === undefined ? {} : { approval }, unlink: noop };
  }
  // The call's own scope aborts with the turn or with the call's signal.
  const own = new AbortScope();
  const unlinkTurn = own.follow(turnScope);
  const unlinkCall = own.follow(signal);
  return {
    arrive: { signal: own, ...(approval === undefined ? {} : { approval }) },
    unlink: () => {
      unlinkTurn();
      unlinkCall();
    },
  };
};

/**
 * Starts a turn over the runtime's pipeline: calls are admitted in the order `call` is
 * invoked, each result is given as soon as its call ended and its events are stored, and
 * `end` gathers all of them in call order.
 *
 * @throws HintgateError `invalid_option` for bad options.
 */
export function createTurn(context: TurnContext, options: ExecuteOptions, hooks: TurnHooks): Turn {
  const scope = new AbortScope();
  const unlinkCaller = options.signal === undefined ? noop : scope.follow(options.signal);
  const leave = hooks.hold?.() ?? noop;
  const pipeline = new CallPipeline(context, {
    scopes: options.scopes ?? hooks.defaultScopes,
    approver: options.approver,
    session: options.session,
    onEvent: options.onEvent,
    signal: scope,
    eachCall: true,
  });
  const ids = new Set<string>();
  const calls: Promise<CallResult>[] = [];
  let ended: Promise<CallResult[]> | undefined;

  const call = (toolCall: ToolCall, callOptions?: TurnCallOptions): Promise<CallResult> => {
    let prepared: { arrive: ArriveOptions; unlink: () => void };
    try {
      if (hooks.closing()) {
        throw new HintgateError(
          'runtime_closed',
          'call: this runtime is shutting down or closed, so it takes no more calls; run them once it (or a new one) is up again.',
        );
      }
      if (ended !== undefined) {
        throw new HintgateError(
          'invalid_calls',
          'call: this turn has ended (end() was called); start a new one with runtime.turn().',
        );
      }
      validateCall(toolCall, 'call(toolCall)');
      if (ids.has(toolCall.id)) {
        throw new HintgateError(
          'invalid_calls',
          `call: the id "${toolCall.id}" was used before in this turn; ids must be unique within a turn.`,
        );
      }
      prepared = arriveOptions(callOptions, scope);
    } catch (error) {
      return Promise.reject(error);
    }
    ids.add(toolCall.id);
    const outcome = pipeline.arrive(toolCall, prepared.arrive) as Promise<CallResult>;
    const { unlink } = prepared;
    const done =
      unlink === noop
        ? outcome
        : outcome.then(
            (result) => {
              unlink();
              return result;
            },
            (error: unknown) => {
              unlink();
              throw error;
            },
          );
    // end() reports a failed audit write too: a caller that only awaits end() must not see
    // an unhandled rejection.
    done.catch(noop);
    calls.push(done);
    hooks.track(done, scope);
    return done;
  };

  const end = (): Promise<CallResult[]> => {
    ended ??= Promise.allSettled(calls).then((outcomes) => {
      unlinkCaller();
      leave();
      let failure: AuditWriteError | undefined;
      const results = outcomes.map((outcome): CallResult => {
        if (outcome.status === 'fulfilled') return outcome.value;
        const error: unknown = outcome.reason;
        if (!(error instanceof AuditWriteError)) throw error;
        failure ??= error;
        return error.results[0] as CallResult;
      });
      if (failure !== undefined) throw new AuditWriteError(failure.cause, results);
      return results;
    });
    return ended;
  };

  return {
    // Made when first read: most turns' ids are never read, and making one is not free.
    get id(): string {
      return pipeline.id;
    },
    call,
    end,
  };
}
