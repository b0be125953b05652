import { HintgateError } from '../errors/index.js';
import type { ApprovalKeyResult, OpaquePart, Tool, ToolArguments } from '../tool/index.js';
import { isPlainObject } from '../tool/index.js';

/** The approval keys of a call, with the parts its tool could not understand. */
export interface DerivedApprovalKeys {
  /** Deduplicated, sorted, never empty; may be a list shared with other calls. */
  readonly keys: readonly string[];
  /** In the order the tool gave them; empty when the call is fully understood. */
  readonly opaque: readonly OpaquePart[];
}

const UNNAMED = 'a part of the call its tool could not understand';
/** The keys of a call with neither an `approvalKey` nor resource keys: the whole tool. */
const WHOLE_TOOL: readonly string[] = Object.freeze(['*']);
const NONE_OPAQUE: readonly OpaquePart[] = Object.freeze([]);

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/** Cleans what `approvalKey` returned: keys deduped and sorted, opaque parts checked. */
const normalize = (
  result: ApprovalKeyResult | undefined,
  resourceKeys: readonly string[],
): DerivedApprovalKeys => {
  // No `approvalKey` (the common case): the resource keys as they are when there is one,
  // a list shared by the calls on that key; nothing made per call.
  if (result === undefined) {
    if (resourceKeys.length === 1) return { keys: resourceKeys, opaque: NONE_OPAQUE };
    if (resourceKeys.length === 0) return { keys: WHOLE_TOOL, opaque: NONE_OPAQUE };
  }
  let list: readonly unknown[] = [];
  let opaque: readonly OpaquePart[] = NONE_OPAQUE;
  if (typeof result === 'string') list = [result];
  else if (Array.isArray(result)) list = result;
  else if (isPlainObject(result)) {
    const keys: unknown = result.keys;
    list = Array.isArray(keys) ? keys : [];
    const parts: unknown = result.opaque;
    // A part that is not well formed still counts: the call is not understood.
    opaque = (Array.isArray(parts) ? parts : []).map((part: unknown) => {
      const reason = isPlainObject(part) ? part.reason : undefined;
      return {
        reason: typeof reason === 'string' && reason !== '' ? reason : UNNAMED,
        ...(isPlainObject(part) && part.hidesCommand === true ? { hidesCommand: true } : {}),
      };
    });
  }
  const clean = [
    ...new Set(list.filter((key): key is string => typeof key === 'string' && key !== '')),
  ];
  if (clean.length > 0) return { keys: clean.sort(), opaque };
  if (resourceKeys.length > 0) return { keys: [...new Set(resourceKeys)].sort(), opaque };
  return { keys: WHOLE_TOOL, opaque };
};

/**
 * The approval keys of a call and the parts of it its tool could not understand: the tool's
 * `approvalKey(args)` when it has one (keys, or `{ keys, opaque }`, or a promise of either:
 * then this returns a promise), else its resource keys, else `*` (the whole tool).
 * Deterministic for equal arguments.
 */
export function deriveCallApprovalKeys(
  tool: Pick<Tool, 'approvalKey'>,
  args: ToolArguments,
  resourceKeys: readonly string[],
): DerivedApprovalKeys | Promise<DerivedApprovalKeys> {
  const result = tool.approvalKey?.(args);
  if (isThenable(result)) {
    return Promise.resolve(result).then((value) => normalize(value, resourceKeys));
  }
  return normalize(result, resourceKeys);
}

/**
 * The approval keys of a call: the tool's `approvalKey(args)` when it has one, else its
 * resource keys, else `*` (the whole tool). Deterministic for equal arguments. For a tool
 * whose `approvalKey` is asynchronous, or to get the parts it could not understand, use
 * {@link deriveCallApprovalKeys}.
 *
 * @throws HintgateError `invalid_tool` when the tool's `approvalKey` returns a promise.
 */
export function deriveApprovalKeys(
  tool: Pick<Tool, 'approvalKey'>,
  args: ToolArguments,
  resourceKeys: readonly string[],
): string[] {
  const derived = deriveCallApprovalKeys(tool, args, resourceKeys);
  if (isThenable(derived)) {
    derived.then(undefined, () => {});
    throw new HintgateError(
      'invalid_tool',
      "deriveApprovalKeys: the tool's approvalKey returned a promise; use deriveCallApprovalKeys, which waits for it.",
    );
  }
  return [...derived.keys];
}
