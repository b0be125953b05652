import { resolve } from 'node:path';
import {
  CHECK_EXIT_CODES,
  DEFAULT_FAIL_ON,
  detectBubblewrap,
  type LoadedProbeFixtures,
  loadProbeFixtures,
} from '../check/early.js';
import type { CheckTarget } from '../check/index.js';
import type { LoadedGatewayConfig, LoadedGatewayServer } from '../gateway/early.js';
import { chooseGatewayConfig } from './gateway-config-file.js';
import { type CheckCliOptions, parseCheckArgs } from './parse-check-args.js';
import { reportPath } from './run-check-locations.js';
import type { CliIo } from './run-cli.js';

export const CHECK_USAGE = `Usage: hintgate check [--config FILE | --url URL [--header "Name: value"]... | -- COMMAND ARGS...]
                      [--probe [--allow-writes] [--fixtures FILE]] [--pass-env NAME]...
                      [--json | --sarif | --min-severity SEVERITY | --quiet]
                      [--fail-on SEVERITY] [--write-pin] [--connect-timeout SECONDS]
                      [--install-timeout SECONDS] [--isolation auto|bubblewrap|none]
                      [--no-host-cache]

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
  --pass-env NAME   Hand the host's NAME to servers run in the sandbox (repeatable). Only
                    PATH, the configured env and the package caches are passed by default.
  --json            Print the report as JSON (a stable shape with "version": 1).
  --sarif           Print the report as SARIF 2.1.0, for code scanning.
  --min-severity SEV
                    low | medium | high: the table shows findings from this severity up
                    and counts the rest as folded. Default: medium (and whatever fails).
  -q, --quiet       The table shows only what fails the check: findings at or above
                    --fail-on, servers not checked and violations.
  --fail-on SEV     low | medium | high | none: the lowest severity that fails the check.
                    Default: ${DEFAULT_FAIL_ON}.
  --write-pin       With --probe: record the probe's verdicts with the pins in the
                    configuration's pin file (hintgate.lock); the gateway then trusts the
                    annotations of tools verified this way. A server that could not be
                    checked keeps its pins; the others are written.
  --connect-timeout SECONDS
                    Time a server gets to answer each step of its start (the protocol
                    handshake, the tool list). A server that answers nothing is given it
                    twice: once per protocol era tried. Default: 30, and 120 for uvx,
                    pipx, bunx, pnpx and docker, which may download on a first start.
  --install-timeout SECONDS
                    Time npx gets to install a server's package before it starts (apart
                    from --connect-timeout). Default: 300.
  --isolation MODE  auto | bubblewrap | none: OS isolation of stdio servers. auto (the
                    default) uses bubblewrap (Linux, bwrap installed) to make the host's
                    files read-only to the server but for its sandbox and the package
                    caches; bubblewrap fails when it cannot; none runs servers as you.
  --no-host-cache   Do not hand the host's npm and uv caches to servers in the sandbox
                    (they are handed in by default, so that npx and uvx find what they
                    downloaded before).
  -h, --help        Show this help and exit.

On a terminal, the table is preceded by one progress line per server.

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 for bad options or
configuration, 3 when a server could not be checked or the pin file not written (the
other servers are still reported, and with --write-pin pinned). Rules, output formats and
CI setup: docs/check.md.
`;

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

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

  if (options.isolation === 'bubblewrap') {
    const bubblewrap = await detectBubblewrap();
    if (!bubblewrap.available) {
      say(`--isolation bubblewrap: ${bubblewrap.reason}. Use --isolation auto to fall back.`);
      return CHECK_EXIT_CODES.usage;
    }
  }
  // Loaded once the options and files are checked: a refusal answers without loading the
  // lint, the probe and the MCP SDK.
  const { checkAndReport } = await import('./check-and-report.js');
  return checkAndReport({ options, io, cwd, servers, target, config, fixtures, say, sayBlock });
}
