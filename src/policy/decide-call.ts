import type { CallRequest, Decision } from './authorizer.js';
import { type CompiledRule, describeRule, winningRule } from './compiled-rule.js';
import type { Mode } from './policy-types.js';

/** Why a call has its class, in terms of the annotations that made it so. */
export function classReason(call: Pick<CallRequest, 'class' | 'trusted' | 'claimed'>): string {
  if (!call.trusted) {
    return `a ${call.class} call: its annotations are not trusted, so they are ignored and the spec defaults apply`;
  }
  if (call.class === 'read') return 'a read call (readOnlyHint: true)';
  if (call.class === 'write') return 'a write call (readOnlyHint: false, destructiveHint: false)';
  const claimed = call.claimed.destructiveHint;
  return claimed === true
    ? 'a destructive call (destructiveHint: true)'
    : 'a destructive call (destructiveHint absent: the spec default is true)';
}

const MAX_PARTS_IN_REASON = 5;

/** The reasons of `parts`, at most five, for a decision's reason. */
const listParts = (parts: readonly { readonly reason: string }[]): string => {
  const shown = parts.slice(0, MAX_PARTS_IN_REASON).map((part) => part.reason);
  const more = parts.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
};

/**
 * What a decision's reason adds for a call that is not fully understood: why no allow rule
 * on keys or remembered approval covers it, and, for a rule on keys that matched because a
 * part may run a command the keys do not name, that this is why.
 */
export function opaqueNote(
  call: Pick<CallRequest, 'opaque'>,
  rule?: Pick<CompiledRule, 'decision' | 'rule'>,
): string {
  const parts = call.opaque ?? [];
  if (parts.length === 0) return '';
  const hiding = parts.filter((part) => part.hidesCommand === true);
  if (
    rule !== undefined &&
    rule.decision !== 'allow' &&
    rule.rule.key !== undefined &&
    hiding.length > 0
  ) {
    return `; it may run commands its keys do not name (${listParts(hiding)}), so a rule on keys matches it`;
  }
  return `; not fully understood (${listParts(parts)}), so no allow rule on keys and no remembered approval covers it`;
}

/** True when a tool of this class is offered in this mode: `plan` offers reads only. */
export function visibleInMode(toolClass: CallRequest['class'], mode: Mode): boolean {
  return mode !== 'plan' || toolClass === 'read';
}

/**
 * True when a tool is offered: not held back by its configuration (`blocked`) and of a
 * class the mode offers (`plan` offers reads only). Disabled names and scopes are the
 * registry's part of "visible?".
 */
export function isOffered(
  tool: Pick<CallRequest, 'class' | 'blocked'>,
  mode: Mode | undefined,
): boolean {
  return tool.blocked === undefined && (mode === undefined || visibleInMode(tool.class, mode));
}

/**
 * Decides one call without approvals: visible? (a tool held back by its configuration,
 * plan mode) -> the winning rule (highest priority;
 * deny > ask > allow at equal priority) -> the mode's default for the call's class. A tool
 * with `gated: false` skips the mode's asking (an explicit ask rule still asks). In `yolo`,
 * ask rules do not ask. A call whose tool requires approval (`requireApproval`) asks
 * whatever allowed it; only a denial stands. The reason names the rule, the mode and the
 * annotation that decided.
 */
export function decideCall(
  call: CallRequest,
  mode: Mode,
  rules: readonly CompiledRule[],
): Decision {
  if (call.blocked === undefined && visibleInMode(call.class, mode)) {
    const winner = winnerFor(call, mode, rules);
    if (winner !== undefined && !(winner.decision === 'ask' && mode === 'yolo')) {
      return withRequired(call, byRule(call, winner));
    }
    // No rule decides: the mode's default, which is the same for every call of the tool.
    if (call.opaque === undefined || call.opaque.length === 0) return sharedDefault(call, mode);
  }
  return withRequired(call, decideByPolicy(call, mode, undefined));
}

/** A decision, turned into an ask when the call's tool requires approval (a denial stands). */
const withRequired = (call: CallRequest, decision: Decision): Decision => {
  const required = call.requireApproval;
  if (required === undefined || decision.decision === 'deny') return decision;
  return {
    decision: 'ask',
    reason: `${required.reason} (without that: ${decision.reason})`,
  };
};

