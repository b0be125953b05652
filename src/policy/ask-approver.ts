import type { ApprovalAnswer, ApprovalRequest, Approver } from './policy-types.js';

/** Default time a person has to answer one approval request, in milliseconds. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const formatDuration = (ms: number): string =>
  ms < 1000 ? `${ms} ms` : ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;

/** An approver's answer, or why there is none (it threw, timed out, or answered nonsense). */
export type AskOutcome = { readonly answer: ApprovalAnswer } | { readonly failure: string };

/**
 * Asks the approver about one request, bounded by `timeoutMs` and the batch's signal; the
 * approver's own signal aborts when either ends the wait. Never throws.
 */
export async function askApprover(
  approver: Approver,
  request: ApprovalRequest,
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
): Promise<AskOutcome> {
  const controller = new AbortController();
  let settle: (outcome: AskOutcome) => void = () => {};
  const stopped = new Promise<AskOutcome>((resolve) => {
    settle = resolve;
  });
  const timer = setTimeout(() => {
    controller.abort(new DOMException('approval timed out', 'TimeoutError'));
    settle({ failure: `no answer within ${formatDuration(options.timeoutMs)}` });
  }, options.timeoutMs);
  const onAbort = (): void => {
    controller.abort(options.signal?.reason);
    settle({ failure: 'the batch was cancelled while waiting for approval' });
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const asked = (async (): Promise<AskOutcome> => {
      try {
        const answer = await approver(request, { signal: controller.signal });
        if (answer?.decision !== 'allow' && answer?.decision !== 'deny') {
          return {
            failure: `the approver answered ${JSON.stringify(answer)}, not { decision: "allow" | "deny" }`,
          };
        }
        return { answer };
      } catch (error) {
        return { failure: `the approver failed: ${messageOf(error)}` };
      }
    })();
    return await Promise.race([asked, stopped]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
