import { askApprover, DEFAULT_APPROVAL_TIMEOUT_MS } from './ask-approver.js';
import type {
  ApprovalAsk,
  ApprovalOutcome,
  Authorizer,
  CallRequest,
  Decision,
} from './authorizer.js';
import { checkPolicy } from './check-policy.js';
import { type CompiledRule, compileRules, describeRule } from './compiled-rule.js';
import { decideCall } from './decide-call.js';
import { type NamedSubject, nameOnOrigin } from './name-on-origin.js';
import {
  type ApprovalKeyNote,
  type Approver,
  DEFAULT_MODE,
  type Mode,
  type PolicyRule,
} from './policy-types.js';
import { SessionApprovals } from './session-approvals.js';

/** Approvals remembered across runs (`remember: 'always'`), e.g. an approvals file. */
export interface PersistentApprovals {
  /** Where they are kept, for messages. */
  readonly path: string;
  hasAll(tool: string, keys: readonly string[]): Promise<boolean>;
  add(tool: string, keys: readonly string[], reason?: string): Promise<void>;
}

/**
 * The identity approvals are remembered under, `<origin>:<name on origin>`: the tool's
 * origin and its name there, not the name it is offered under. So an approval never
 * carries over to another origin's tool that shadows or takes the name, and holds for a
 * gateway tool whether it is offered prefixed (`github__search`) or not.
 */
export function qualified(call: Pick<CallRequest, 'name' | 'origin'> & NamedSubject): string {
  return `${call.origin}:${nameOnOrigin(call)}`;
}

/**
 * What a session remembers approvals of a call under: {@link qualified}, and for a tool
 * that requires approval, apart from the tool's other approvals and per `version`, so that
 * an approval of one definition does not carry over to the next.
 */
const sessionIdentity = (call: CallRequest): string => {
  const required = call.requireApproval;
  if (required === undefined) return qualified(call);
  return `${qualified(call)}\u0000required\u0000${required.version ?? ''}`;
};

/** True when the call has parts its tool could not understand. */
const isOpaque = (call: CallRequest): boolean => (call.opaque?.length ?? 0) > 0;

/** What one session keeps: its remembered approvals and its queue of prompts. */
interface SessionState {
  /** The session's name (`''` for callers that name none). */
  readonly id: string;
  readonly approvals: SessionApprovals;
  queue: Promise<unknown>;
}

/** Options of {@link createPolicy}. */
export interface PolicyOptions {
  /** Default `ask`. */
  readonly mode?: Mode;
  /** Rules as plain data; checked like a policy file. */
  readonly rules?: readonly PolicyRule[];
  /** Asks a person. Without one, every call that needs approval is denied. */
  readonly approver?: Approver;
  /** Where `always` approvals are kept. Without it, `always` counts as `session`. */
  readonly approvals?: PersistentApprovals;
  /** Time a person has to answer one request, in ms. Default 300000 (5 minutes). */
  readonly approvalTimeoutMs?: number;
  /**
   * Session approvals shared with other processes (gateway replicas on one store): a
   * session's approval given on one is honoured on the others. Each process still keeps
   * its own, so a call it approved itself never waits for the store.
   */
  readonly sharedSessions?: SharedSessionApprovals;
}

/** Session approvals kept where several processes see them; see {@link PolicyOptions.sharedSessions}. */
export interface SharedSessionApprovals {
  /** Where they are kept, for messages. */
  readonly path: string;
  hasAll(session: string, tool: string, keys: readonly string[]): Promise<boolean>;
  add(session: string, tool: string, keys: readonly string[], reason: string): Promise<void>;
}

/** The policy engine as the runtime's {@link Authorizer}, with its mode and memory. */
export interface PolicyAuthorizer extends Authorizer {
  /** The current mode. */
  readonly mode: Mode;
  /** Switches the mode for calls decided from now on. */
  setMode(mode: Mode): void;
  /** Approvals remembered for the default session (callers that name none). */
  readonly session: SessionApprovals;
  /** Forgets a named session's approvals (its client went away). */
  forgetSession(session: string): void;
}

const HOW_TO_ALLOW =
  'To run it, approve it when asked, add an allow rule for it, or choose a mode that runs it';
const NO_APPROVER = `approval is required but no approver is configured. ${HOW_TO_ALLOW}`;

