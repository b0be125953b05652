import type { RateLimit } from '../../tool/index.js';
import {
  CHECK_SEVERITIES,
  type CheckFinding,
  type CheckRule,
  type CheckRuleKind,
  type CheckSeverity,
  type ToolVerdict,
} from '../check-types.js';

/** The lowest severity that makes `hintgate check` fail, or `none` to never fail on findings. */
export type FailOn = CheckSeverity | 'none';

/** Every {@link FailOn} value, from the most to the least demanding. */
export const FAIL_ON_VALUES: readonly FailOn[] = ['low', 'medium', 'high', 'none'];

/** The default of `--fail-on`: only high findings (SARIF level `error`) fail a check. */
export const DEFAULT_FAIL_ON: FailOn = 'high';

/**
 * Exit codes of `hintgate check`: `clean` when no finding reaches `--fail-on`, `findings`
 * when one does, `usage` for bad options or configuration, `failed` when a server could not
 * be checked (not started, not reached, no tool list) or the pin file could not be written.
 */
export const CHECK_EXIT_CODES = { clean: 0, findings: 1, usage: 2, failed: 3 } as const;

/** Version of the `--json` output's shape; bumped on any change that is not an addition. */
export const CHECK_REPORT_VERSION = 1;

/** What was checked, as given on the command line. */
export type CheckTarget =
  | {
      readonly kind: 'config';
      /** The configuration file, relative to the working directory when inside it. */
      readonly file: string;
    }
  | { readonly kind: 'command'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'url'; readonly url: string };

/** Where something is defined in the configuration file, for SARIF's physical locations. */
export interface SourceLocation {
  /** The file, relative to the working directory with `/` separators when inside it. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** How a stdio server was run for the check: its isolation from the host. */
export interface CheckedServerSandbox {
  /**
   * `bubblewrap`: the host's files were read-only to it except its sandbox and the writable
   * package caches; `none`: no OS isolation, it ran as you (see `reason`).
   */
  readonly isolation: 'bubblewrap' | 'none';
  /** Why there was no OS isolation. */
  readonly reason?: string;
  /** Host package caches handed to it, and whether it could write to them. */
  readonly caches: readonly {
    readonly name: string;
    readonly path: string;
    readonly writable: boolean;
  }[];
  /** Its install folder, when its code ran from a copy in the sandbox instead. */
  readonly copiedFrom?: string;
  /** Why its code ran from where it is installed. */
  readonly notCopied?: string;
}

/** One server of a check. */
export interface CheckedServer {
  /** As the configuration names it, or as the command line target is named. */
  readonly name: string;
  /** `failed` when it could not be started, reached or listed. */
  readonly status: 'checked' | 'failed';
  /** Names of the tools it listed, in its order; empty when it failed. */
  readonly tools: readonly string[];
  /** Why it could not be checked, with what to fix (and the tail of its stderr). */
  readonly error?: string;
  /** Where the configuration defines it. */
  readonly location?: SourceLocation;
  /**
   * Host directories its command line named, replaced by the sandbox's work directory so
   * that the server never sees them (stdio servers); absent when none was.
   */
  readonly replacedDirectories?: readonly string[];
  /** How it was run (stdio servers that were started). */
  readonly sandbox?: CheckedServerSandbox;
  /**
   * The limits its tools declare on themselves in `annotations.custom.rateLimit` (which
   * the gateway honours, trusted or not), in its order; absent when none does.
   */
  readonly declaredLimits?: readonly DeclaredRateLimit[];
}

/** A tool's own `annotations.custom.rateLimit`, as `hintgate check` reports it. */
export interface DeclaredRateLimit {
  readonly tool: string;
  readonly rateLimit: RateLimit;
}

/** A finding with the part of the check that produced it. */
export interface ReportedFinding extends CheckFinding {
  readonly kind: CheckRuleKind;
}

/** Everything one `hintgate check` found, for the formatters. */
export interface CheckReport {
  /** Version of hintgate that made the report. */
  readonly hintgateVersion: string;
  readonly target: CheckTarget;
  /** Whether the side-effect probe ran (`--probe`). */
  readonly probe: boolean;
  /** Whether the probe was allowed to call tools that are not read-only (`--allow-writes`). */
  readonly allowWrites: boolean;
  readonly failOn: FailOn;
  /** Every rule hintgate knows (lint, probe, pin), in documentation order. */
  readonly rules: readonly CheckRule[];
  readonly servers: readonly CheckedServer[];
  readonly findings: readonly ReportedFinding[];
  /** Probe verdicts, one per probed tool. */
  readonly verdicts: readonly ToolVerdict[];
  /**
   * Where verdicts were written by `--write-pin`; absent when they were not. `kept` names
   * the servers that could not be checked, whose pins were left as they were.
   */
  readonly pin?: {
    readonly file: string;
    readonly changed: boolean;
    readonly kept?: readonly string[];
  };
}

const rank = (severity: CheckSeverity): number => CHECK_SEVERITIES.indexOf(severity);

/** Whether `severity` reaches `failOn`. */
export function meetsFailOn(severity: CheckSeverity, failOn: FailOn): boolean {
  return failOn !== 'none' && rank(severity) >= rank(failOn);
}

/**
 * Findings in report order: most severe first, then by server, tool (server-wide findings
 * first), rule id and message, so that the output of two runs over the same tools is the
 * same.
 */
export function sortFindings(findings: readonly ReportedFinding[]): ReportedFinding[] {
  const text = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...findings].sort(
    (a, b) =>
      rank(b.severity) - rank(a.severity) ||
      text(a.server, b.server) ||
      text(a.tool ?? '', b.tool ?? '') ||
      text(a.id, b.id) ||
      text(a.message, b.message),
  );
}

/** Counts of a report, as the table's last line and the JSON `summary` give them. */
export interface CheckSummary {
  readonly servers: number;
  /** Servers that could not be checked. */
  readonly failedServers: number;
  readonly tools: number;
  readonly findings: Readonly<Record<CheckSeverity, number>>;
  /** Findings at or above `failOn`. */
  readonly failing: number;
  readonly verdicts: Readonly<Record<ToolVerdict['verdict'], number>>;
}

/** Counts servers, tools, findings by severity, failing findings and verdicts. */
export function summarize(report: CheckReport): CheckSummary {
  const findings = { low: 0, medium: 0, high: 0 };
  for (const finding of report.findings) findings[finding.severity] += 1;
  const verdicts = { verified: 0, violation: 0, inconclusive: 0 };
  for (const verdict of report.verdicts) verdicts[verdict.verdict] += 1;
  return {
    servers: report.servers.length,
    failedServers: report.servers.filter((server) => server.status === 'failed').length,
    tools: report.servers.reduce((sum, server) => sum + server.tools.length, 0),
    findings,
    failing: report.findings.filter((finding) => meetsFailOn(finding.severity, report.failOn))
      .length,
    verdicts,
  };
}

/**
 * The exit code of a check: 3 when a server could not be checked (the check is incomplete,
 * whatever it found elsewhere), else 1 when a finding reaches `failOn`, else 0.
 */
export function checkExitCode(report: CheckReport): number {
  const summary = summarize(report);
  if (summary.failedServers > 0) return CHECK_EXIT_CODES.failed;
  return summary.failing > 0 ? CHECK_EXIT_CODES.findings : CHECK_EXIT_CODES.clean;
}
