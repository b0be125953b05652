import { relative } from 'node:path';
import { createInterface } from 'node:readline';
import type { PinPlan } from '../gateway/pin.js';
import { chooseGatewayConfig } from './gateway-config-file.js';
import { parseCommandArgs } from './parse-command-args.js';
import type { CliIo } from './run-cli.js';

export const PIN_USAGE = `Usage: hintgate pin [--config FILE] [--yes | --dry-run]

Connects to every server of the gateway configuration and records the definition of each
of its tools (title, description, schemas, annotations and hint _meta, with a SHA-256 of
them) in the pin file, hintgate.lock beside the configuration unless pin.path says
otherwise. The gateway then runs these definitions and holds back a tool whose definition
changes, until it is reviewed and pinned again.

What changed since the last pins is shown first, per tool: the old and the new description,
annotation changes (a hint that now asks for less caution is called out as a downgrade),
schema changes, and a description that gained instructions to the model. On a terminal,
hintgate pin then asks before it writes; elsewhere it writes only with --yes. A first pin
(no pins yet for a server) is written without asking.

Options:
  --config FILE     Gateway configuration. Default: ./hintgate.yaml.
  --yes             Pin the changes without asking (for scripts; review them first, e.g.
                    with --dry-run).
  --dry-run         Show what would change and write nothing.
  -h, --help        Show this help and exit.

Exit status: 0 when the pin file is written or already up to date (or, with --dry-run,
shown), 1 when a server cannot be reached or changes were not confirmed (nothing is
written then), 2 for bad options or configuration.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  config: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'dry-run': { type: 'boolean' },
} as const;

/** Reads one line from `input`: the answer to a question. Empty at the end of input. */
function readAnswer(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    const lines = createInterface({ input, terminal: false });
    let answered = false;
    const done = (answer: string): void => {
      if (answered) return;
      answered = true;
      lines.close();
      resolve(answer);
    };
    lines.once('line', done);
    lines.once('close', () => done(''));
  });
}

/**
 * `hintgate pin`: shows what changed since the last pins, asks for confirmation on a
 * terminal (`--yes` for scripts, `--dry-run` to only show), then pins the tools of every
 * configured server into the pin file. Resolves to the exit code.
 */
export async function runPin(argv: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string): void => io.stderr(`hintgate pin: ${line}\n`);
  const parsed = parseCommandArgs('pin', argv, OPTIONS);
  if (!parsed.ok) {
    say(parsed.message);
    return 2;
  }
  const values = parsed.values as {
    help?: boolean;
    config?: string;
    yes?: boolean;
    'dry-run'?: boolean;
  };
  if (values.help === true) {
    io.stdout(PIN_USAGE);
    return 0;
  }
  if (values.yes === true && values['dry-run'] === true) {
    say('give --yes or --dry-run, not both. Run "hintgate pin --help" for usage.');
    return 2;
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
  // Loaded once the options and the configuration are read: a refusal answers without
  // loading the MCP client and the pins.
  const [{ formatPinReview }, { pinGateway }] = await Promise.all([
    import('../check/pin.js'),
    import('../gateway/pin.js'),
  ]);
  const interactive = io.stdoutIsTTY === true && io.stdin?.isTTY === true;
  const where = relative(cwd, config.pin.path) || config.pin.path;
  let declined = '';
  const review = async (plan: PinPlan): Promise<boolean> => {
    let changes = plan.dropped.length > 0;
    let callouts = 0;
    plan.reports.forEach((report, index) => {
      const shown = formatPinReview({
        report,
        lock: plan.lock,
        listings: plan.listings[index] ?? [],
        color: interactive && (io.env ?? process.env).NO_COLOR === undefined,
      });
      for (const line of shown.lines) io.stdout(`${line}\n`);
      changes ||= shown.hasChanges;
      callouts += shown.callouts;
    });
    for (const server of plan.dropped) {
      io.stdout(`${server}: no longer configured; its pins will be dropped\n`);
    }
    const attention = callouts === 0 ? '' : ` (${callouts} called out with "!")`;
    if (values['dry-run'] === true) {
      declined = plan.changes
        ? `Dry run: nothing written to ${where}${changes ? `; review the changes above${attention}` : ''}.`
        : `Dry run: ${where} is up to date.`;
      return false;
    }
    if (!changes || values.yes === true) return true;
    if (!interactive || io.stdin === undefined) {
      declined = `Not written: ${where} has pins these changes would replace${attention}. Review them above, then run "hintgate pin" on a terminal to confirm, or "hintgate pin --yes".`;
      return false;
    }
    io.stdout(`Pin these changes to ${where}${attention}? [y/N] `);
    const answer = (await readAnswer(io.stdin)).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return true;
    declined = `Not written: the changes were not confirmed; ${where} is as it was.`;
    return false;
  };
  try {
    const result = await pinGateway({ config, review });
    if (!result.written) {
      io.stdout(`${declined}\n`);
      return values['dry-run'] === true ? 0 : 1;
    }
    const tools = result.reports.reduce(
      (sum, report) => sum + report.tools.filter((state) => state.status !== 'removed').length,
      0,
    );
    const servers = result.reports.length;
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
