import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { canonicalJson } from '../audit/argument-digest.js';
import type { CheckRule, ToolVerdict } from '../check/check-types.js';
import { LINT_RULES } from '../check/lint/index.js';
import {
  comparePins,
  type LockFile,
  type PinVerdict,
  pinTools,
  readLockFile,
  updateLockFile,
} from '../check/pin/index.js';
import {
  fixturesForServer,
  type LoadedProbeFixtures,
  loadProbeFixtures,
  PROBE_RULES,
} from '../check/probe/index.js';
import {
  CHECK_EXIT_CODES,
  type CheckedServer,
  type CheckReport,
  type CheckTarget,
  checkExitCode,
  DEFAULT_FAIL_ON,
  formatJson,
  formatSarif,
  formatTable,
  PIN_RULES,
  pinCheckFinding,
  type ReportedFinding,
} from '../check/report/index.js';
import type { LoadedGatewayConfig, LoadedGatewayServer } from '../gateway/config/index.js';
import { nullRecord } from '../tool/index.js';
import { chooseGatewayConfig } from './gateway-config-file.js';
import { type CheckCliOptions, parseCheckArgs } from './parse-check-args.js';
import { reportPath, serverLocations } from './run-check-locations.js';
import { checkServer, type ServerCheck } from './run-check-server.js';
import type { CliIo } from './run-cli.js';

export const CHECK_USAGE = `Usage: hintgate check [--config FILE | --url URL [--header "Name: value"]... | -- COMMAND ARGS...]
                      [--probe [--allow-writes] [--fixtures FILE]] [--pass-env NAME]...
                      [--json | --sarif] [--fail-on SEVERITY] [--write-pin]
                      [--connect-timeout SECONDS]

Checks that MCP servers' tool annotations (readOnlyHint, destructiveHint, idempotentHint,
openWorldHint) can be trusted. The lint always runs: it reads each server's tool list and
reports missing, malformed or contradictory annotations (a tool named delete_* that claims
to be read-only). The probe (--probe) runs each stdio server in a throw-away sandbox (its
own home, temp and work directories; host directories in its arguments replaced by the
sandbox's) and calls its read-only tools twice with synthesized arguments: a tool that
changes files, state or the tool list is a violation. With a configuration and its pin
file, tools that changed since "hintgate pin" are reported too.

Targets (one of):
  --config FILE     Every server of a gateway configuration (hintgate.yaml, or an MCP
                    client configuration). Default: ./hintgate.yaml.
  --url URL         One Streamable HTTP server. --header "Name: value" adds a request
                    header (repeatable), e.g. for a bearer token.
  -- COMMAND ARGS   One stdio server: everything after "--" is its command line. Named
                    after the command (npx -y @scope/pkg is "pkg"); --name NAME renames it.

Options:
  --probe           Run the side-effect probe as well as the lint.
  --allow-writes    Let the probe also call tools that are not read-only (in the sandbox;
                    an HTTP server's own data is not sandboxed). Default: never called.
  --fixtures FILE   Arguments to call tools with instead of synthesized ones (YAML/JSON:
                    { tool: [ {args}, ... ] }, or per server under "servers").
  --pass-env NAME   Hand the host's NAME to servers run in the sandbox (repeatable), e.g.
                    npm_config_cache so that npx finds its cache. Only PATH (and the
                    configured env) is passed by default.
  --json            Print the report as JSON (a stable shape with "version": 1).
  --sarif           Print the report as SARIF 2.1.0, for code scanning.
  --fail-on SEV     low | medium | high | none: the lowest severity that fails the check.
                    Default: ${DEFAULT_FAIL_ON}.
  --write-pin       With --probe: record the probe's verdicts with the pins in the
                    configuration's pin file (hintgate.lock); the gateway then trusts the
                    annotations of tools verified this way.
  --connect-timeout SECONDS
                    Time a server gets to answer each step of its start (the protocol
                    handshake, the tool list); npx downloading a package into the
                    sandbox's empty home may need more. A server that answers nothing
                    is given it twice: once per protocol era tried. Default: 30.
  -h, --help        Show this help and exit.

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 for bad options or
configuration, 3 when a server could not be checked or the pin file not written (the
other servers are still reported). Rules, output formats and CI setup: docs/check.md.
`;

const version = (): string => {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
};

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Every rule hintgate check knows, in documentation order: lint, probe, pin. */
const ALL_RULES: readonly CheckRule[] = [...LINT_RULES, ...PROBE_RULES, ...PIN_RULES];

/** What the options ask to check: the servers, how the report names the target, the config. */
interface ResolvedTarget {
  readonly servers: readonly LoadedGatewayServer[];
  readonly target: CheckTarget;
  readonly config?: LoadedGatewayConfig;
}

type Resolution = { ok: true; value: ResolvedTarget } | { ok: false; lines: string[] };

