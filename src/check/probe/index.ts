export {
  type BubblewrapAvailability,
  detectBubblewrap,
  ISOLATION_OPTIONS,
  type IsolationKind,
  type IsolationOption,
} from './bubblewrap.js';
export {
  diffSnapshots,
  type FileChange,
  type FileSnapshot,
  formatFileChange,
  type SnapshotEntry,
  snapshotFiles,
} from './fs-snapshot.js';
export {
  fixturesForServer,
  type LoadedProbeFixtures,
  type LoadProbeFixturesOptions,
  loadProbeFixtures,
  type ProbeFixtures,
  parseProbeFixtures,
} from './load-probe-fixtures.js';
export { type HostPackageCache, hostPackageCaches } from './package-caches.js';
export {
  DEFAULT_INSTALL_TIMEOUT_MS,
  type LaunchPlan,
  type PrepareLaunchOptions,
  prepareLaunch,
  type SandboxIsolation,
} from './prepare-launch.js';
export { PROBE_RULE_IDS, PROBE_RULES, type ProbeRuleId } from './probe-rules.js';
export { probeServer } from './probe-server.js';
export type {
  ProbeProgress,
  ProbeReport,
  ProbeSandboxReport,
  ProbeServerOptions,
  ProbeTarget,
} from './probe-types.js';
export {
  type CreateSandboxOptions,
  createSandbox,
  PASSED_HOST_VARIABLES,
  type Sandbox,
  type SandboxCommandLine,
  type SandboxInfo,
  SEEDED_FILES,
  type SubstitutedArgument,
  sandboxCommandLine,
  sandboxEnvironment,
} from './sandbox.js';
export {
  type ArgumentCheck,
  checkArguments,
  type SynthesisContext,
  type SynthesisOutcome,
  synthesizeArguments,
} from './synthesize-arguments.js';
