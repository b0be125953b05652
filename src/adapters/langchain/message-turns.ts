import type { Turn } from '../../runtime/index.js';
import type { CallResult } from '../../tool/index.js';

/** Where a call stands in the model message that holds it. */
export interface StepPlace {
  /** The same for every call of one message, and differs between messages. */
  readonly key: string;
  /**
   * Ids of the message's calls that come to these tools, in the model's order; asked once,
   * when the first call of the message comes.
   */
  order(): readonly string[];
}

/** Starts a call in the given turn. */
export type StartCall = (turn: Turn) => Promise<CallResult>;

/** The calls of one model message on their way into hintgate. */
interface Step {
  readonly key: string | undefined;
  readonly order: readonly string[];
  /** Where each id is first in `order`. */
  readonly positions: ReadonlyMap<string, number>;
  /** Index in `order` of the first call neither admitted nor given up. */
  next: number;
  /** Calls that came before an earlier call of the message: they start once it came. */
  readonly waiting: Map<string, () => void>;
  /** Ids admitted into the step's turn (unique within it). */
  readonly admitted: Set<string>;
  /** The step's hintgate turn, opened when its first call is admitted. */
  turn: Turn | undefined;
  closed: boolean;
}

const noop = (): void => {};

/**
 * Takes the calls of one model message into one hintgate turn, in the model's order.
 *
 * LangChain runs the tool calls of a message together, each through its own tool (and
 * through the `wrapToolCall` middleware, which may await something first), so they reach
 * the tools one by one, normally in the model's order. A call that comes before an earlier
 * call of its message waits for it, so that calls that conflict run in the model's order.
 * A call that has not come by the end of the current turn of the event loop is taken as not
 * coming (the framework refused its arguments, or a middleware answered it without running
 * it): the calls waiting for it then start, in the model's order. Calls without a known
 * message (a tool invoked by hand) share a turn with the calls that come in the same turn of
 * the event loop, in the order they come.
 */
export class MessageTurns {
  readonly #openTurn: () => Turn;
  readonly #defer: (run: () => void) => void;
  readonly #steps = new Map<string, Step>();
  #loose: Step | undefined;
  /** Steps not closed yet, all closed at the end of the current turn of the event loop. */
  readonly #open = new Set<Step>();
  #sweepDue = false;

  /**
   * @param openTurn Opens a hintgate turn.
   * @param defer Runs a function at the end of the current turn of the event loop. Default
   *   `setImmediate`.
   */
  constructor(openTurn: () => Turn, defer: (run: () => void) => void = setImmediate) {
    this.#openTurn = openTurn;
    this.#defer = defer;
  }

  /** Admits a call in its message's turn, once the calls before it came, and gives its result. */
  run(callId: string, place: StepPlace | undefined, start: StartCall): Promise<CallResult> {
    const step = place === undefined ? this.#looseStep() : this.#step(place);
    if (step.admitted.has(callId) || step.waiting.has(callId)) {
      // The same id twice in one message (or once more after it was admitted): a turn of its own.
      return this.#alone(start);
    }
    const index = step.positions.get(callId) ?? -1;
    if (index === -1 || index <= step.next) {
      const result = this.#admit(step, callId, start);
      if (index === step.next) this.#advance(step);
      return result;
    }
    return new Promise<CallResult>((resolve, reject) => {
      step.waiting.set(callId, () => {
        this.#admit(step, callId, start).then(resolve, reject);
      });
    });
  }

  #admit(step: Step, callId: string, start: StartCall): Promise<CallResult> {
    step.admitted.add(callId);
    try {
      step.turn ??= this.#openTurn();
      return start(step.turn);
    } catch (error) {
      // A closed runtime throws when the turn opens: this call gets the error, and the calls
      // waiting behind it are still admitted (and get theirs).
      return Promise.reject(error);
    }
  }

  /** Moves past the head calls of the step that were admitted, admitting those that wait. */
  #advance(step: Step): void {
    for (;;) {
      const head = step.order[step.next];
      if (head === undefined) {
        this.#close(step);
        return;
      }
      const waiting = step.waiting.get(head);
      if (waiting !== undefined) {
        step.waiting.delete(head);
        step.next += 1;
        waiting();
      } else if (step.admitted.has(head)) {
        step.next += 1;
      } else {
        return;
      }
    }
  }

  /** Ends the step: calls that have not come are not coming, and those waiting go now. */
  #close(step: Step): void {
    if (step.closed) return;
    step.closed = true;
    this.#open.delete(step);
    if (step.key !== undefined && this.#steps.get(step.key) === step) this.#steps.delete(step.key);
    if (this.#loose === step) this.#loose = undefined;
    const waiting = step.order.flatMap((id) => {
      const admit = step.waiting.get(id);
      return admit === undefined ? [] : [admit];
    });
    step.waiting.clear();
    step.next = step.order.length;
    for (const admit of waiting) admit();
    step.turn?.end().catch(noop);
  }

  #step(place: StepPlace): Step {
    const open = this.#steps.get(place.key);
    if (open !== undefined) return open;
    const step = this.#newStep(place.key, place.order());
    this.#steps.set(place.key, step);
    return step;
  }

  #looseStep(): Step {
    this.#loose ??= this.#newStep(undefined, []);
    return this.#loose;
  }

  #newStep(key: string | undefined, order: readonly string[]): Step {
    const positions = new Map<string, number>();
    order.forEach((id, index) => {
      if (!positions.has(id)) positions.set(id, index);
    });
    const step: Step = {
      key,
      order,
      positions,
      next: 0,
      waiting: new Map(),
      admitted: new Set(),
      turn: undefined,
      closed: false,
    };
    this.#open.add(step);
    if (!this.#sweepDue) {
      // One deferred sweep for all steps of this turn of the event loop, not one per step.
      this.#sweepDue = true;
      this.#defer(() => {
        this.#sweepDue = false;
        for (const open of [...this.#open]) this.#close(open);
      });
    }
    return step;
  }

  /** Runs a call in a turn of its own. */
  #alone(start: StartCall): Promise<CallResult> {
    const turn = this.#openTurn();
    const result = start(turn);
    turn.end().catch(noop);
    return result;
  }
}