/** The rule that decides a call, if any: no array is made when there are no rules. */
const winnerFor = (
  call: CallRequest,
  mode: Mode,
  rules: readonly CompiledRule[],
): CompiledRule | undefined =>
  rules.length === 0 ? undefined : winningRule(rules.filter((rule) => rule.matches(call, mode)));

/** The decision of an explicit rule: the user's word, which holds for ungated tools too. */
const byRule = (call: CallRequest, winner: CompiledRule): Decision => ({
  decision: winner.decision,
  reason: `${describeRule(winner)}; ${classReason(call)}${winner.decision === 'allow' ? '' : opaqueNote(call, winner)}`,
});

/** The last mode default decided for a tool, with what it was decided from. */
interface SharedDefault {
  readonly mode: Mode;
  readonly name: string;
  readonly class: CallRequest['class'];
  readonly trusted: boolean;
  readonly claimed: CallRequest['claimed'];
  readonly gated: boolean | undefined;
  readonly requireApproval: CallRequest['requireApproval'];
  readonly decision: Decision;
}

/**
 * The mode's default decision for a call that no rule decides and that is fully understood,
 * per tool: it depends only on the tool's settings and the mode, so the calls of one tool
 * share one frozen decision (and its reason) instead of each building its own.
 */
const sharedDefaults = new WeakMap<CallRequest['tool'], SharedDefault>();

const sharedDefault = (call: CallRequest, mode: Mode): Decision => {
  const known = sharedDefaults.get(call.tool);
  if (
    known !== undefined &&
    known.mode === mode &&
    known.name === call.name &&
    known.class === call.class &&
    known.trusted === call.trusted &&
    known.claimed === call.claimed &&
    known.gated === call.tool.gated &&
    known.requireApproval === call.requireApproval
  ) {
    return known.decision;
  }
  const decision = Object.freeze(withRequired(call, decideByPolicy(call, mode, undefined)));
  sharedDefaults.set(call.tool, {
    mode,
    name: call.name,
    class: call.class,
    trusted: call.trusted,
    claimed: call.claimed,
    gated: call.tool.gated,
    requireApproval: call.requireApproval,
    decision,
  });
  return decision;
};

/** The decision without `requireApproval`; with `rules` undefined, no rule decides. */
const decideByPolicy = (
  call: CallRequest,
  mode: Mode,
  rules: readonly CompiledRule[] | undefined,
): Decision => {
  if (call.blocked !== undefined) {
    return { decision: 'deny', reason: call.blocked.reason };
  }
  const why = classReason(call);
  if (!visibleInMode(call.class, mode)) {
    return {
      decision: 'deny',
      reason: `mode plan allows read-only tools only, and this is ${why}`,
      message: `The call to "${call.name}" was denied: mode plan allows read-only tools only. Propose the change in your plan instead of making it.`,
    };
  }
  const winner = rules === undefined ? undefined : winnerFor(call, mode, rules);
  if (winner !== undefined && !(winner.decision === 'ask' && mode === 'yolo')) {
    return byRule(call, winner);
  }
  const fallback = modeDefault(call, mode, why);
  const decision =
    fallback.decision === 'ask'
      ? { ...fallback, reason: `${fallback.reason}${opaqueNote(call)}` }
      : fallback;
  if (decision.decision === 'ask' && !call.tool.gated) {
    return {
      decision: 'allow',
      reason: `${decision.reason}; the tool is not gated (gated: false), so it runs without approval`,
    };
  }
  return decision;
};

const modeDefault = (call: CallRequest, mode: Mode, why: string): Decision => {
  switch (mode) {
    case 'yolo':
      return { decision: 'allow', reason: `mode yolo runs every call that no rule denies; ${why}` };
    case 'allowlist':
      return { decision: 'ask', reason: `mode allowlist: no allow rule matched; ${why}` };
    case 'auto':
      return call.class === 'destructive'
        ? { decision: 'ask', reason: `mode auto asks before destructive calls; ${why}` }
        : { decision: 'allow', reason: `mode auto runs reads and non-destructive writes; ${why}` };
    default:
      return call.class === 'read'
        ? { decision: 'allow', reason: `mode ${mode} runs read-only calls; ${why}` }
        : {
            decision: 'ask',
            reason: `mode ${mode} asks before every call that changes something; ${why}`,
          };
  }
};
