import type { BlockedTool, RequiredApproval } from '../registry/index.js';
import type {
  EffectiveHints,
  OpaquePart,
  Tool,
  ToolAnnotations,
  ToolArguments,
  ToolClass,
} from '../tool/index.js';
import type { ApprovalAnswerer, Approver } from './policy-types.js';

/** A validated call, as the policy sees it before it is scheduled. */
export interface CallRequest {
  readonly id: string;
  readonly name: string;
  readonly tool: Tool;
  /** Origin (server) of the tool and whether its annotations are trusted. */
  readonly origin: string;
  readonly trusted: boolean;
  /** Annotations as claimed, and as used (spec defaults for an untrusted origin). */
  readonly claimed: ToolAnnotations;
  readonly effective: EffectiveHints;
  readonly class: ToolClass;
  /** Arguments after validation (defaults applied). */
  readonly arguments: ToolArguments;
  /** Normalized resource keys of the call. */
  readonly resourceKeys: readonly string[];
  /** Identity of an approval for this call; pre-approved only if every key is. */
  readonly approvalKeys: readonly string[];
  /**
   * Parts of the call its tool could not understand (a shell substitution, an unknown
   * runner): with any, no allow rule on keys and no remembered approval covers the call, and
   * one that `hidesCommand` is matched by every deny and ask rule on keys.
   */
  readonly opaque?: readonly OpaquePart[];
  /**
   * Set when every call of the tool needs a person's approval whatever the mode and allow
   * rules say (say, a gateway tool that is not pinned yet): such a call asks, unless denied.
   */
  readonly requireApproval?: RequiredApproval;
  /** Set when the tool is held back: the call is refused at the first step, "visible?". */
  readonly blocked?: BlockedTool;
}

/** What the policy says of one call. */
export interface Decision {
  readonly decision: 'allow' | 'deny' | 'ask';
  /** Why: which rule, mode or annotation decided. Lands in the audit log. */
  readonly reason: string;
  /** For `deny`: what the model is told (defaults to a message built from `reason`). */
  readonly message?: string;
}

/** A call whose decision was `ask`, handed to {@link Authorizer.approve}. */
export interface ApprovalAsk {
  readonly call: CallRequest;
  readonly decision: Decision;
}

/**
 * Whose session a batch belongs to: approvals remembered "for the session" are kept per
 * session. Absent: the runtime's own session. A string names a separate session (one per
 * MCP client connection). `null`: the caller has no session, so nothing is remembered for
 * it and a "session" answer counts once.
 */
export interface DecideContext {
  readonly session?: string | null;
}

/** Options of {@link Authorizer.approve}. */
export interface ApproveOptions extends DecideContext {
  /** The batch's signal. */
  readonly signal?: AbortSignal;
  /**
   * Who to ask for this batch, instead of the configured approver: for example the MCP
   * client that sent the call, through elicitation.
   */
  readonly approver?: Approver;
}

/** The answer to one {@link ApprovalAsk}. */
export interface ApprovalOutcome {
  readonly allow: boolean;
  readonly reason: string;
  /** Who answered and through which channel, for the audit record. */
  readonly answeredBy?: ApprovalAnswerer;
  /** For a refusal: what the model is told. */
  readonly message?: string;
}

/**
 * The policy hook of the runtime. `decide` runs for every valid call of a batch; all
 * `ask` decisions of the batch then go to `approve` at once, before any call of the batch
 * starts, so a person judges the whole turn.
 */
export interface Authorizer {
  decide(call: CallRequest, context?: DecideContext): Decision | Promise<Decision>;
  /**
   * Resolves every `ask` of a batch. Without it an `ask` ends `denied`. Must return one
   * outcome per ask, in order.
   */
  approve?(
    asks: readonly ApprovalAsk[],
    options: ApproveOptions,
  ): Promise<readonly ApprovalOutcome[]>;
}

/** The default policy until one is configured: every call is allowed. */
export const allowAll: Authorizer = {
  decide: () => ({ decision: 'allow', reason: 'no policy configured: every call is allowed' }),
};
