// hintgate check: annotation lint, side-effect probe, pins and reports. Node only (the
// probe starts servers, pins are files).

export {
  CHECK_SEVERITIES,
  type CheckFinding,
  type CheckRule,
  type CheckRuleKind,
  type CheckSeverity,
  type ToolVerdict,
} from './check-types.js';
export { LINT_RULES, type LintToolsOptions, lintTools } from './lint/index.js';
export {
  comparePins,
  type DefinitionDigests,
  definitionDigests,
  formatPinReview,
  type LockFile,
  type PinFinding,
  type PinReport,
  type PinStatus,
  type PinVerdict,
  pinTools,
  type ReadLockFile,
  readLockFile,
  readLockFileIfChanged,
  sameLockFile,
  updateLockFile,
} from './pin/index.js';
export type { ProbeProgress } from './probe/index.js';
export {
  createSandbox,
  detectBubblewrap,
  fixturesForServer,
  ISOLATION_OPTIONS,
  type IsolationOption,
  type LoadedProbeFixtures,
  loadProbeFixtures,
  PROBE_RULES,
  type ProbeFixtures,
  type ProbeReport,
  type ProbeServerOptions,
  type ProbeTarget,
  prepareLaunch,
  probeServer,
  type SandboxIsolation,
} from './probe/index.js';
export {
  CHECK_EXIT_CODES,
  CHECK_REPORT_VERSION,
  type CheckedServer,
  type CheckedServerSandbox,
  type CheckJson,
  type CheckReport,
  type CheckTarget,
  checkExitCode,
  DEFAULT_FAIL_ON,
  FAIL_ON_VALUES,
  type FailOn,
  formatJson,
  formatSarif,
  formatTable,
  PIN_RULES,
  pinCheckFinding,
  type ReportedFinding,
  type SourceLocation,
} from './report/index.js';