/**
 * Creates the policy engine: decisions from mode, rules and annotations, remembered
 * approvals (per session, and persistent), and the approver for the rest. Approvals of one
 * batch are asked one after another, and batches of one session never ask at the same time,
 * so a person sees one request at a time; sessions (say, two MCP clients) neither share
 * approvals nor wait for each other.
 *
 * @throws HintgateError `invalid_policy` for a bad mode or rule.
 */
export function createPolicy(options: PolicyOptions = {}): PolicyAuthorizer {
  const checked = checkPolicy({
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.rules === undefined ? {} : { rules: options.rules }),
  });
  let mode: Mode = checked.mode ?? DEFAULT_MODE;
  const rules: readonly CompiledRule[] = compileRules(checked.rules ?? []);
  const sessions = new Map<string, SessionState>();
  const timeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const { approver, approvals, sharedSessions } = options;

  /** The memory and prompt queue of a session; `null` keeps none. */
  const sessionState = (session: string | null | undefined): SessionState | undefined => {
    if (session === null) return undefined;
    const id = session ?? '';
    let state = sessions.get(id);
    if (state === undefined) {
      state = { id, approvals: new SessionApprovals(), queue: Promise.resolve() };
      sessions.set(id, state);
    }
    return state;
  };

  const remembered = async (
    call: CallRequest,
    state: SessionState | undefined,
  ): Promise<string | undefined> => {
    // Keys cannot speak for what the tool could not read: such a call is asked every time.
    if (isOpaque(call)) return undefined;
    if (state?.approvals.hasAll(sessionIdentity(call), call.approvalKeys)) {
      return 'approved earlier in this session';
    }
    if (
      state !== undefined &&
      sharedSessions !== undefined &&
      (await sharedSessions
        .hasAll(state.id, sessionIdentity(call), call.approvalKeys)
        // Unreachable: nothing counts as remembered, so a person is asked.
        .catch(() => false))
    ) {
      return `approved earlier in this session (shared in ${sharedSessions.path})`;
    }
    if (
      approvals !== undefined &&
      call.requireApproval === undefined &&
      (await approvals.hasAll(qualified(call), call.approvalKeys))
    ) {
      return `approved always for this project (${approvals.path})`;
    }
    return undefined;
  };

  const remember = async (
    call: CallRequest,
    scope: string | undefined,
    why: string,
    state: SessionState | undefined,
  ): Promise<string> => {
    if (scope !== 'session' && scope !== 'always') return why;
    if (isOpaque(call)) return `${why}; not remembered: the call is not fully understood`;
    state?.approvals.add(sessionIdentity(call), call.approvalKeys);
    let sessionNote =
      state === undefined
        ? 'not remembered: this caller has no session'
        : 'remembered for this session';
    if (state !== undefined && sharedSessions !== undefined) {
      try {
        await sharedSessions.add(state.id, sessionIdentity(call), call.approvalKeys, why);
      } catch (error) {
        sessionNote = `remembered for this session here only: could not share it in ${sharedSessions.path} (${(error as Error).message})`;
      }
    }
    if (scope === 'session') return `${why}; ${sessionNote}`;
    if (call.requireApproval !== undefined) {
      return `${why}; ${sessionNote} only: this tool requires approval, which is not remembered for the project`;
    }
    if (approvals === undefined) return `${why}; ${sessionNote} (no approvals file is configured)`;
    try {
      await approvals.add(qualified(call), call.approvalKeys, why);
      return `${why}; remembered always in ${approvals.path}`;
    } catch (error) {
      return `${why}; ${sessionNote}: could not write ${approvals.path} (${(error as Error).message})`;
    }
  };

  /** Per key, what covers it already: an allow rule, the session, the project. */
  const keyNotes = async (
    call: CallRequest,
    state: SessionState | undefined,
  ): Promise<ApprovalKeyNote[]> => {
    const notes: ApprovalKeyNote[] = [];
    for (const key of call.approvalKeys) {
      const alone = { ...call, approvalKeys: [key], opaque: [] };
      const rule = rules.find(
        (candidate) =>
          candidate.decision === 'allow' &&
          candidate.rule.key !== undefined &&
          candidate.matches(alone, mode),
      );
      let covered: string | undefined;
      if (rule !== undefined) covered = `allowed by ${describeRule(rule)}`;
      else if (state?.approvals.hasAll(sessionIdentity(call), [key])) {
        covered = 'approved earlier in this session';
      } else if (
        approvals !== undefined &&
        call.requireApproval === undefined &&
        (await approvals.hasAll(qualified(call), [key]))
      ) {
        covered = 'approved always for this project';
      }
      notes.push(covered === undefined ? { key } : { key, covered });
    }
    return notes;
  };

  const answerOne = async (
    ask: ApprovalAsk,
    position: number,
    total: number,
    signal: AbortSignal | undefined,
    approver: Approver | undefined,
    state: SessionState | undefined,
  ): Promise<ApprovalOutcome> => {
    const { call, decision } = ask;
    const earlier = await remembered(call, state);
    if (earlier !== undefined) {
      return { allow: true, reason: earlier, answeredBy: { channel: 'remembered' } };
    }
    if (approver === undefined) {
      return { allow: false, reason: NO_APPROVER, answeredBy: { channel: 'none' } };
    }
    const outcome = await askApprover(
      approver,
      {
        callId: call.id,
        tool: {
          name: call.name,
          ...(call.tool.title === undefined ? {} : { title: call.tool.title }),
          description: call.tool.description,
        },
        origin: call.origin,
        trusted: call.trusted,
        arguments: call.arguments,
        class: call.class,
        claimed: call.claimed,
        effective: call.effective,
        approvalKeys: call.approvalKeys,
        keyNotes: await keyNotes(call, state),
        opaque: call.opaque ?? [],
        reason: decision.reason,
        position,
        total,
        remember: isOpaque(call)
          ? ['once']
          : [
              'once',
              ...(state === undefined ? [] : (['session'] as const)),
              ...(approvals === undefined || call.requireApproval !== undefined
                ? []
                : (['always'] as const)),
            ],
      },
      { timeoutMs, ...(signal === undefined ? {} : { signal }) },
    );
    if ('failure' in outcome) {
      return {
        allow: false,
        reason: `${outcome.failure}, so the call was not run. ${HOW_TO_ALLOW}`,
        answeredBy: { channel: 'none' },
      };
    }
    const { answer } = outcome;
    const answeredBy = answer.answeredBy ?? { channel: 'approver' as const };
    if (answer.decision === 'deny') {
      const why =
        answer.asked === false && answer.reason !== undefined
          ? answer.reason
          : answer.reason === undefined
            ? 'the user denied it'
            : `the user denied it: ${answer.reason}`;
      return { allow: false, reason: why, answeredBy };
    }
    const why =
      answer.reason === undefined ? 'the user allowed it' : `the user allowed it: ${answer.reason}`;
    return { allow: true, reason: await remember(call, answer.remember, why, state), answeredBy };
  };

  const policy: PolicyAuthorizer = {
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = checkPolicy({ mode: next }).mode ?? mode;
    },
    get session() {
      return (sessionState(undefined) as SessionState).approvals;
    },
    forgetSession(session) {
      if (session !== '') sessions.delete(session);
    },
    decide(call, context = {}): Decision | Promise<Decision> {
      const decision = decideCall(call, mode, rules);
      if (decision.decision !== 'ask') return decision;
      const allowed = (earlier: string): Decision => ({
        decision: 'allow',
        reason: `${decision.reason}; ${earlier}`,
      });
      const state = sessionState(context.session);
      if (isOpaque(call)) return decision;
      if (state?.approvals.hasAll(sessionIdentity(call), call.approvalKeys)) {
        return allowed('approved earlier in this session');
      }
      if (approvals === undefined || call.requireApproval !== undefined) return decision;
      return remembered(call, state).then((earlier) =>
        earlier === undefined ? decision : allowed(earlier),
      );
    },
    approve(asks, { signal, approver: batchApprover, session }) {
      const state = sessionState(session);
      const run = async (): Promise<ApprovalOutcome[]> => {
        const outcomes: ApprovalOutcome[] = [];
        for (const [index, ask] of asks.entries()) {
          outcomes.push(
            await answerOne(ask, index + 1, asks.length, signal, batchApprover ?? approver, state),
          );
        }
        return outcomes;
      };
      if (state === undefined) return run();
      // One person per session, one prompt at a time: that session's batches wait for each
      // other's approvals; other sessions do not wait for this one.
      const queued = state.queue.then(run);
      state.queue = queued.catch(() => {});
      return queued;
    },
  };
  return policy;
}
