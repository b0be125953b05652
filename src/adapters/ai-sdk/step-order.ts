import type { ToolCall, Turn } from '../../runtime/index.js';
import type { CallResult } from '../../tool/index.js';

/**
 * Where a call of a step stands: its approval being checked, checked and on its way to
 * `execute`, admitted into hintgate, or not coming (it waits for a person, or it is stale).
 */
type EntryState = 'checking' | 'coming' | 'admitted' | 'dropped';

/** One call of a step, from its approval check on. */
export interface StepEntry {
  /** The model's id for the call. */
  readonly callId: string;
  /** Where the call stands. */
  state: EntryState;
  /** Set while its `execute` waits for earlier calls of the step: admits it. */
  go: (() => void) | undefined;
}

/** The calls the SDK checked with one message history: the tool calls of one model step. */
export interface Step {
  /** The history the SDK gave the checks and the executes of the step. */
  readonly messages: object;
  /** The step's calls in the order they were checked, which is the model's order. */
  readonly entries: StepEntry[];
  /** Entries before this index are admitted or dropped. */
  settled: number;
  /** Calls of the step that wait for a person; a later call that conflicts with one waits too. */
  readonly asked: ToolCall[];
  /** The step's hintgate turn, opened when its first call is admitted. */
  turn: Turn | undefined;
  /** Call ids given to `turn`, which must be unique within it. */
  readonly ids: Set<string>;
  /** Drops the calls that have not come when it fires. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Starts a call in the given turn. */
export type StartCall = (turn: Turn) => Promise<CallResult>;

/** Steps kept open at most; the oldest is closed first. */
const MAX_OPEN_STEPS = 256;

/**
 * Keeps the model's order of a step's calls on their way into hintgate. The AI SDK checks
 * the approval of each tool call of a step in the model's order, one after another
 * (`toolApproval`), then starts every `execute` of the step together; each `execute` is
 * reached through a few awaits of the SDK (and of the app's callbacks), so they may arrive
 * in another order. This records the order of the checks and admits each call into the
 * step's hintgate turn only once every call checked before it was admitted or is not
 * coming: conflicting calls then run in the model's order whatever order `execute` is
 * reached in.
 *
 * A step is identified by the message history the SDK hands both the checks and the
 * executes of one step. A call waits only for earlier calls of its own step, stops waiting
 * when its signal aborts, and a call checked but never executed (the app's own approval
 * function overruled the adapter's, the model's response was cut off, a streamed response
 * was retried) is given up on `graceMs` after the last call of the step arrived. A call
 * that reaches `execute` without a check (no `toolApproval` given to the SDK) is admitted
 * at once, in a turn of its own.
 */
export class StepOrder {
  readonly #openTurn: () => Turn;
  readonly #graceMs: number;
  readonly #steps: Step[] = [];

  constructor(openTurn: () => Turn, graceMs: number) {
    this.#openTurn = openTurn;
    this.#graceMs = graceMs;
  }

  /** The open step of this message history, opened now if there is none. */
  step(messages: object): Step {
    const open = this.#steps.find((step) => step.messages === messages);
    if (open !== undefined) return open;
    const step: Step = {
      messages,
      entries: [],
      settled: 0,
      asked: [],
      turn: undefined,
      ids: new Set(),
      timer: undefined,
    };
    this.#steps.push(step);
    if (this.#steps.length > MAX_OPEN_STEPS) this.#close(this.#steps[0] as Step);
    return step;
  }

  /** Records a call whose approval the SDK starts to check, after the step's earlier ones. */
  check(step: Step, callId: string): StepEntry {
    const entry: StepEntry = { callId, state: 'checking', go: undefined };
    step.entries.push(entry);
    return entry;
  }

  /** The check found the call may run (or it was approved): its `execute` comes. */
  expect(entry: StepEntry): void {
    if (entry.state === 'checking') entry.state = 'coming';
  }

  /** The call will not run now: it waits for a person, or its check failed. */
  drop(step: Step, entry: StepEntry): void {
    if (entry.state !== 'checking' && entry.state !== 'coming') return;
    entry.state = 'dropped';
    this.#advance(step);
  }

  /**
   * Admits a call whose `execute` has come, once the calls checked before it in its step
   * were admitted or are not coming, and resolves with its result.
   */
  admit(
    callId: string,
    messages: object,
    signal: AbortSignal | undefined,
    start: StartCall,
  ): Promise<CallResult> {
    const step = this.#steps.find((open) => open.messages === messages);
    const entry = step?.entries.find(
      (candidate) => candidate.callId === callId && candidate.state === 'coming',
    );
    if (step === undefined || entry === undefined) return start(this.#openTurn());
    this.#advance(step);
    if (step.entries[step.settled] === entry || signal?.aborted === true) {
      const result = this.#start(step, entry, start);
      this.#advance(step);
      return result;
    }
    return new Promise<CallResult>((resolve, reject) => {
      const go = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#start(step, entry, start).then(resolve, reject);
      };
      // Cancelled: the call ends `cancelled` in hintgate without running, so it may go first.
      const onAbort = (): void => {
        if (entry.go !== go) return;
        go();
        this.#advance(step);
      };
      entry.go = go;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#arm(step);
    });
  }

  #start(step: Step, entry: StepEntry, start: StartCall): Promise<CallResult> {
    entry.state = 'admitted';
    entry.go = undefined;
    return start(this.#turnOf(step, entry.callId));
  }

  /** Moves past the settled calls at the head of the step, admitting those that wait. */
  #advance(step: Step): void {
    for (;;) {
      const head = step.entries[step.settled];
      if (head === undefined) break;
      if (head.state === 'admitted' || head.state === 'dropped') step.settled += 1;
      else if (head.go !== undefined) head.go();
      else break;
    }
    if (step.timer !== undefined && !step.entries.some((entry) => entry.go !== undefined)) {
      clearTimeout(step.timer);
      step.timer = undefined;
    }
  }

  /** (Re)starts the step's timer: calls that have not come `graceMs` from now never will. */
  #arm(step: Step): void {
    clearTimeout(step.timer);
    step.timer = setTimeout(() => {
      step.timer = undefined;
      this.#giveUp(step);
    }, this.#graceMs);
    step.timer.unref?.();
  }

  /** Drops the calls of the step that did not come, which lets those waiting behind them go. */
  #giveUp(step: Step): void {
    for (const entry of step.entries.slice(step.settled)) {
      if ((entry.state === 'checking' || entry.state === 'coming') && entry.go === undefined) {
        entry.state = 'dropped';
      }
    }
    this.#advance(step);
  }

  #close(step: Step): void {
    this.#giveUp(step);
    clearTimeout(step.timer);
    this.#steps.splice(this.#steps.indexOf(step), 1);
  }

  /** The step's turn; a call id used before in it gets a turn of its own. */
  #turnOf(step: Step, callId: string): Turn {
    if (step.ids.has(callId)) return this.#openTurn();
    step.ids.add(callId);
    step.turn ??= this.#openTurn();
    return step.turn;
  }
}
