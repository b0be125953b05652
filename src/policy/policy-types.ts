import type {
  EffectiveHints,
  OpaquePart,
  ToolAnnotations,
  ToolArguments,
  ToolClass,
} from '../tool/index.js';
import type { ToolSettings } from './read-tool-settings.js';

/**
 * How much runs without asking:
 * - `plan`: read-only tools only; the others are hidden and denied.
 * - `ask` (default): reads run, anything else asks.
 * - `auto`: reads and non-destructive writes run, destructive calls ask.
 * - `allowlist`: only calls an allow rule matches run; a miss asks.
 * - `yolo`: everything not denied runs, without asking.
 */
export type Mode = 'plan' | 'ask' | 'auto' | 'allowlist' | 'yolo';

/** Every {@link Mode}, in order of increasing freedom. */
export const MODES: readonly Mode[] = ['plan', 'ask', 'auto', 'allowlist', 'yolo'];

/** The mode when none is configured. */
export const DEFAULT_MODE: Mode = 'ask';

/** What a rule says of the calls it matches. */
export type RuleDecision = 'allow' | 'ask' | 'deny';

/**
 * A policy rule, as plain data. A rule matches a call when every condition it states
 * holds; conditions it leaves out match anything.
 */
export interface PolicyRule {
  /**
   * Glob on the tool's name, e.g. `"github_*"`. It matches a tool by the name it is offered
   * under, by its name on its origin, or by `<origin>__<name on origin>`: so
   * `"delete_repo"` and `"github__delete_repo"` both match server `github`'s `delete_repo`
   * in a gateway, whether it is offered as `delete_repo` or `github__delete_repo`. Any
   * origin's tool of that name matches; add `origin` to bind the rule to one.
   */
  readonly tool?: string;
  /** Glob on the tool's origin (server) name. */
  readonly origin?: string;
  /** Partial match on the call's effective hints, e.g. `{ destructiveHint: true }`. */
  readonly annotations?: Partial<EffectiveHints>;
  /**
   * Glob on the call's approval keys, e.g. `"file:src/**"` or `"git *"`. For `allow`, every
   * key of the call must match; for `ask` and `deny`, one matching key is enough.
   */
  readonly key?: string;
  readonly decision: RuleDecision;
  /** Higher wins. Default 0. At equal priority deny beats ask beats allow. */
  readonly priority?: number;
  /** Modes the rule applies in. Default: all. */
  readonly modes?: readonly Mode[];
  /** Why the rule exists; shown in decisions and the audit log. */
  readonly reason?: string;
}

/** A policy: a mode and rules, as `loadPolicy` reads them from a file. */
export interface Policy {
  readonly mode?: Mode;
  readonly rules?: readonly PolicyRule[];
  /**
   * `tools:` of a policy file: configuration of tools by name (`enabled`, `timeoutMs`,
   * `annotations`, `scopes`), for any layer's tool; `hintgate serve` applies it.
   */
  readonly tools?: ToolSettings;
}

/** How long an approval is remembered. */
export type RememberScope = 'once' | 'session' | 'always';

/** What a person is asked to approve: everything needed to judge one call. */
export interface ApprovalRequest {
  /** The call's id. */
  readonly callId: string;
  readonly tool: {
    readonly name: string;
    readonly title?: string;
    readonly description: string;
  };
  /** Origin (server) of the tool and whether its annotations are trusted. */
  readonly origin: string;
  readonly trusted: boolean;
  /** The arguments exactly as the tool will receive them. */
  readonly arguments: ToolArguments;
  readonly class: ToolClass;
  /** Annotations as claimed by the tool. */
  readonly claimed: ToolAnnotations;
  /** The hints hintgate acts on (spec defaults for an untrusted origin). */
  readonly effective: EffectiveHints;
  /** What an approval would cover; remembering it covers these keys for this tool. */
  readonly approvalKeys: readonly string[];
  /**
   * Per approval key (for a shell command: per command it runs), what already covers it, so
   * that a person sees which part is new: an allow rule, an approval remembered for the
   * session or the project; absent `covered` means nothing does.
   */
  readonly keyNotes?: readonly ApprovalKeyNote[];
  /**
   * Parts of the call its tool could not understand (substitutions, expansions, unknown
   * runners, ...), each with why; empty when it understood all. Such a call is never covered
   * by an allow rule on keys or a remembered approval, and `remember` offers `once` only.
   */
  readonly opaque?: readonly OpaquePart[];
  /** Why approval is needed: the mode, the rule, or the annotation that asked. */
  readonly reason: string;
  /** Position of this request among the approvals of its batch (1-based), and their count. */
  readonly position: number;
  readonly total: number;
  /**
   * How an approval of this call can be remembered, always including `once`: `session`
   * when the caller has a session, `always` when an approvals file is configured and the
   * tool may be approved for the project (a tool that requires approval, such as one not
   * pinned yet, may not). An approver offers only these; a scope not listed is treated as
   * the widest one listed below it.
   */
  readonly remember: readonly RememberScope[];
}

/**
 * Who answered an approval request, and through which channel: `elicitation`
 * (`elicitation/create` to the MCP client), `input_required` (a 2026-07-28 retry), the
 * gateway's web console (`console`), the terminal the gateway runs in (`terminal`), an
 * approver in code (`approver`, e.g. the terminal
 * approver), an approval remembered earlier (`remembered`), or `none` when nobody could be
 * asked.
 */
export interface ApprovalAnswerer {
  readonly channel:
    | 'elicitation'
    | 'input_required'
    | 'console'
    | 'terminal'
    | 'approver'
    | 'remembered'
    | 'none';
  /** Who answered, when known: the MCP client's name and version, the console's session. */
  readonly who?: string;
}

/** What covers one approval key of a request already. */
export interface ApprovalKeyNote {
  readonly key: string;
  /** `allowed by rule #2 (...)`, `approved earlier in this session`, ...; absent: nothing. */
  readonly covered?: string;
}

/** A person's answer. */
export interface ApprovalAnswer {
  readonly decision: 'allow' | 'deny';
  /**
   * For `allow`: `once` (default) for this call only, `session` for this tool and these keys
   * until the runtime closes, `always` for this project (written to the approvals file).
   */
  readonly remember?: RememberScope;
  /** Shown in the audit log; for a denial also to the model. */
  readonly reason?: string;
  /**
   * `false` for a denial made without a person's answer (the MCP client cannot show an
   * approval form; the question was passed to the client and its answer comes with a
   * retry): the reason then stands on its own instead of being told as the user's.
   * Default `true`.
   */
  readonly asked?: boolean;
  /** Who answered and through which channel; absent: an approver in code. */
  readonly answeredBy?: ApprovalAnswerer;
}

/**
 * Asks a person to approve one call. May be async (a terminal prompt, an MCP elicitation).
 * A throw, a rejection or a timeout counts as a denial.
 */
export type Approver = (
  request: ApprovalRequest,
  options: { readonly signal: AbortSignal },
) => ApprovalAnswer | Promise<ApprovalAnswer>;
