import type { ToolCall, Turn } from '../../runtime/index.js';
import type { CallResult } from '../../tool/index.js';

/**
 * Where a call stands between the SDK's approval check (`needsApproval`) and its run
 * (`execute`): being checked; checked and on its way to `execute`; held back (`execute`
 * comes, but the call must not run now); admitted into hintgate; or not coming (it waits
 * for a person, or its check failed).
 */
type CallState = 'checking' | 'coming' | 'held' | 'admitted' | 'dropped';

/** One call of a step, from its approval check on. */
export interface CheckedCall {
  /** The call as hintgate takes it; its id is the SDK's call id. */
  readonly call: ToolCall;
  /** The SDK's run context of the call: calls of one run are ordered among themselves. */
  readonly context: object;
  readonly step: Step;
  /** Its place among the step's calls. */
  readonly index: number;
  state: CallState;
  /**
   * Why later calls that conflict with it must not run now: it waits for a person
   * (`asks`), or it was held back itself (`held`).
   */
  blocking: 'asks' | 'held' | undefined;
  /** For a held call: the earlier call it must not run before. */
  heldBehind: CheckedCall | undefined;
  /** Set while its `execute` waits for earlier calls of the step: admits it. */
  admit: (() => void) | undefined;
}

/** The calls of one run the SDK checked together: the function calls of one model response. */
interface Step {
  /** The SDK's run context of the calls. */
  readonly context: object;
  readonly calls: CheckedCall[];
  /** Calls before this index are admitted, held or dropped. */
  settled: number;
  /** Calls before this index have been checked. */
  checked: number;
  /** The calls that do not run now (they wait for a person, or were held), in order. */
  readonly blockers: CheckedCall[];
  /** Checks waiting for every call before `index` to be checked. */
  readonly waiters: Array<{ readonly index: number; readonly wake: () => void }>;
  /** The step's hintgate turn, opened when its first call is admitted. */
  turn: Turn | undefined;
  /** Call ids given to `turn`, which must be unique within it. */
  readonly ids: Set<string>;
}

/** Starts a call in the given turn. */
export type StartCall = (turn: Turn) => Promise<CallResult>;

const newStep = (context: object): Step => ({
  context,
  calls: [],
  settled: 0,
  checked: 0,
  blockers: [],
  waiters: [],
  turn: undefined,
  ids: new Set(),
});

