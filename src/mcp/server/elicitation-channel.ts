import type {
  ClientCapabilities,
  ElicitRequestFormParams,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { ApprovalChannel } from './approval-channel.js';
import {
  answerFromElicitation,
  approvalForm,
  type ElicitationAnswer,
  supportsFormElicitation,
} from './approval-form.js';
import { clientCapabilities } from './request-era.js';

/** Longest delay `setTimeout` honours; the runtime's approval signal is the real limit. */
const MAX_TIMER_MS = 2_147_483_647;

/** How an elicitation channel reaches the client. */
export interface ElicitationChannelOptions {
  /** What the client declared it can do (form elicitation is needed). */
  readonly capabilities: () => ClientCapabilities | undefined;
  /** Sends one `elicitation/create` form request and resolves to the client's answer. */
  readonly elicit: (
    form: ElicitRequestFormParams,
    signal: AbortSignal,
  ) => Promise<ElicitationAnswer>;
}

/**
 * The approval channel of a 2025-11-25 connection: an `elicitation/create` (form mode) sent
 * to the client through `elicit`, answered by the person at the client. Open when the
 * client declared form elicitation.
 */
export function createElicitationChannel(options: ElicitationChannelOptions): ApprovalChannel {
  return {
    name: 'elicitation',
    canAsk: () => supportsFormElicitation(options.capabilities()),
    async ask(request, signal) {
      return answerFromElicitation(await options.elicit(approvalForm(request), signal));
    },
  };
}

/**
 * The elicitation channel of a request to `server`: related to the request when its
 * context `ctx` is at hand (the SDK's dispatch), else a request of `server` itself (a call
 * a transport layer read past the dispatch, on a 2025-11-25 connection).
 */
export function elicitationThrough(server: Server, ctx?: ServerContext): ApprovalChannel {
  const options = (signal: AbortSignal) => ({ signal, timeout: MAX_TIMER_MS });
  return createElicitationChannel(
    ctx === undefined
      ? {
          capabilities: () => server.getClientCapabilities(),
          elicit: (form, signal) => server.elicitInput(form, options(signal)),
        }
      : {
          capabilities: () => clientCapabilities(server, ctx),
          elicit: (form, signal) => ctx.mcpReq.elicitInput(form, options(signal)),
        },
  );
}
