import type { CheckSeverity, ToolVerdict } from '../check-types.js';
import {
  CHECK_REPORT_VERSION,
  type CheckedServerSandbox,
  type CheckReport,
  type CheckSummary,
  type CheckTarget,
  checkExitCode,
  type FailOn,
  meetsFailOn,
  type SourceLocation,
  sortFindings,
  summarize,
} from './check-report.js';

/** One finding of {@link CheckJson}. */
export interface CheckJsonFinding {
  /** Which part of the check found it: `lint`, `probe` or `pin`. */
  readonly kind: 'lint' | 'probe' | 'pin';
  /** The rule id (see `docs/check.md`). */
  readonly id: string;
  readonly severity: CheckSeverity;
  readonly server: string;
  /** Absent for a finding about the whole server. */
  readonly tool?: string;
  readonly message: string;
  readonly fix: string;
  /** Empty when there is none. */
  readonly evidence: readonly string[];
  /** Whether it reaches `--fail-on`. */
  readonly failing: boolean;
}

/** One server of {@link CheckJson}. */
export interface CheckJsonServer {
  readonly name: string;
  readonly status: 'checked' | 'failed';
  readonly tools: readonly string[];
  /** Present when `status` is `failed`. */
  readonly error?: string;
  /** Where the configuration defines it (with `--config`). */
  readonly location?: SourceLocation;
  /** Host directories in its arguments that the sandbox's work directory replaced. */
  readonly replacedDirectories?: readonly string[];
  /** How it was isolated from the host (stdio servers that were started). */
  readonly sandbox?: CheckedServerSandbox;
}

/**
 * The `--json` output of `hintgate check`, version {@link CHECK_REPORT_VERSION}. Fields may
 * be added in the same version; a removal or change of meaning bumps it.
 */
export interface CheckJson {
  readonly version: typeof CHECK_REPORT_VERSION;
  /** The version of hintgate. */
  readonly hintgate: string;
  readonly target: CheckTarget;
  readonly probe: boolean;
  readonly allowWrites: boolean;
  readonly failOn: FailOn;
  /** The exit code the command ends with. */
  readonly exitCode: number;
  readonly summary: CheckSummary;
  readonly servers: readonly CheckJsonServer[];
  /** Most severe first, then by server, tool and rule id. */
  readonly findings: readonly CheckJsonFinding[];
  readonly verdicts: readonly ToolVerdict[];
  /**
   * The pin file `--write-pin` wrote, else `null`; `kept`: servers that could not be checked,
   * whose pins were left as they were (absent when every server was checked).
   */
  readonly pin: CheckReport['pin'] | null;
}

/** The report as the plain object `--json` prints. */
export function toCheckJson(report: CheckReport): CheckJson {
  return {
    version: CHECK_REPORT_VERSION,
    hintgate: report.hintgateVersion,
    target: report.target,
    probe: report.probe,
    allowWrites: report.allowWrites,
    failOn: report.failOn,
    exitCode: checkExitCode(report),
    summary: summarize(report),
    servers: report.servers.map((server) => ({
      name: server.name,
      status: server.status,
      tools: server.tools,
      ...(server.error === undefined ? {} : { error: server.error }),
      ...(server.location === undefined ? {} : { location: server.location }),
      ...(server.replacedDirectories === undefined
        ? {}
        : { replacedDirectories: server.replacedDirectories }),
      ...(server.sandbox === undefined ? {} : { sandbox: server.sandbox }),
      ...(server.declaredLimits === undefined ? {} : { declaredLimits: server.declaredLimits }),
    })),
    findings: sortFindings(report.findings).map((finding) => ({
      kind: finding.kind,
      id: finding.id,
      severity: finding.severity,
      server: finding.server,
      ...(finding.tool === undefined ? {} : { tool: finding.tool }),
      message: finding.message,
      fix: finding.fix,
      evidence: finding.evidence ?? [],
      failing: meetsFailOn(finding.severity, report.failOn),
    })),
    verdicts: report.verdicts,
    pin: report.pin ?? null,
  };
}

/** The `--json` output: {@link CheckJson}, indented two spaces, with a final newline. */
export function formatJson(report: CheckReport): string {
  return `${JSON.stringify(toCheckJson(report), null, 2)}\n`;
}