async function resolveTarget(
  options: CheckCliOptions,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Resolution> {
  const { target } = options;
  if (target.kind === 'command') {
    return {
      ok: true,
      value: {
        servers: [
          {
            name: target.name,
            transport: 'stdio',
            command: target.command,
            args: target.args,
            cwd,
            trusted: false,
            tools: {},
          },
        ],
        target: { kind: 'command', command: target.command, args: target.args },
      },
    };
  }
  if (target.kind === 'url') {
    return {
      ok: true,
      value: {
        servers: [
          {
            name: target.name,
            transport: 'http',
            url: target.url,
            headers: target.headers,
            trusted: false,
            tools: {},
          },
        ],
        target: { kind: 'url', url: target.url },
      },
    };
  }
  const choice = await chooseGatewayConfig(target.file, cwd, env);
  if (choice.kind === 'none') {
    return {
      ok: false,
      lines: [
        `no ${choice.looked}: give --config FILE, --url URL or -- COMMAND ARGS... ("hintgate init" writes a configuration).`,
      ],
    };
  }
  if (choice.kind === 'invalid') return { ok: false, lines: [...choice.lines] };
  const { config } = choice;
  return {
    ok: true,
    value: {
      servers: config.servers,
      target: { kind: 'config', file: reportPath(config.file, cwd) },
      config,
    },
  };
}

/** The pin comparison of each checked server against the pin file, when there is one. */
async function pinFindings(
  config: LoadedGatewayConfig | undefined,
  checks: readonly ServerCheck[],
): Promise<ReportedFinding[]> {
  if (config === undefined || !existsSync(config.pin.path)) return [];
  const lock = await readLockFile(config.pin.path);
  return checks
    .filter((check) => check.server.status === 'checked')
    .flatMap((check) =>
      comparePins(lock, { server: check.server.name, listings: check.listings }).findings.map(
        pinCheckFinding,
      ),
    );
}

/**
 * Pins every configured server's tools as listed now, with the probe's verdicts, into the
 * configuration's pin file (as "hintgate pin" does: pins of servers no longer configured are
 * dropped). Resolves to whether the file changed.
 */
async function writePins(
  config: LoadedGatewayConfig,
  checks: readonly ServerCheck[],
  verdicts: readonly ToolVerdict[],
): Promise<boolean> {
  const configured = new Set(config.servers.map((server) => server.name));
  let before = '';
  let after = '';
  await updateLockFile(config.pin.path, (current) => {
    before = canonicalJson(current);
    let next: LockFile = {
      version: current.version,
      servers: nullRecord(Object.entries(current.servers).filter(([name]) => configured.has(name))),
    };
    for (const check of checks) {
      const listed = new Set(check.listings.map((listing) => listing.name));
      const own = nullRecord<PinVerdict>();
      for (const verdict of verdicts) {
        if (verdict.server === check.server.name && listed.has(verdict.tool)) {
          own[verdict.tool] = verdict.verdict;
        }
      }
      next = pinTools(next, { server: check.server.name, listings: check.listings, verdicts: own });
    }
    after = canonicalJson(next);
    return next;
  });
  return before !== after;
}

/**
 * `hintgate check`: lints (and with --probe, probes) the tools of a configuration's servers,
 * of one server command or of one URL; prints a table, JSON or SARIF on stdout; with
 * --write-pin records the verdicts in the pin file. Resolves to the exit code (see
 * {@link CHECK_USAGE}).
 */
export async function runCheck(argv: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string): void => io.stderr(`hintgate check: ${line}\n`);
  const sayBlock = (text: string): void => {
    const [first = '', ...rest] = text.split('\n');
    say(first);
    for (const line of rest) if (line.trim() !== '') io.stderr(`  ${line}\n`);
  };
  const parsed = parseCheckArgs(argv);
  if (!parsed.ok) {
    say(parsed.message);
    return CHECK_EXIT_CODES.usage;
  }
  if (parsed.help) {
    io.stdout(CHECK_USAGE);
    return 0;
  }
  const { options } = parsed;
  const cwd = io.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  const resolved = await resolveTarget(options, cwd, env);
  if (!resolved.ok) {
    for (const line of resolved.lines) say(line);
    return CHECK_EXIT_CODES.usage;
  }
  const { servers, target, config } = resolved.value;
  let fixtures: LoadedProbeFixtures | undefined;
  if (options.fixtures !== undefined) {
    try {
      fixtures = await loadProbeFixtures(resolve(cwd, options.fixtures));
    } catch (error) {
      for (const line of messageOf(error).split('\n')) if (line.trim() !== '') say(line);
      return CHECK_EXIT_CODES.usage;
    }
  }

  const checks = await Promise.all(
    servers.map((server) =>
      checkServer(server, {
        probe: options.probe,
        allowWrites: options.allowWrites,
        ...(fixtures === undefined ? {} : { fixtures: fixturesForServer(fixtures, server.name) }),
        passEnv: options.passEnv,
        ...(options.connectTimeoutMs === undefined
          ? {}
          : { connectTimeoutMs: options.connectTimeoutMs }),
      }),
    ),
  );
  for (const check of checks) {
    if (check.server.status === 'failed') sayBlock(check.server.error ?? 'failed');
  }
  let failed = false;
  const findings = checks.flatMap((check) => check.findings);
  try {
    findings.push(...(await pinFindings(config, checks)));
  } catch (error) {
    sayBlock(messageOf(error));
    failed = true;
  }
  const verdicts = checks.flatMap((check) => check.verdicts);
  let pin: CheckReport['pin'];
  if (options.writePin && config !== undefined) {
    if (checks.some((check) => check.server.status === 'failed')) {
      say(`nothing written to ${reportPath(config.pin.path, cwd)}: not every server was checked.`);
    } else {
      try {
        const changed = await writePins(config, checks, verdicts);
        pin = { file: reportPath(config.pin.path, cwd), changed };
      } catch (error) {
        sayBlock(messageOf(error));
        failed = true;
      }
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
  const format = { table: formatTable, json: formatJson, sarif: formatSarif }[options.format];
  io.stdout(format(report));
  return failed ? CHECK_EXIT_CODES.failed : checkExitCode(report);
}
