import { existsSync } from 'node:fs';
import { canonicalJson } from '../audit/index.js';
import type { ProbeFixtures, ToolVerdict } from '../check/index.js';
import {
  comparePins,
  type LockFile,
  type PinVerdict,
  pinCheckFinding,
  pinTools,
  type ReportedFinding,
  readLockFile,
  updateLockFile,
} from '../check/index.js';
import type { LoadedGatewayConfig } from '../gateway/index.js';
import { nullRecord } from '../tool/index.js';
import {
  type CheckServerOptions,
  checkServer,
  type ServerCheck,
  type ServerCheckProgress,
} from './run-check-server.js';

/** Options of {@link checkConfig}. */
export interface CheckConfigOptions extends Omit<CheckServerOptions, 'onProgress' | 'fixtures'> {
  /** The loaded configuration: every one of its servers is checked, concurrently. */
  readonly config: LoadedGatewayConfig;
  /** Probe argument sets for a server, by its name (see `fixturesForServer`). Default none. */
  readonly fixturesFor?: (server: string) => ProbeFixtures | undefined;
  /**
   * Record the probe's verdicts with the pins in the configuration's pin file (needs
   * `probe`): see {@link writeVerdictPins}. Default false.
   */
  readonly writePin?: boolean;
  /** Told where the check of each server is (for progress on a terminal). */
  readonly onProgress?: (server: string, progress: ServerCheckProgress) => void;
}

/** What {@link writeVerdictPins} did. */
export interface VerdictPinsResult {
  /** The pin file. */
  readonly path: string;
  /** Whether its content changed. */
  readonly changed: boolean;
  /** Servers whose tools were pinned with their verdicts. */
  readonly pinned: readonly string[];
  /** Servers that could not be checked: their pins, if any, were left as they were. */
  readonly kept: readonly string[];
}

/** What {@link checkConfig} found. */
export interface CheckConfigResult {
  /** One per configured server, in configuration order; `server.status` says if it failed. */
  readonly checks: readonly ServerCheck[];
  /**
   * Lint and probe findings, and the pin findings of the checked servers compared with the
   * pin file as it was before any write (none when there was no pin file).
   */
  readonly findings: readonly ReportedFinding[];
  /** The probe's verdicts of every checked server. */
  readonly verdicts: readonly ToolVerdict[];
  /** What `writePin` wrote; absent without it, or when the pin file could not be written. */
  readonly pin?: VerdictPinsResult;
  /** Why the pin file could not be read or written, one message each. */
  readonly pinErrors: readonly string[];
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Pins the tools of every checked server as listed now, each with its probe verdict, into
 * the configuration's pin file (as `hintgate pin` pins them: same definitions and hashes).
 * A server that could not be checked keeps the pins it had, so one broken server does not
 * keep the verdicts of the others out; pins of servers no longer configured are dropped.
 *
 * @throws HintgateError `invalid_lock_file`, `lock_file_locked` or `lock_file_write_failed`.
 */
export async function writeVerdictPins(
  config: LoadedGatewayConfig,
  checks: readonly ServerCheck[],
): Promise<VerdictPinsResult> {
  const configured = new Set(config.servers.map((server) => server.name));
  let before = '';
  let after = '';
  const pinned: string[] = [];
  const kept: string[] = [];
  await updateLockFile(config.pin.path, (current) => {
    before = canonicalJson(current);
    pinned.length = 0;
    kept.length = 0;
    let next: LockFile = {
      version: current.version,
      servers: nullRecord(Object.entries(current.servers).filter(([name]) => configured.has(name))),
    };
    for (const check of checks) {
      if (check.server.status !== 'checked') {
        kept.push(check.server.name);
        continue;
      }
      const listed = new Set(check.listings.map((listing) => listing.name));
      const own = nullRecord<PinVerdict>();
      for (const verdict of check.verdicts) {
        if (verdict.server === check.server.name && listed.has(verdict.tool)) {
          own[verdict.tool] = verdict.verdict;
        }
      }
      next = pinTools(next, { server: check.server.name, listings: check.listings, verdicts: own });
      pinned.push(check.server.name);
    }
    after = canonicalJson(next);
    return next;
  });
  return { path: config.pin.path, changed: before !== after, pinned, kept };
}

/**
 * Checks every server of a configuration, concurrently (`checkServer`: lint, and with
 * `probe` the side-effect probe, stdio servers in a sandbox), compares the checked servers'
 * tools with the pin file, and with `writePin` records the verdicts with the pins
 * ({@link writeVerdictPins}). A server that cannot be checked is reported in its
 * `ServerCheck` (status `failed`, with the reason) and does not stop the others, nor the
 * writing of their verdicts. Never rejects for a server's or the pin file's problem: those
 * are in the result (`server.error`, `pinErrors`). Once `signal` is aborted, the servers
 * still being checked come back `failed` and nothing is written.
 */
export async function checkConfig(options: CheckConfigOptions): Promise<CheckConfigResult> {
  const { config, writePin = false, onProgress, fixturesFor, ...serverOptions } = options;
  const checks = await Promise.all(
    config.servers.map((server) => {
      const fixtures = fixturesFor?.(server.name);
      return checkServer(server, {
        ...serverOptions,
        ...(fixtures === undefined ? {} : { fixtures }),
        ...(onProgress === undefined
          ? {}
          : { onProgress: (progress) => onProgress(server.name, progress) }),
      });
    }),
  );
  const findings: ReportedFinding[] = checks.flatMap((check) => check.findings);
  const verdicts = checks.flatMap((check) => check.verdicts);
  const pinErrors: string[] = [];
  if (existsSync(config.pin.path)) {
    try {
      const lock = await readLockFile(config.pin.path);
      for (const check of checks) {
        if (check.server.status !== 'checked') continue;
        const report = comparePins(lock, { server: check.server.name, listings: check.listings });
        findings.push(...report.findings.map(pinCheckFinding));
      }
    } catch (error) {
      pinErrors.push(messageOf(error));
    }
  }
  let pin: VerdictPinsResult | undefined;
  // A check that was stopped writes nothing: it was not meant to be the last word.
  if (writePin && pinErrors.length === 0 && options.signal?.aborted !== true) {
    try {
      pin = await writeVerdictPins(config, checks);
    } catch (error) {
      pinErrors.push(messageOf(error));
    }
  }
  return { checks, findings, verdicts, ...(pin === undefined ? {} : { pin }), pinErrors };
}