const isSettled = (call: CheckedCall): boolean =>
  call.state === 'admitted' || call.state === 'dropped' || call.state === 'held';

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
 * ends at the next microtask). A call waits only for earlier calls of its own step, and
 * stops waiting when its signal aborts (the SDK then cancels the whole step). A call that
 * reaches `execute` without a check (the SDK skips `needsApproval` for a tool approved with
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
  check(call: ToolCall, context: object): CheckedCall {
    const step = this.#open.find((open) => open.context === context) ?? this.#openStep(context);
    const checked: CheckedCall = {
      call,
      context,
      step,
      index: step.calls.length,
      state: 'checking',
      blocking: undefined,
      heldBehind: undefined,
      admit: undefined,
    };
    step.calls.push(checked);
    const same = this.#waiting.get(call.id);
    if (same === undefined) this.#waiting.set(call.id, [checked]);
    else same.push(checked);
    return checked;
  }

  /** The check found the call may run (or the person had approved it): `execute` comes. */
  expect(checked: CheckedCall): void {
    if (checked.state !== 'checking') return;
    checked.state = 'coming';
    this.#checked(checked);
  }

  /** The call waits for a person: it is not coming now, and later conflicting calls must wait. */
  ask(checked: CheckedCall): void {
    if (checked.state !== 'checking') return;
    checked.blocking = 'asks';
    checked.step.blockers.push(checked);
    this.drop(checked);
  }

  /**
   * The call must not run before `behind`, which does not run now: `execute` comes, and
   * reports that instead of running it. Later calls that conflict with it are held too.
   */
  hold(checked: CheckedCall, behind: CheckedCall): void {
    if (checked.state !== 'checking') return;
    checked.state = 'held';
    checked.blocking = 'held';
    checked.heldBehind = behind;
    checked.step.blockers.push(checked);
    this.#checked(checked);
    this.#advance(checked.step);
  }

  /** The call will not run now (it waits for a person, or its check failed). */
  drop(checked: CheckedCall): void {
    if (checked.state !== 'checking' && checked.state !== 'coming') return;
    checked.state = 'dropped';
    this.#forget(checked);
    this.#checked(checked);
    this.#advance(checked.step);
  }

  /**
   * Once every earlier call of the step has been checked: those that do not run now (they
   * wait for a person, or were held), which a conflicting call must not overtake.
   */
  blockersBefore(checked: CheckedCall): readonly CheckedCall[] | Promise<readonly CheckedCall[]> {
    const { step, index } = checked;
    const before = (): readonly CheckedCall[] =>
      step.blockers.length === 0 ? [] : step.blockers.filter((call) => call.index < index);
    if (step.checked >= index) return before();
    return new Promise((resolve) => {
      step.waiters.push({ index, wake: () => resolve(before()) });
    });
  }

  /** The checked call of this run with this id whose `execute` has come, if any. */
  take(callId: string, context: object): CheckedCall | undefined {
    const checked = this.#waiting
      .get(callId)
      ?.find(
        (candidate) =>
          candidate.context === context &&
          (candidate.state === 'coming' || candidate.state === 'held'),
      );
    if (checked !== undefined) this.#forget(checked);
    return checked;
  }

  /**
   * Admits a call whose `execute` has come, once the calls checked before it in its step
   * were admitted or are not coming, and resolves with its result. A call that was not
   * checked (`undefined`) is admitted at once.
   */
  admit(
    checked: CheckedCall | undefined,
    callId: string,
    signal: AbortSignal | undefined,
    start: StartCall,
  ): Promise<CallResult> {
    if (checked === undefined) return start(this.#turnOf(this.#looseStep(), callId));
    const { step } = checked;
    if (step.calls[step.settled] === checked || signal?.aborted === true) {
      const result = this.#start(checked, start);
      this.#advance(step);
      return result;
    }
    return new Promise<CallResult>((resolve, reject) => {
      const go = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#start(checked, start).then(resolve, reject);
      };
      // Cancelled: the call ends `cancelled` in hintgate without running, so it may go first.
      const onAbort = (): void => {
        if (checked.admit !== go) return;
        checked.admit = undefined;
        go();
        this.#advance(step);
      };
      checked.admit = go;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #start(checked: CheckedCall, start: StartCall): Promise<CallResult> {
    checked.state = 'admitted';
    checked.admit = undefined;
    return start(this.#turnOf(checked.step, checked.call.id));
  }

  /** Moves past the checked calls at the head of the step, waking the checks that wait. */
  #checked({ step }: CheckedCall): void {
    while (step.checked < step.calls.length && step.calls[step.checked]?.state !== 'checking') {
      step.checked += 1;
    }
    if (step.waiters.length === 0) return;
    const ready = step.waiters.filter((waiter) => waiter.index <= step.checked);
    if (ready.length === 0) return;
    step.waiters.splice(
      0,
      step.waiters.length,
      ...step.waiters.filter((w) => w.index > step.checked),
    );
    for (const waiter of ready) waiter.wake();
  }

  /** Moves past the settled calls at the head of the step, admitting those that wait. */
  #advance(step: Step): void {
    for (;;) {
      const head = step.calls[step.settled];
      if (head === undefined) return;
      if (isSettled(head)) {
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
      .filter(
        (checked) =>
          checked.context === context && (checked.state === 'coming' || checked.state === 'held'),
      );
    for (const checked of stale) {
      checked.state = 'dropped';
      this.#forget(checked);
      this.#advance(checked.step);
    }
    const step = newStep(context);
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
    const step = newStep(this);
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

  #forget(checked: CheckedCall): void {
    const same = this.#waiting.get(checked.call.id);
    if (same === undefined) return;
    if (same.length === 1) {
      if (same[0] === checked) this.#waiting.delete(checked.call.id);
      return;
    }
    const rest = same.filter((candidate) => candidate !== checked);
    if (rest.length === 0) this.#waiting.delete(checked.call.id);
    else this.#waiting.set(checked.call.id, rest);
  }
}
