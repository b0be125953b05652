import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type {
  ApprovalAnswer,
  ApprovalAnswerer,
  ApprovalRequest,
  Approver,
} from '../../policy/index.js';
import { NO_APPROVAL_CHANNEL } from './approval-form.js';

/**
 * One way to put a call's approval to a person: a server-initiated `elicitation/create`
 * (2025-11-25), an `input_required` round (2026-07-28), and later others (a web console).
 * The `tools/call` handler offers a call to every channel that can reach a person at once;
 * the first answer wins and the others are withdrawn (their signal aborts).
 */
export interface ApprovalChannel {
  /** Recorded in the audit log as the channel of the answer (`answeredBy.channel`). */
  readonly name: ApprovalAnswerer['channel'];
  /** Whether this channel can reach a person for this call (the client declared the means). */
  canAsk(): boolean;
  /**
   * Asks about `request`. Resolves to the answer, or to `undefined` when the answer cannot
   * come within this request (an `input_required` round: the client answers with its
   * retry; see {@link ApprovalChannel.settle}). `signal` aborts when another channel
   * answered or the call ended; the question is then withdrawn.
   */
  ask(
    request: ApprovalRequest,
    signal: AbortSignal,
  ): ApprovalAnswer | undefined | Promise<ApprovalAnswer | undefined>;
  /**
   * Once the call is over: what to answer the request with instead of the call's result,
   * when this channel deferred the question and no other channel answered it (the
   * `input_required` result). Default: nothing.
   */
  settle?(): Promise<InputRequiredResult | undefined>;
}

/** Why a call waits for an answer that comes with the client's retry. */
const deferredReason = (names: readonly string[]): string =>
  `approval pending: asked from the MCP client through ${names.join(' and ')}; the call runs when the client retries it with an approval`;

/**
 * The approver of one call over `channels`: the ones that can reach a person are asked
 * together, the first answer wins and the others are withdrawn; each answer is stamped with
 * its channel and `who` (the client's name) for the audit log. When every channel deferred
 * its question, the call is denied for now (`asked: false`, the reason says the approval is
 * pending) and a channel's {@link ApprovalChannel.settle} carries the question to the
 * client. When no channel can reach a person, the call is denied, saying why.
 */
export function approverOf(channels: readonly ApprovalChannel[], who?: string): Approver {
  return (request, { signal }) => {
    const open = channels.filter((channel) => channel.canAsk());
    if (open.length === 0) {
      return {
        decision: 'deny',
        reason: NO_APPROVAL_CHANNEL,
        asked: false,
        answeredBy: { channel: 'none' },
      };
    }
    const stamp = (answer: ApprovalAnswer, channel: ApprovalChannel): ApprovalAnswer =>
      answer.answeredBy !== undefined
        ? answer
        : {
            ...answer,
            answeredBy: { channel: channel.name, ...(who === undefined ? {} : { who }) },
          };
    // One question per channel, each withdrawn on its own: the winner's stays answered.
    const questions = open.map(() => new AbortController());
    const withdraw = (reason: unknown, except?: number): void => {
      questions.forEach((question, index) => {
        if (index !== except) question.abort(reason);
      });
    };
    const onAbort = (): void => withdraw(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal.removeEventListener('abort', onAbort);
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      let left = open.length;
      const deferred: ApprovalChannel[] = [];
      let settled = false;
      const answered = (
        index: number,
        channel: ApprovalChannel,
        answer: ApprovalAnswer | undefined,
      ): void => {
        if (settled) return;
        left -= 1;
        if (answer === undefined) deferred.push(channel);
        else {
          settled = true;
          done();
          withdraw(new Error(`answered through ${channel.name}`), index);
          resolve(stamp(answer, channel));
          return;
        }
        if (left > 0) return;
        settled = true;
        done();
        const first = deferred[0] as ApprovalChannel;
        resolve(
          stamp(
            {
              decision: 'deny',
              reason: deferredReason(deferred.map((c) => c.name)),
              asked: false,
            },
            first,
          ),
        );
      };
      const failed = (error: unknown): void => {
        if (settled) return;
        settled = true;
        done();
        withdraw(error);
        reject(error);
      };
      for (const [index, channel] of open.entries()) {
        try {
          const answer = channel.ask(request, (questions[index] as AbortController).signal);
          if (answer instanceof Promise) {
            answer.then((value) => answered(index, channel, value), failed);
          } else answered(index, channel, answer);
        } catch (error) {
          failed(error);
        }
      }
    });
  };
}
