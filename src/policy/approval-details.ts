import type { ApprovalKeyNote, ApprovalRequest } from './policy-types.js';

/** Runs of blank characters (spaces, tabs, Unicode spaces) long enough to hide text. */
const BLANK_RUN = /[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]{8,}/gu;

/**
 * Replaces each run of eight or more blank characters with a visible `⟨N blanks⟩`, so that
 * padding cannot push the rest of an argument out of a dialog's view (`git status` followed
 * by 4,000 spaces and a substitution). Linear.
 */
export function showBlankRuns(text: string): string {
  return text.replace(BLANK_RUN, (run) => `⟨${run.length} blanks⟩`);
}

/** The approval request's keys as lines: each key and what covers it, or that nothing does. */
export function approvalKeyLines(request: ApprovalRequest): string[] {
  const notes: readonly ApprovalKeyNote[] =
    request.keyNotes ?? request.approvalKeys.map((key) => ({ key }));
  return notes.map(({ key, covered }) =>
    covered === undefined ? `${key} — needs approval` : `${key} — ${covered}`,
  );
}

/** The parts of the call its tool could not understand, as lines, or none. */
export function opaqueLines(request: ApprovalRequest): string[] {
  return (request.opaque ?? []).map((part) =>
    part.hidesCommand === true
      ? `${part.reason} (it may run a command not listed above)`
      : part.reason,
  );
}
