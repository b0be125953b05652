import { createRequire } from 'node:module';
import {
  CHECK_EXIT_CODES,
  type CheckedServer,
  type CheckReport,
  type CheckRule,
  type CheckTarget,
  checkExitCode,
  fixturesForServer,
  formatJson,
  formatSarif,
  formatTable,
  LINT_RULES,
  type LoadedProbeFixtures,
  PIN_RULES,
  PROBE_RULES,
  type ReportedFinding,
} from '../check/index.js';
import type { LoadedGatewayConfig, LoadedGatewayServer } from '../gateway/index.js';
import { checkConfig } from './check-config.js';
import { CheckProgress } from './check-progress.js';
import { nextSignal } from './next-signal.js';
import type { CheckCliOptions } from './parse-check-args.js';
import { reportPath, serverLocations } from './run-check-locations.js';
import { type CheckServerOptions, checkServer } from './run-check-server.js';
import type { CliIo } from './run-cli.js';

const version = (): string => {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
};

/** Every rule hintgate check knows, in documentation order: lint, probe, pin. */
const ALL_RULES: readonly CheckRule[] = [...LINT_RULES, ...PROBE_RULES, ...PIN_RULES];

/** What `hintgate check` checks and reports, once its options and files are read. */
export interface CheckAndReportInput {
  readonly options: CheckCliOptions;
  readonly io: CliIo;
  readonly cwd: string;
  readonly servers: readonly LoadedGatewayServer[];
  readonly target: CheckTarget;
  /** The configuration, when the target is one. */
  readonly config: LoadedGatewayConfig | undefined;
  readonly fixtures: LoadedProbeFixtures | undefined;
  /** One line to stderr, after `hintgate check: `. */
  readonly say: (line: string) => void;
  /** A message of several lines to stderr, the first after `hintgate check: `. */
  readonly sayBlock: (text: string) => void;
}

/**
 * Lints (and with --probe, probes) the servers, prints the report on stdout as the options
 * ask, and with --write-pin records the verdicts. Resolves to the exit code.
 */
export async function checkAndReport({
  options,
  io,
  cwd,
  servers,
  target,
  config,
  fixtures,
  say,
  sayBlock,
}: CheckAndReportInput): Promise<number> {
  // SIGINT or SIGTERM stops the checks under way: their servers are closed and their
  // sandboxes removed, and the report says what was not checked. A second one exits at once.
  const stop = new AbortController();
  const signals = nextSignal();
  void signals.signal.then((name) => {
    stop.abort(new Error(`stopped by ${name} before it was checked`));
  });
  const serverOptions: Omit<CheckServerOptions, 'fixtures' | 'onProgress'> = {
    signal: stop.signal,
    probe: options.probe,
    allowWrites: options.allowWrites,
    passEnv: options.passEnv,
    isolation: options.isolation,
    hostCaches: options.hostCaches,
    ...(options.connectTimeoutMs === undefined
      ? {}
      : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.installTimeoutMs === undefined
      ? {}
      : { installTimeoutMs: options.installTimeoutMs }),
  };
  const fixturesOf = (server: string) =>
    fixtures === undefined ? {} : { fixtures: fixturesForServer(fixtures, server) };
  // Progress only where a person watches the table come: not for --json, --sarif or a pipe.
  const progress =
    io.stdoutIsTTY === true && options.format === 'table'
      ? new CheckProgress({
          write: io.stdout,
          servers: servers.map((server) => server.name),
          columns: process.stdout.columns ?? 80,
        })
      : undefined;
  const onProgress = progress === undefined ? undefined : progress.update.bind(progress);
  let failed = false;
  let result: Awaited<ReturnType<typeof checkConfig>>;
  try {
    if (config !== undefined) {
      result = await checkConfig({
        ...serverOptions,
        config,
        ...(fixtures === undefined
          ? {}
          : { fixturesFor: (name: string) => fixturesForServer(fixtures, name) }),
        writePin: options.writePin,
        ...(onProgress === undefined ? {} : { onProgress }),
      });
    } else {
      const checks = await Promise.all(
        servers.map((server) =>
          checkServer(server, {
            ...serverOptions,
            ...fixturesOf(server.name),
            ...(onProgress === undefined
              ? {}
              : { onProgress: (event) => onProgress(server.name, event) }),
          }),
        ),
      );
      result = {
        checks,
        findings: checks.flatMap((check) => check.findings),
        verdicts: checks.flatMap((check) => check.verdicts),
        pinErrors: [],
      };
    }
  } finally {
    signals.dispose();
    progress?.finish();
  }
  if (progress !== undefined) io.stdout('\n');
  const { checks, verdicts } = result;
  const findings: ReportedFinding[] = [...result.findings];
  for (const check of checks) {
    if (check.server.status === 'failed') sayBlock(check.server.error ?? 'failed');
  }
  for (const error of result.pinErrors) {
    sayBlock(error);
    failed = true;
  }
  let pin: CheckReport['pin'];
  if (result.pin !== undefined && config !== undefined) {
    pin = {
      file: reportPath(config.pin.path, cwd),
      changed: result.pin.changed,
      ...(result.pin.kept.length === 0 ? {} : { kept: result.pin.kept }),
    };
    if (result.pin.kept.length > 0) {
      say(
        `wrote the verdicts of the servers that were checked to ${pin.file}; ${result.pin.kept.join(', ')} could not be checked and kept ${result.pin.kept.length === 1 ? 'its' : 'their'} pins.`,
      );
    }
  }

  const locations = config === undefined ? new Map() : await serverLocations(config.file, cwd);
  const report: CheckReport = {
    hintgateVersion: version(),
    target,
    probe: options.probe,
    allowWrites: options.allowWrites,
    failOn: options.failOn,
    rules: ALL_RULES,
    servers: checks.map((check): CheckedServer => {
      const location = locations.get(check.server.name);
      return location === undefined ? check.server : { ...check.server, location };
    }),
    findings,
    verdicts,
    ...(pin === undefined ? {} : { pin }),
  };
  const table = () =>
    formatTable(report, {
      ...(options.minSeverity === undefined ? {} : { minSeverity: options.minSeverity }),
      quiet: options.quiet,
    });
  io.stdout(
    { table, json: () => formatJson(report), sarif: () => formatSarif(report) }[options.format](),
  );
  return failed ? CHECK_EXIT_CODES.failed : checkExitCode(report);
}
