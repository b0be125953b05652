import type { ToolApprovalResponse } from 'ai';
import { HintgateError } from '../../errors/index.js';
import type { RememberScope } from '../../policy/index.js';
import { isPlainObject } from '../../tool/index.js';

/** Options of {@link approvalResponse}. */
export interface ApprovalResponseOptions {
  /** The `approvalId` of the `tool-approval-request` being answered. */
  readonly approvalId: string;
  /** The person's answer. */
  readonly approved: boolean;
  /**
   * For an approval, how long hintgate remembers it: `once` (this call), `session` (this
   * tool and these approval keys for the session), `always` (in the runtime's
   * `approvalsFile`). Default: the adapter's `remember` option.
   */
  readonly remember?: RememberScope;
  /** Why, for the audit log; for a denial the model reads it too. */
  readonly reason?: string;
}

/** A `tool-approval-response` part that also says how long hintgate remembers the approval. */
export type HintgateApprovalResponse = ToolApprovalResponse & { readonly remember?: RememberScope };

const KEYS = new Set(['approvalId', 'approved', 'remember', 'reason']);

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `approvalResponse: ${message}`);
};

/**
 * The answer to an AI SDK tool approval request, as the `tool-approval-response` part to put
 * into a `tool` message, with `remember` for hintgate: the AI SDK's own type has no field
 * for how long an approval holds, and keeps this one in the history for the adapter to read.
 *
 * @throws HintgateError `invalid_option` for a missing id, a non-boolean answer, an unknown
 * `remember` or a reason that is not a string.
 */
export function approvalResponse(options: ApprovalResponseOptions): HintgateApprovalResponse {
  if (!isPlainObject(options)) invalid('expects one options object { approvalId, approved }.');
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) invalid(`unknown option "${key}". Known options: ${[...KEYS].join(', ')}.`);
  }
  const { approvalId, approved, remember, reason } = options;
  if (typeof approvalId !== 'string' || approvalId === '') {
    invalid('approvalId must be the approvalId of the tool-approval-request being answered.');
  }
  if (typeof approved !== 'boolean') invalid('approved must be true or false.');
  if (remember !== undefined && !['once', 'session', 'always'].includes(remember)) {
    invalid(`remember must be 'once', 'session' or 'always', not ${JSON.stringify(remember)}.`);
  }
  if (reason !== undefined && typeof reason !== 'string') invalid('reason must be a string.');
  return {
    type: 'tool-approval-response',
    approvalId,
    approved,
    ...(reason === undefined ? {} : { reason }),
    ...(remember === undefined ? {} : { remember }),
  };
}
