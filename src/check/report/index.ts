export {
  CHECK_EXIT_CODES,
  CHECK_REPORT_VERSION,
  type CheckedServer,
  type CheckedServerSandbox,
  type CheckReport,
  type CheckSummary,
  type CheckTarget,
  checkExitCode,
  DEFAULT_FAIL_ON,
  FAIL_ON_VALUES,
  type FailOn,
  meetsFailOn,
  type ReportedFinding,
  type SourceLocation,
  sortFindings,
  summarize,
} from './check-report.js';
export {
  type CheckJson,
  type CheckJsonFinding,
  type CheckJsonServer,
  formatJson,
  toCheckJson,
} from './format-json.js';
export {
  formatSarif,
  HINTGATE_INFORMATION_URI,
  SARIF_FINGERPRINT_KEY,
  SARIF_LEVELS,
  SARIF_SCHEMA_URI,
} from './format-sarif.js';
export { type FormatTableOptions, formatTable } from './format-table.js';
export { PIN_RULES, pinCheckFinding } from './pin-rules.js';
