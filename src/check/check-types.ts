import type { PinVerdict } from './pin/lock-file.js';

/** How bad a finding is, from least to most. */
export type CheckSeverity = 'low' | 'medium' | 'high';

/** Every {@link CheckSeverity}, from least to most severe. */
export const CHECK_SEVERITIES: readonly CheckSeverity[] = ['low', 'medium', 'high'];

/** Which part of `hintgate check` produces a rule's findings. */
export type CheckRuleKind = 'lint' | 'probe' | 'pin';

/** A rule of `hintgate check`: what it looks for, documented in `docs/check.md`. */
export interface CheckRule {
  /** Stable id, kebab-case, e.g. `annotations-missing`. Never reused for another meaning. */
  readonly id: string;
  readonly kind: CheckRuleKind;
  /** Severity of its findings. */
  readonly severity: CheckSeverity;
  /** One line: what the rule reports. */
  readonly summary: string;
  /** Why it matters and how to fix it, a short paragraph. */
  readonly help: string;
}

/** One problem found in a server's tools. */
export interface CheckFinding {
  /** The {@link CheckRule} id. */
  readonly id: string;
  readonly severity: CheckSeverity;
  /** The server, as the configuration names it (or as the command line target is named). */
  readonly server: string;
  /** The tool, by its name on the server; absent for a finding about the whole server. */
  readonly tool?: string;
  /** What is wrong, in one or two sentences. */
  readonly message: string;
  /** What to change so the finding goes away. */
  readonly fix: string;
  /** What was observed, one line each (files changed, state that moved, calls made). */
  readonly evidence?: readonly string[];
}

/** What the side-effect probe concluded about one tool's annotations. */
export interface ToolVerdict {
  readonly server: string;
  readonly tool: string;
  readonly verdict: PinVerdict;
  /** Why: for `inconclusive`, what stopped the probe; for `violation`, what was seen. */
  readonly reason: string;
  /** What was observed, one line each. */
  readonly evidence: readonly string[];
}
