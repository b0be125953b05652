import type { Turn } from '../../runtime/index.js';
import type { CallResult } from '../../tool/index.js';

/**
 * Where a call stands between the SDK's approval check (`needsApproval`) and its run
 * (`execute`): being checked, checked and on its way to `execute`, admitted into hintgate,
 * or not coming (it waits for a person, or the check failed).
 */
type CallState = 'checking' | 'coming' | 'admitted' | 'dropped';

/** One call of a step, from its approval check on. */
export interface CheckedCall {
  readonly callId: string;
  /** The SDK's run context of the call: calls of one run are ordered among themselves. */
  readonly context: object;
  readonly step: Step;
  state: CallState;
  /** Set while its `execute` waits for earlier calls of the step: admits it. */
  admit: (() => void) | undefined;
}

/** The calls of one run the SDK checked together: the function calls of one model response. */
interface Step {
  /** The SDK's run context of the calls. */
  readonly context: object;
  readonly calls: CheckedCall[];
  /** Calls before this index are admitted or dropped. */
  settled: number;
  /** The step's hintgate turn, opened when its first call is admitted. */
  turn: Turn | undefined;
  /** Call ids given to `turn`, which must be unique within it. */
  readonly ids: Set<string>;
}

/** Starts a call in the given turn. */
export type StartCall = (turn: Turn) => Promise<CallResult>;

/**
 * Keeps the model's order of a step's calls on their way into hintgate. The OpenAI Agents
 * SDK starts the function calls of one model response together, in the model's order:
 * each first has its approval checked (`needsApproval`, called for all of them before any
 * check resolves), then runs (`execute`). The checks may resolve in any order, so this
 * records the order of the checks and admits each call into the step's hintgate turn only
 * once every call checked before it was admitted or is not coming. Calls that conflict
 * then run in the model's order, whatever order the SDK reaches `execute` in.
 *
 * A step is the calls of one run checked within one synchronous stretch of the SDK (it
 * ends at the next microtask). A call waits only for earlier calls of its own step, and stops
 * waiting when its signal aborts (the SDK then cancels the whole step). A call that reaches
 * `execute` without a check (the SDK skips `needsApproval` for a tool approved with
 * `alwaysApprove`) is admitted at once.
 */
export class CallOrder {
  readonly #openTurn: () => Turn;
  /** The steps of the current synchronous stretch of checks, one per run. */
  #open: Step[] = [];
  /** The turn of calls that came without a check, in the current synchronous stretch. */
  #loose: Step | undefined;
  /** Checked calls whose `execute` has not come yet, by call id. */
  readonly #waiting = new Map<string, CheckedCall[]>();

  constructor(openTurn: () => Turn) {
    this.#openTurn = openTurn;
  }

  /** Records a call whose approval the SDK starts to check, in the order of the checks. */
  check(callId: string, context: object): CheckedCall {
    const step = this.#open.find((open) => open.context === context) ?? this.#openStep(context);
    const call: CheckedCall = { callId, context, step, state: 'checking', admit: undefined };
    step.calls.push(call);
    const same = this.#waiting.get(callId);
    if (same === undefined) this.#waiting.set(callId, [call]);
    else same.push(call);
    return call;
  }

  /** The check found the call may run (or the person had approved it): `execute` comes. */
  expect(call: CheckedCall): void {
    if (call.state === 'checking') call.state = 'coming';
  }

  /** The call will not run now (it waits for a person, or its check failed). */
  drop(call: CheckedCall): void {
    if (call.state !== 'checking' && call.state !== 'coming') return;
    call.state = 'dropped';
    this.#forget(call);
    this.#advance(call.step);
  }

  /**
   * Admits a call whose `execute` has come, once the calls checked before it in its step
   * were admitted or are not coming, and resolves with its result.
   */
  admit(
    callId: string,
    context: object,
    signal: AbortSignal | undefined,
    start: StartCall,
  ): Promise<CallResult> {
    const call = this.#take(callId, context);
    if (call === undefined) return start(this.#turnOf(this.#looseStep(), callId));
    const { step } = call;
    if (step.calls[step.settled] === call || signal?.aborted === true) {
      const result = this.#start(call, start);
      this.#advance(step);
      return result;
    }
    return new Promise<CallResult>((resolve, reject) => {
      const go = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#start(call, start).then(resolve, reject);
      };
      // Cancelled: the call ends `cancelled` in hintgate without running, so it may go first.
      const onAbort = (): void => {
        if (call.admit !== go) return;
        call.admit = undefined;
        go();
        this.#advance(step);
      };
      call.admit = go;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #start(call: CheckedCall, start: StartCall): Promise<CallResult> {
    call.state = 'admitted';
    call.admit = undefined;
    return start(this.#turnOf(call.step, call.callId));
  }

  /** Moves past the settled calls at the head of the step, admitting those that wait. */
  #advance(step: Step): void {
    for (;;) {
      const head = step.calls[step.settled];
      if (head === undefined) return;
      if (head.state === 'admitted' || head.state === 'dropped') {
        step.settled += 1;
      } else if (head.admit !== undefined) {
        head.admit();
      } else {
        return;
      }
    }
  }

  #openStep(context: object): Step {
    // A run checks the calls of its next step only once every call of the last one ended:
    // a call of this run still expected now was cancelled before it ran, and never comes.
    const stale = [...this.#waiting.values()]
      .flat()
      .filter((call) => call.context === context && call.state === 'coming');
    for (const call of stale) this.drop(call);
    const step: Step = { context, calls: [], settled: 0, turn: undefined, ids: new Set() };
    if (this.#open.length === 0) {
      queueMicrotask(() => {
        this.#open = [];
      });
    }
    this.#open.push(step);
    return step;
  }

  #looseStep(): Step {
    if (this.#loose !== undefined) return this.#loose;
    const step: Step = { context: this, calls: [], settled: 0, turn: undefined, ids: new Set() };
    this.#loose = step;
    queueMicrotask(() => {
      if (this.#loose === step) this.#loose = undefined;
    });
    return step;
  }

  /** The step's turn; a call id used before in it gets a turn of its own. */
  #turnOf(step: Step, callId: string): Turn {
    if (step.ids.has(callId)) return this.#openTurn();
    step.ids.add(callId);
    step.turn ??= this.#openTurn();
    return step.turn;
  }

  /** The checked call of this run with this id that is on its way to `execute`. */
  #take(callId: string, context: object): CheckedCall | undefined {
    const call = this.#waiting
      .get(callId)
      ?.find((candidate) => candidate.context === context && candidate.state === 'coming');
    if (call !== undefined) this.#forget(call);
    return call;
  }

  #forget(call: CheckedCall): void {
    const same = this.#waiting.get(call.callId);
    if (same === undefined) return;
    const rest = same.filter((candidate) => candidate !== call);
    if (rest.length === 0) this.#waiting.delete(call.callId);
    else this.#waiting.set(call.callId, rest);
  }
}
