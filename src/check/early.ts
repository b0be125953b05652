/**
 * The parts of the check layer `hintgate check` reads its options and files with before it
 * loads the rest of it (the lint, the probe and the MCP SDK under them): a bad option, a
 * missing configuration or a broken fixtures file is refused without loading them.
 */
export { CHECK_SEVERITIES, type CheckSeverity } from './check-types.js';
export {
  detectBubblewrap,
  ISOLATION_OPTIONS,
  type IsolationOption,
} from './probe/bubblewrap.js';
export {
  fixturesForServer,
  type LoadedProbeFixtures,
  loadProbeFixtures,
} from './probe/load-probe-fixtures.js';
export {
  CHECK_EXIT_CODES,
  DEFAULT_FAIL_ON,
  FAIL_ON_VALUES,
  type FailOn,
} from './report/check-report.js';
