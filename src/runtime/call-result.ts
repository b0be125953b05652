import type { CallErrorCode, CallResult, CallStatus } from '../tool/index.js';

const STATUS_OF: Readonly<Record<CallErrorCode, CallStatus>> = {
  unknown_tool: 'error',
  invalid_arguments: 'error',
  denied: 'denied',
  rate_limited: 'error',
  timeout: 'timeout',
  cancelled: 'cancelled',
  tool_error: 'error',
  upstream_unavailable: 'error',
  shared_state_unavailable: 'error',
};

/** Timing and attempts of a call that did not succeed. */
export interface FailureFacts {
  readonly attempts?: number;
  readonly queuedMs?: number;
  readonly runMs?: number;
}

/** A failed call's result: one text block for the model, and the typed error. */
export function failedResult(
  call: { readonly id: string; readonly name: string },
  code: CallErrorCode,
  message: string,
  facts: FailureFacts = {},
): CallResult {
  return {
    id: call.id,
    name: call.name,
    status: STATUS_OF[code],
    isError: true,
    content: [{ type: 'text', text: message }],
    error: { code, message },
    attempts: facts.attempts ?? 0,
    queuedMs: facts.queuedMs ?? 0,
    runMs: facts.runMs ?? 0,
  };
}

/** The result of a call that failed because of a bug of ours: never left waiting for ever. */
export function failedInside(
  call: { readonly id: string; readonly name: string },
  error: unknown,
  facts: FailureFacts = {},
): CallResult {
  const reason = error instanceof Error ? error.message : String(error);
  return failedResult(
    call,
    'tool_error',
    `Tool "${call.name}" failed inside hintgate: ${reason}.`,
    facts,
  );
}
