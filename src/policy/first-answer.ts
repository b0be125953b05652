import { HintgateError } from '../errors/index.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from './policy-types.js';

/** Options of {@link firstAnswer}. */
export interface FirstAnswerOptions {
  /**
   * Whether an answer only says that its channel cannot ask anyone (an MCP client without
   * form elicitation): such an answer does not end the wait while another channel may still
   * answer. Default: a denial with `asked: false`.
   */
  readonly unavailable?: (answer: ApprovalAnswer) => boolean;
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const defaultUnavailable = (answer: ApprovalAnswer): boolean =>
  answer.decision === 'deny' && answer.asked === false;

/**
 * One approver over several approval channels (the MCP client's form, the web console, a
 * terminal): each request is offered to every channel at once and the first answer wins;
 * the others are withdrawn (their signal aborts, with the reason "answered elsewhere").
 * A channel that answers at once without a promise (an answer already at hand, such as a
 * 2026-07-28 retry that carries it) wins before the later channels are asked at all.
 *
 * An answer that says its channel cannot ask anyone ({@link FirstAnswerOptions.unavailable})
 * is no answer while another channel may still give one: the request then waits for the
 * others. When every channel is unavailable, the first channel's answer stands, so the
 * reason the client could not be asked still reaches the model. A channel that throws or
 * rejects counts as unavailable, and when every channel failed the request is denied with
 * their reasons. The runtime's approval timeout and the batch's signal bound the wait as
 * for any approver.
 *
 * @throws HintgateError `invalid_option` when `channels` is empty or holds a non-function.
 */
export function firstAnswer(
  channels: readonly Approver[],
  options: FirstAnswerOptions = {},
): Approver {
  if (!Array.isArray(channels) || channels.length === 0) {
    throw new HintgateError(
      'invalid_option',
      'firstAnswer expects a non-empty array of approvers (request, { signal }) => answer.',
    );
  }
  channels.forEach((channel, index) => {
    if (typeof channel !== 'function') {
      throw new HintgateError(
        'invalid_option',
        `firstAnswer: channels[${index}] is not a function; pass approvers (request, { signal }) => answer.`,
      );
    }
  });
  const unavailable = options.unavailable ?? defaultUnavailable;
  const list = [...channels];
  if (list.length === 1) return list[0] as Approver;
  return (request: ApprovalRequest, { signal }) => {
    const controller = new AbortController();
    const withdraw = (): void => {
      if (!controller.signal.aborted) {
        controller.abort(new DOMException('answered elsewhere', 'AbortError'));
      }
    };
    const onAbort = (): void => controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => signal.removeEventListener('abort', onAbort);

    // Per channel: its answer at hand or its promise; unavailable answers kept in order.
    const pending: { readonly index: number; readonly answer: Promise<ApprovalAnswer> }[] = [];
    const fallbacks: (ApprovalAnswer | undefined)[] = list.map(() => undefined);
    const failures: string[] = [];
    for (const [index, channel] of list.entries()) {
      let answer: ApprovalAnswer | Promise<ApprovalAnswer>;
      try {
        answer = channel(request, { signal: controller.signal });
      } catch (error) {
        failures.push(messageOf(error));
        continue;
      }
      if (answer instanceof Promise) {
        pending.push({ index, answer });
      } else if (!unavailable(answer)) {
        // Answered at hand: the channels after it are never asked.
        withdraw();
        cleanup();
        for (const promise of pending) promise.answer.catch(() => {});
        return answer;
      } else {
        fallbacks[index] = answer;
      }
    }
    return new Promise<ApprovalAnswer>((resolve) => {
      let open = pending.length;
      let done = false;
      const finish = (answer: ApprovalAnswer): void => {
        if (done) return;
        done = true;
        withdraw();
        cleanup();
        resolve(answer);
      };
      const settleIfLast = (): void => {
        if (open > 0 || done) return;
        const first = fallbacks.find((answer) => answer !== undefined);
        finish(
          first ?? {
            decision: 'deny',
            reason: `no approval channel could answer: ${failures.join('; ')}`,
          },
        );
      };
      for (const { index, answer: promise } of pending) {
        promise.then(
          (answer) => {
            open -= 1;
            if (answer === null || typeof answer !== 'object') {
              failures.push(`a channel answered ${JSON.stringify(answer)}`);
            } else if (unavailable(answer)) {
              fallbacks[index] = answer;
            } else {
              finish(answer);
              return;
            }
            settleIfLast();
          },
          (error: unknown) => {
            open -= 1;
            if (!done) failures.push(messageOf(error));
            settleIfLast();
          },
        );
      }
      settleIfLast();
    });
  };
}
