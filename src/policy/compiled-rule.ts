import { qualifiedToolName } from '../registry/index.js';
import type { EffectiveHints, OpaquePart, Tool } from '../tool/index.js';
import { compileGlob, globBase } from './compile-glob.js';
import { nameOnOrigin } from './name-on-origin.js';
import type { Mode, PolicyRule, RuleDecision } from './policy-types.js';

/** A rule ready for matching, with its position for reasons. */
export interface CompiledRule {
  readonly rule: PolicyRule;
  /** Position in the rule list (0-based). */
  readonly index: number;
  readonly decision: RuleDecision;
  readonly priority: number;
  /** True when the rule matches the call (in the given mode). */
  matches(call: RuleSubject, mode: Mode): boolean;
}

/** What rules match on. */
export interface RuleSubject {
  /** The name the tool is offered and called under. */
  readonly name: string;
  readonly origin: string;
  /** The tool; its `nameOnOrigin`, when set, is its name on its origin. */
  readonly tool?: Pick<Tool, 'nameOnOrigin'>;
  readonly effective: EffectiveHints;
  readonly approvalKeys: readonly string[];
  /** Parts of the call its tool could not understand (see `CallRequest.opaque`). */
  readonly opaque?: readonly OpaquePart[];
}

const ALWAYS = (): boolean => true;

/**
 * A rule's `tool` glob binds to the tool's identity, not only to the name it is offered
 * under (which follows the other servers' tools): it matches the offered name, the name
 * on the tool's origin, or `<origin>__<name on origin>`. So `delete_repo` and
 * `github__delete_repo` both match `github`'s `delete_repo`, offered prefixed or not.
 */
const toolGlob = (glob: string): ((subject: RuleSubject) => boolean) => {
  const matches = compileGlob(glob);
  return (subject) => {
    const own = nameOnOrigin(subject);
    return matches(subject.name) || matches(own) || matches(qualifiedToolName(subject.origin, own));
  };
};

type KeyMatcher = (keys: readonly string[], opaque: readonly OpaquePart[] | undefined) => boolean;

/**
 * An allow covers a call only if it matches every key, `*` staying within one segment, and
 * the call is fully understood: keys cannot speak for a part its tool could not read.
 */
const allowKeys = (glob: string): KeyMatcher => {
  const matches = compileGlob(glob);
  return (keys, opaque) => (opaque?.length ?? 0) === 0 && keys.length > 0 && keys.every(matches);
};

/** True when `key` is the resource `base` names or one of its ancestors (`file:` of `file:a/b`). */
const isAncestorOrSelf = (key: string, base: string): boolean => {
  if (key === '' || base === '') return false;
  if (key === base) return true;
  const boundary = key.endsWith('/') || key.endsWith(':') ? key : `${key}/`;
  return base.startsWith(boundary);
};

/**
 * An ask or a deny needs one matching key, errs wide: `*` crosses `/` (so `git push*`
 * catches `git push origin feat/x`), a key naming a directory above the protected
 * resources (`file:` or `file:secrets` for `file:secrets/**`) matches too, since the call
 * covers them, and so does a call with a part that may run a command its keys do not name.
 */
const restrictKeys = (glob: string): KeyMatcher => {
  const matches = compileGlob(glob, { starCrossesSlash: true });
  const base = globBase(glob);
  return (keys, opaque) =>
    (opaque?.some((part) => part.hidesCommand === true) ?? false) ||
    keys.some((key) => matches(key) || isAncestorOrSelf(key, base));
};

/** Compiles checked rules (see `checkPolicy`) into matchers. */
export function compileRules(rules: readonly PolicyRule[]): CompiledRule[] {
  return rules.map((rule, index) => {
    const tool = rule.tool === undefined ? ALWAYS : toolGlob(rule.tool);
    const origin = rule.origin === undefined ? ALWAYS : compileGlob(rule.origin);
    const hints = Object.entries(rule.annotations ?? {}) as Array<[keyof EffectiveHints, boolean]>;
    const modes = rule.modes;
    const keysMatch =
      rule.key === undefined
        ? ALWAYS
        : rule.decision === 'allow'
          ? allowKeys(rule.key)
          : restrictKeys(rule.key);
    return {
      rule,
      index,
      decision: rule.decision,
      priority: rule.priority ?? 0,
      matches(call, mode) {
        return (
          (modes === undefined || modes.includes(mode)) &&
          tool(call) &&
          origin(call.origin) &&
          hints.every(([hint, value]) => call.effective[hint] === value) &&
          keysMatch(call.approvalKeys, call.opaque)
        );
      },
    };
  });
}

const STRENGTH: Readonly<Record<RuleDecision, number>> = { deny: 2, ask: 1, allow: 0 };

/**
 * The rule that decides among those matching: the highest priority, and at equal priority
 * deny before ask before allow, then the earliest in the list.
 */
export function winningRule(matching: readonly CompiledRule[]): CompiledRule | undefined {
  let best: CompiledRule | undefined;
  for (const candidate of matching) {
    if (
      best === undefined ||
      candidate.priority > best.priority ||
      (candidate.priority === best.priority &&
        STRENGTH[candidate.decision] > STRENGTH[best.decision])
    ) {
      best = candidate;
    }
  }
  return best;
}

/** A short description of a rule for decision reasons: `rule #3 (deny tool "rm_*"): why`. */
export function describeRule(compiled: CompiledRule): string {
  const { rule } = compiled;
  const parts: string[] = [];
  if (rule.tool !== undefined) parts.push(`tool "${rule.tool}"`);
  if (rule.origin !== undefined) parts.push(`origin "${rule.origin}"`);
  if (rule.key !== undefined) parts.push(`key "${rule.key}"`);
  for (const [hint, value] of Object.entries(rule.annotations ?? {}))
    parts.push(`${hint}: ${value}`);
  if (rule.modes !== undefined) parts.push(`in ${rule.modes.join('/')}`);
  const what = parts.length === 0 ? 'every call' : parts.join(', ');
  const why = rule.reason === undefined ? '' : `: ${rule.reason}`;
  return `rule #${compiled.index + 1} (${rule.decision} ${what})${why}`;
}
