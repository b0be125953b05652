import { HINT_NAMES, type ToolAnnotations } from '../tool/index.js';
import type { RegisteredTool, ToolChange } from './registered-tool.js';

/** Plain code-unit order of strings: deterministic, independent of locale. */
export const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const sameList = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((item, index) => item === b[index]);

const sameAnnotations = (a: ToolAnnotations, b: ToolAnnotations): boolean =>
  a.title === b.title && HINT_NAMES.every((hint) => a[hint] === b[hint]);

const sameHints = (a: RegisteredTool, b: RegisteredTool): boolean =>
  HINT_NAMES.every((hint) => a.effective[hint] === b.effective[hint]);

/**
 * True when two winners of a name behave the same for callers: same tool object, origin,
 * layer, trust, scopes, claimed and effective annotations (the class follows from those),
 * and required approval. What they shadow does not count.
 */
export function sameWinner(a: RegisteredTool, b: RegisteredTool): boolean {
  return (
    a.tool === b.tool &&
    a.origin === b.origin &&
    a.layer === b.layer &&
    a.trusted === b.trusted &&
    sameList(a.scopes, b.scopes) &&
    sameAnnotations(a.claimed, b.claimed) &&
    sameHints(a, b) &&
    a.requireApproval?.reason === b.requireApproval?.reason &&
    a.requireApproval?.version === b.requireApproval?.version &&
    a.file === b.file &&
    a.timeoutMs === b.timeoutMs &&
    a.blocked?.reason === b.blocked?.reason
  );
}

/** True when two winners are the same and hide the same definitions. */
export function sameRegistered(a: RegisteredTool, b: RegisteredTool): boolean {
  return (
    sameWinner(a, b) &&
    a.shadows.length === b.shadows.length &&
    a.shadows.every(
      (s, i) =>
        s.origin === b.shadows[i]?.origin &&
        s.layer === b.shadows[i]?.layer &&
        s.file === b.shadows[i]?.file,
    )
  );
}

/**
 * Changes between two sets of enabled winners, sorted by name: names only in `next` are
 * `added`, names only in `previous` are `removed`, names whose winner differs by
 * {@link sameWinner} are `updated`.
 */
export function diffTools(
  previous: ReadonlyMap<string, RegisteredTool>,
  next: ReadonlyMap<string, RegisteredTool>,
): ToolChange[] {
  const names = [...new Set([...previous.keys(), ...next.keys()])].sort(compareNames);
  const changes: ToolChange[] = [];
  for (const name of names) {
    const before = previous.get(name);
    const after = next.get(name);
    if (before === undefined && after !== undefined) {
      changes.push({ type: 'added', name, origin: after.origin });
    } else if (before !== undefined && after === undefined) {
      changes.push({ type: 'removed', name, origin: before.origin });
    } else if (before !== undefined && after !== undefined && !sameWinner(before, after)) {
      changes.push({ type: 'updated', name, origin: after.origin });
    }
  }
  return changes;
}
