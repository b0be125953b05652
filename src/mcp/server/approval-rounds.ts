import { randomBytes, randomUUID } from 'node:crypto';
import {
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { argumentDigest } from '../../audit/index.js';
import type { ApprovalRequest } from '../../policy/index.js';

/** What an `input_required` round carries to bind the answer to the call it was asked about. */
export interface ApprovalRoundState {
  /** Digest of tool, origin, arguments and approval keys of the call that asked. */
  readonly call: string;
  /** Single-use id of this approval round: an answer is honoured once, never replayed. */
  readonly round: string;
}

/** Options of {@link createApprovalRounds}. */
export interface ApprovalRoundsOptions {
  /** Secret that signs the rounds' state (at least 32 bytes). Default: random. */
  readonly key?: Uint8Array | string;
  /** How long a client has to answer a round, in seconds. Default 600. */
  readonly ttlSeconds?: number;
  /** Current time in ms, for the expiry of used rounds. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * Marks a round used where every process serving the endpoint sees it (such as
   * `SharedState.useOnce`): resolves true the first time. Default: remembered in this
   * process, which suits one process serving every round.
   */
  readonly useOnce?: (round: string, ttlMs: number) => Promise<boolean>;
}

/** The `input_required` approval rounds of one tool server; see {@link createApprovalRounds}. */
export interface ApprovalRounds {
  /** Signs and verifies the rounds' state; the SDK's `requestState.verify` is its `verify`. */
  readonly codec: RequestStateCodec<ApprovalRoundState>;
  /** The state minted for `request`'s call, as a new single-use round. */
  mint(request: ApprovalRequest, ctx: ServerContext): Promise<string>;
  /**
   * Whether `state` answers `request`'s call and its round was not used before (the round
   * is marked used): an answer is honoured once, for the exact call it was asked about.
   */
  redeem(
    state: ApprovalRoundState | undefined,
    request: ApprovalRequest,
  ): boolean | Promise<boolean>;
}

/** Digest that ties an approval answer to the exact call it was asked about. */
const callDigest = (request: ApprovalRequest): string =>
  argumentDigest({
    tool: request.tool.name,
    origin: request.origin,
    arguments: request.arguments,
    keys: request.approvalKeys,
  });

/**
 * The approval rounds of the 2026-07-28 era, where the server cannot push a request to the
 * client: the question goes out as `input_required` with an integrity-protected
 * `requestState` bound to the call (its tool, origin, arguments and approval keys) and to
 * the principal it was minted for, and the answer comes with the client's retry. Each
 * round's answer is honoured once; a replay is asked again.
 */
export function createApprovalRounds(options: ApprovalRoundsOptions = {}): ApprovalRounds {
  const ttlSeconds = options.ttlSeconds ?? 600;
  const now = options.now ?? Date.now;
  const codec = createRequestStateCodec<ApprovalRoundState>({
    key: options.key ?? randomBytes(32),
    ttlSeconds,
    // The state is good for tools/call from the principal it was minted for.
    bind: (ctx) => `${ctx.mcpReq.method}\u0000${ctx.http?.authInfo?.clientId ?? ''}`,
  });
  const used = new Map<string, number>();
  return {
    codec,
    mint: (request, ctx) => codec.mint({ call: callDigest(request), round: randomUUID() }, ctx),
    redeem(state, request) {
      if (state === undefined || state.call !== callDigest(request)) return false;
      if (options.useOnce !== undefined)
        return options.useOnce(`round:${state.round}`, ttlSeconds * 1000);
      const at = now();
      for (const [id, expires] of used) if (expires <= at) used.delete(id);
      if (used.has(state.round)) return false;
      used.set(state.round, at + ttlSeconds * 1000);
      return true;
    },
  };
}
