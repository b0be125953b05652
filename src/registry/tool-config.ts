import { HintgateError } from '../errors/index.js';
import {
  HINT_NAMES,
  isPlainObject,
  isTimerMs,
  MAX_TIMER_MS,
  TOOL_NAME_PATTERN,
  type ToolAnnotations,
} from '../tool/index.js';

/**
 * A person's approval that every call of a tool needs, whatever the mode, the rules that
 * allow and `gated: false` say (deny rules still deny). For a tool that has not been
 * reviewed yet, such as a gateway's tool that is not pinned.
 */
export interface RequiredApproval {
  /** Why, in the decision, the approval request and the audit log. */
  readonly reason: string;
  /**
   * What an approval is for, beyond the tool and its approval keys, such as the hash of the
   * tool's definition: an approval remembered for the session holds only while this stays
   * the same. Default: the tool.
   */
  readonly version?: string;
}

/**
 * Why a tool is held back (say, a gateway's tool whose definition changed since it was
 * pinned): it stays registered, so that a call by its name is refused with the reason
 * rather than taken for a typo, but it is not listed and every call is denied.
 */
export interface BlockedTool {
  /** Why, and what to do about it: told to the caller and recorded in the audit log. */
  readonly reason: string;
}

/** Configuration of one tool name, for example from a config file. */
export interface ToolConfig {
  /**
   * `false` hides the name entirely: no layer's tool of that name is visible. `true` (the
   * default) does not override `TOOL_<NAME>_DISABLED=true`.
   */
  readonly enabled?: boolean;
  /** Scopes a caller must all hold to see the tool; replaces the tool's own `scopes`. */
  readonly scopes?: readonly string[];
  /**
   * Annotations merged over the tool's claimed ones (keys given here win). Configuration is
   * trusted: for a trusted origin the merged annotations are used; for an untrusted origin
   * only the hints stated here are, and the unstated ones take the spec defaults.
   */
  readonly annotations?: ToolAnnotations;
  /**
   * Whether the tool's claimed annotations are used, over its origin's `trusted`: `true`
   * trusts this tool of an untrusted origin (say, one whose annotations were verified),
   * `false` distrusts this tool of a trusted origin. `annotations` stated here are used
   * either way. Default: the origin's trust.
   */
  readonly trusted?: boolean;
  /**
   * Every call asks a person (see {@link RequiredApproval}). Such an approval is remembered
   * at most for the session (an `always` answer counts as `session`), and approvals
   * remembered for the project do not count.
   */
  readonly requireApproval?: RequiredApproval;
  /**
   * Default timeout of a call in milliseconds, in (0, 2147483647]: wins over the tool's own
   * `timeoutMs`; a timeout given with the call wins over it.
   */
  readonly timeoutMs?: number;
  /**
   * Holds the tool back (see {@link BlockedTool}): not listed, and every call is refused
   * at the policy's first step ("visible?"), with the reason, as any denial is audited.
   */
  readonly blocked?: BlockedTool;
}

const KEYS = new Set([
  'enabled',
  'scopes',
  'annotations',
  'trusted',
  'requireApproval',
  'timeoutMs',
  'blocked',
]);

const checkBlocked = (value: unknown, where: string): BlockedTool => {
  if (!isPlainObject(value)) return invalid(`${where}: blocked must be an object { reason }.`);
  const { reason, ...rest } = value;
  const extra = Object.keys(rest);
  if (extra.length > 0)
    invalid(`${where}: blocked has unknown keys ${extra.join(', ')}; use reason.`);
  if (typeof reason !== 'string' || reason.trim() === '') {
    invalid(`${where}: blocked.reason must be a non-empty string.`);
  }
  return Object.freeze({ reason: reason as string });
};

const checkRequiredApproval = (value: unknown, where: string): RequiredApproval => {
  if (!isPlainObject(value)) {
    return invalid(`${where}: requireApproval must be an object { reason, version? }.`);
  }
  const { reason, version, ...rest } = value;
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    invalid(`${where}: requireApproval has unknown keys ${extra.join(', ')}; use reason, version.`);
  }
  if (typeof reason !== 'string' || reason.trim() === '') {
    invalid(`${where}: requireApproval.reason must be a non-empty string.`);
  }
  if (version !== undefined && typeof version !== 'string') {
    invalid(`${where}: requireApproval.version must be a string.`);
  }
  return Object.freeze({
    reason: reason as string,
    ...(version === undefined ? {} : { version: version as string }),
  });
};

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', message);
};

const checkAnnotations = (value: unknown, where: string): ToolAnnotations => {
  if (!isPlainObject(value)) return invalid(`${where}: annotations must be an object.`);
  const out: Record<string, unknown> = {};
  for (const [key, hint] of Object.entries(value)) {
    if (hint === undefined) continue;
    if (key === 'title' ? typeof hint !== 'string' : typeof hint !== 'boolean') {
      invalid(
        `${where}: annotations.${key} must be ${key === 'title' ? 'a string' : 'true or false'}.`,
      );
    }
    if (key !== 'title' && !(HINT_NAMES as readonly string[]).includes(key)) {
      invalid(
        `${where}: annotations.${key} is not an MCP annotation (title, ${HINT_NAMES.join(', ')}).`,
      );
    }
    out[key] = hint;
  }
  return Object.freeze(out) as ToolAnnotations;
};

/**
 * Checks the configuration of one tool name and returns a frozen copy without absent keys.
 *
 * @throws HintgateError `invalid_option` naming the field and what it accepts.
 */
export function checkToolConfig(name: unknown, value: unknown): ToolConfig {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    invalid(
      `Tool name ${JSON.stringify(name)} in the configuration cannot name a tool: use 1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".".`,
    );
  }
  const where = `configuration of tool "${String(name)}"`;
  if (!isPlainObject(value)) return invalid(`${where}: expected an object.`);
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key)) {
      invalid(`${where}: unknown option "${key}". Known options: ${[...KEYS].join(', ')}.`);
    }
  }
  const { enabled, scopes, annotations, trusted, requireApproval, timeoutMs, blocked } =
    value as Record<keyof ToolConfig, unknown>;
  if (enabled !== undefined && typeof enabled !== 'boolean') {
    invalid(`${where}: enabled must be true or false.`);
  }
  if (trusted !== undefined && typeof trusted !== 'boolean') {
    invalid(`${where}: trusted must be true or false.`);
  }
  if (timeoutMs !== undefined && !isTimerMs(timeoutMs)) {
    invalid(
      `${where}: timeoutMs must be milliseconds, a number in (0, ${MAX_TIMER_MS}], such as 30000.`,
    );
  }
  if (
    scopes !== undefined &&
    (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || s === ''))
  ) {
    invalid(`${where}: scopes must be a list of non-empty strings.`);
  }
  return Object.freeze({
    ...(enabled === undefined ? {} : { enabled: enabled as boolean }),
    ...(scopes === undefined ? {} : { scopes: Object.freeze([...(scopes as string[])]) }),
    ...(annotations === undefined ? {} : { annotations: checkAnnotations(annotations, where) }),
    ...(trusted === undefined ? {} : { trusted: trusted as boolean }),
    ...(requireApproval === undefined
      ? {}
      : { requireApproval: checkRequiredApproval(requireApproval, where) }),
    ...(timeoutMs === undefined ? {} : { timeoutMs: timeoutMs as number }),
    ...(blocked === undefined ? {} : { blocked: checkBlocked(blocked, where) }),
  });
}
