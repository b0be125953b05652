import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  PROTOCOL_VERSION_META_KEY,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { argumentDigest } from '../../audit/argument-digest.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../policy/policy-types.js';
import { isModernRevision } from '../protocol-revision.js';
import {
  answerFromElicitation,
  approvalForm,
  type ElicitationAnswer,
  NO_APPROVAL_CHANNEL,
  NO_APPROVAL_CHANNEL_WHY,
  supportsFormElicitation,
} from './approval-form.js';

/** Longest delay `setTimeout` honours; the runtime's approval signal is the real limit. */
const MAX_TIMER_MS = 2_147_483_647;

/** Key of the approval in `inputRequests` / `inputResponses`. */
export const APPROVAL_INPUT_KEY = 'hintgate_approval';

/** What an `input_required` round carries to bind the answer to the call it was asked about. */
export interface ApprovalRoundState {
  /** Digest of tool, origin, arguments and approval keys of the call that asked. */
  readonly call: string;
  /** Single-use id of this approval round: an answer is honoured once, never replayed. */
  readonly round: string;
}

const envelopeOf = (ctx: ServerContext): Readonly<Record<string, unknown>> | undefined =>
  ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;

/**
 * Whether a request speaks the 2026-07-28 era: it carries the per-request envelope, or the
 * instance is bound to a 2026+ revision.
 */
export function isModernRequest(server: Server, ctx: ServerContext): boolean {
  if (envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined) return true;
  return isModernRevision(server.getNegotiatedProtocolVersion());
}

/** The capabilities the client declared: per request (2026-07-28) or at initialize (2025). */
export function clientCapabilities(
  server: Server,
  ctx: ServerContext,
): ClientCapabilities | undefined {
  const declared = envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY];
  if (typeof declared === 'object' && declared !== null) return declared as ClientCapabilities;
  return server.getClientCapabilities();
}

/**
 * The approver of a 2025-11-25 session: asks the connected client with a server-initiated
 * `elicitation/create` (form mode) and waits for the person's answer. A client that did
 * not declare form elicitation is not asked: the call is denied, saying why. Without `ctx`
 * (a call of the stdio fast path, which has no SDK request context) it asks through
 * `server` and reads the capabilities declared at `initialize`, as `ctx` does on such a
 * connection.
 */
export function createElicitationApprover(server: Server, ctx?: ServerContext): Approver {
  const options = (signal: AbortSignal) => ({ signal, timeout: MAX_TIMER_MS });
  return createFormApprover(
    () => (ctx === undefined ? server.getClientCapabilities() : clientCapabilities(server, ctx)),
    ctx === undefined
      ? (form, signal) => server.elicitInput(form, options(signal))
      : (form, signal) => ctx.mcpReq.elicitInput(form, options(signal)),
  );
}

/** Sends one `elicitation/create` form request to the client and resolves to its answer. */
export type ElicitForm = (
  form: ElicitRequestFormParams,
  signal: AbortSignal,
) => Promise<ElicitationAnswer>;

/**
 * The approver of a client that is asked with `elicitation/create` through `elicit`, when
 * `capabilities` say it can show a form; a client that cannot is not asked, and the call
 * is denied, saying why.
 */
export function createFormApprover(
  capabilities: () => ClientCapabilities | undefined,
  elicit: ElicitForm,
): Approver {
  return async (request, { signal }) => {
    if (!supportsFormElicitation(capabilities())) {
      return { decision: 'deny', reason: NO_APPROVAL_CHANNEL, asked: false };
    }
    return answerFromElicitation(await elicit(approvalForm(request), signal));
  };
}

/**
 * The approver, with `advice` for the call appended to a denial made because the client
 * cannot ask its user ({@link NO_APPROVAL_CHANNEL}): the ways to let that call run.
 */
export function withUnapprovableAdvice(
  approver: Approver,
  advice: (request: ApprovalRequest) => string | undefined,
): Approver {
  const advise = (request: ApprovalRequest, answer: ApprovalAnswer): ApprovalAnswer => {
    if (answer.decision !== 'deny' || answer.reason !== NO_APPROVAL_CHANNEL) return answer;
    let text: string | undefined;
    try {
      text = advice(request);
    } catch {
      text = undefined;
    }
    if (text === undefined || text === '') return answer;
    return { ...answer, reason: `${NO_APPROVAL_CHANNEL_WHY}. ${text.replace(/\.$/, '')}` };
  };
  return (request, options) => {
    const answer = approver(request, options);
    return answer instanceof Promise
      ? answer.then((value) => advise(request, value))
      : advise(request, answer);
  };
}

/** Digest that ties an approval answer to the exact call it was asked about. */
const callDigest = (request: ApprovalRequest): string =>
  argumentDigest({
    tool: request.tool.name,
    origin: request.origin,
    arguments: request.arguments,
    keys: request.approvalKeys,
  });

/** The approver of one 2026-07-28 request and what it left to ask. */
export interface InputRequiredApproval {
  readonly approver: Approver;
  /**
   * After the batch: the `input_required` result that asks the client for the approval
   * this round could not answer, or `undefined` when nothing is left to ask.
   */
  pending(): Promise<InputRequiredResult | undefined>;
}

/**
 * The approver of a 2026-07-28 request, where the server cannot push a request to the
 * client: the answer comes with the client's retry of the call (`inputResponses`), bound
 * to the call by an integrity-protected `requestState`. On the first round the approver
 * records what to ask and denies for now (the call does not run); {@link
 * InputRequiredApproval.pending} then turns that into the `input_required` result. A
 * retry whose arguments differ from those approved is asked again, and so is a replay of an
 * answer already used: each round's answer is honoured once.
 */
export function createInputRequiredApproval(
  server: Server,
  ctx: ServerContext,
  codec: RequestStateCodec<ApprovalRoundState>,
  consume: (round: string) => boolean,
): InputRequiredApproval {
  const state = ctx.mcpReq.requestState<ApprovalRoundState>();
  const response = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT_KEY);
  let asked: ApprovalRequest | undefined;
  const approver: Approver = (request) => {
    const digest = callDigest(request);
    if (state?.call === digest && response.kind === 'elicit' && consume(state.round)) {
      return answerFromElicitation(response);
    }
    if (!supportsFormElicitation(clientCapabilities(server, ctx))) {
      return { decision: 'deny', reason: NO_APPROVAL_CHANNEL, asked: false };
    }
    if (asked !== undefined) {
      // One call per tools/call, so one approval per round; a second would be a bug of ours.
      return { decision: 'deny', reason: 'only one approval can be asked per request' };
    }
    asked = request;
    return {
      decision: 'deny',
      reason:
        'approval pending: asked from the MCP client through input_required; the call runs when the client retries it with an approval',
      asked: false,
    };
  };
  return {
    approver,
    async pending() {
      if (asked === undefined) return undefined;
      return inputRequired({
        inputRequests: { [APPROVAL_INPUT_KEY]: inputRequired.elicit(approvalForm(asked)) },
        requestState: await codec.mint({ call: callDigest(asked), round: randomUUID() }, ctx),
      });
    },
  };
}
