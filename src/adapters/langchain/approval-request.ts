import type { CallDecision } from '../../runtime/index.js';

/** A call hintgate's policy asks about, as the model made it. */
export interface AskedCall {
  /** The model's id of the call. */
  readonly id: string;
  /** The tool. */
  readonly name: string;
  /** The arguments as the model gave them. */
  readonly args: Record<string, unknown>;
  /** hintgate's decision on the call (`ask`), with its reason, class and approval keys. */
  readonly decision: CallDecision;
}

/**
 * One call put to the person: what LangChain's human-in-the-loop middleware shows (`name`,
 * `args`, `description`), plus the call's id.
 */
export interface HintgateActionRequest {
  /** The tool. */
  readonly name: string;
  /** The arguments as the model gave them. */
  readonly args: Record<string, unknown>;
  /** Why hintgate asks, the call's class and what an approval would cover. */
  readonly description: string;
  /** The model's id of the call; a decision may name it (see {@link HintgateDecision}). */
  readonly toolCallId: string;
}

/** How one call may be answered: approved or rejected (not edited). */
export interface HintgateReviewConfig {
  /** The tool of the action request at the same position. */
  readonly actionName: string;
  /** The decisions the person may give: `approve` or `reject`. */
  readonly allowedDecisions: readonly ['approve', 'reject'];
}

/**
 * The value of the interrupt by which {@link createHintgateMiddleware} asks a person about
 * the calls of one model message that hintgate's policy asks about. It has the shape of
 * LangChain's `HITLRequest` (what its human-in-the-loop middleware raises), so the same
 * approval UI shows it; answer with a {@link HintgateApprovalResponse}.
 */
export interface HintgateApprovalRequest {
  /** The calls to answer, in the model's order. */
  readonly actionRequests: readonly HintgateActionRequest[];
  /** One per action request, in the same order. */
  readonly reviewConfigs: readonly HintgateReviewConfig[];
  /**
   * Set when the question is asked again: why the last answer was not taken (it did not
   * answer the calls that need approval now, which may have changed while the person
   * decided).
   */
  readonly retry?: string;
}

const describeAsk = ({ decision }: AskedCall): string => {
  const lines = [`Approval needed: ${decision.reason}`];
  if (decision.class !== undefined) {
    lines.push(`Tool: ${decision.name} (${decision.class}, from ${decision.origin ?? 'local'})`);
  }
  if (decision.approvalKeys !== undefined && decision.approvalKeys.length > 0) {
    lines.push(`Covers: ${decision.approvalKeys.join(', ')}`);
  }
  return lines.join('\n');
};

/** The request that asks a person about `asks` (the calls of one message, in the model's order). */
export function approvalRequest(
  asks: readonly AskedCall[],
  retry: string | undefined,
): HintgateApprovalRequest {
  return {
    actionRequests: asks.map((ask) => ({
      name: ask.name,
      args: ask.args,
      description: describeAsk(ask),
      toolCallId: ask.id,
    })),
    reviewConfigs: asks.map((ask) => ({
      actionName: ask.name,
      allowedDecisions: ['approve', 'reject'] as const,
    })),
    ...(retry === undefined ? {} : { retry }),
  };
}
