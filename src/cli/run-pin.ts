import { relative } from 'node:path';
import type { PinReport } from '../check/pin/index.js';
import { pinGateway } from '../gateway/index.js';
import { chooseGatewayConfig } from './gateway-config-file.js';
import { parseCommandArgs } from './parse-command-args.js';
import type { CliIo } from './run-cli.js';

export const PIN_USAGE = `Usage: hintgate pin [--config FILE]

Connects to every server of the gateway configuration and records the definition of each
of its tools (a SHA-256 of name, title, description, schemas, annotations and hint _meta)
in the pin file, hintgate.lock beside the configuration unless pin.path says otherwise.
The gateway then runs these definitions and holds back a tool whose definition changes,
until it is reviewed and pinned again. Review what is listed below before you commit the
pin file: a hint that moved toward less caution is marked [high].

Options:
  --config FILE     Gateway configuration. Default: ./hintgate.yaml.
  -h, --help        Show this help and exit.

Exit status: 0 when the pin file is written (or already up to date), 1 when a server
cannot be reached (nothing is written then), 2 for bad options or configuration.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  config: { type: 'string' },
} as const;

const STATUS_WIDTH = 8;

/** The lines of one server's report: a summary, then every tool that was not pinned as it is. */
function reportLines(report: PinReport): string[] {
  const counts = new Map<string, number>();
  for (const state of report.tools) counts.set(state.status, (counts.get(state.status) ?? 0) + 1);
  const listed = report.tools.filter((state) => state.status !== 'removed').length;
  const summary = ['new', 'changed', 'renamed', 'removed']
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${status}`);
  const lines = [
    `${report.server}: ${listed} tool${listed === 1 ? '' : 's'}${summary.length === 0 ? ', unchanged' : ` (${summary.join(', ')})`}`,
  ];
  // On a first pin every tool is new: the summary says so, without a line per tool.
  const first = report.tools.every((state) => state.status === 'new');
  for (const state of report.tools) {
    if (state.status === 'pinned' || first) continue;
    const severity =
      report.findings.find(
        (finding) => finding.tool === state.tool && finding.id !== 'pin-less-caution',
      )?.severity ?? 'low';
    const detail =
      state.status === 'changed'
        ? ` (${(state.changedFields ?? []).join(', ') || 'definition'})`
        : state.status === 'renamed'
          ? ` (was ${state.renamedFrom})`
          : '';
    lines.push(`  ${state.status.padEnd(STATUS_WIDTH)} ${state.tool}${detail} [${severity}]`);
  }
  for (const finding of report.findings) {
    if (finding.id === 'pin-less-caution') lines.push(`  [high] ${finding.message}`);
  }
  return lines;
}

/**
 * `hintgate pin`: pins the tools of every configured server into the pin file and prints
 * what changed since the last pins. Resolves to the exit code.
 */
export async function runPin(argv: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string): void => io.stderr(`hintgate pin: ${line}\n`);
  const parsed = parseCommandArgs('pin', argv, OPTIONS);
  if (!parsed.ok) {
    say(parsed.message);
    return 2;
  }
  const values = parsed.values as { help?: boolean; config?: string };
  if (values.help === true) {
    io.stdout(PIN_USAGE);
    return 0;
  }
  const cwd = io.cwd ?? process.cwd();
  const choice = await chooseGatewayConfig(values.config, cwd, io.env ?? process.env);
  if (choice.kind === 'none') {
    say(`no ${choice.looked}: run "hintgate init" to write one, or give --config FILE.`);
    return 2;
  }
  if (choice.kind === 'invalid') {
    for (const line of choice.lines) say(line);
    return 2;
  }
  const { config } = choice;
  try {
    const result = await pinGateway({ config });
    for (const report of result.reports)
      for (const line of reportLines(report)) io.stdout(`${line}\n`);
    for (const server of result.dropped) {
      io.stdout(`${server}: no longer configured; its pins were dropped\n`);
    }
    const tools = result.reports.reduce(
      (sum, report) => sum + report.tools.filter((state) => state.status !== 'removed').length,
      0,
    );
    const servers = result.reports.length;
    const where = relative(cwd, result.path) || result.path;
    io.stdout(
      `${result.changed ? 'Wrote' : 'Up to date:'} ${where}: ${tools} tool${tools === 1 ? '' : 's'} of ${servers} server${servers === 1 ? '' : 's'} pinned.\n`,
    );
    return 0;
  } catch (error) {
    const [first = '', ...rest] = (error instanceof Error ? error.message : String(error)).split(
      '\n',
    );
    say(first);
    for (const line of rest) if (line.trim() !== '') io.stderr(`  ${line}\n`);
    return 1;
  }
}
