import { type FileChange, formatFileChange } from './fs-snapshot.js';
import type { CallRun } from './probe-calls.js';

const times = (n: number): string => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

const argsText = (args: Record<string, unknown>): string => {
  const text = JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};

/** The calls of a run as evidence lines: `called twice with {"path":"notes.txt"}`. */
export function callEvidence(run: CallRun): string[] {
  const lines = new Map<string, number>();
  for (const call of run.calls) {
    const key = `${argsText(call.args)}${call.outcome.ok ? '' : ` (failed: ${call.outcome.error})`}`;
    lines.set(key, (lines.get(key) ?? 0) + 1);
  }
  return [...lines].map(([key, n]) => `called ${times(n)} with ${key}`);
}

/**
 * `1 created, 2 modified, 0 deleted`: paths, each counted once per kind of change, so that
 * a file changed by the calls and again by a confirming call counts once.
 */
export function fileSummary(changes: readonly FileChange[]): string {
  const count = (kind: FileChange['kind']) =>
    new Set(changes.filter((c) => c.kind === kind).map((c) => c.path)).size;
  return `${count('created')} created, ${count('modified')} modified, ${count('deleted')} deleted`;
}

/** File changes as evidence lines; those of a confirming call say so. */
export function fileEvidence(
  changes: readonly FileChange[],
  confirming: readonly FileChange[] = [],
): string[] {
  return [
    ...changes.map(formatFileChange),
    ...confirming.map((change) => `called once more: ${formatFileChange(change)}`),
  ];
}
