import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { renderStarterConfig } from '../gateway/config/index.js';
import { DEFAULT_CONFIG_FILE } from './gateway-config-file.js';
import { parseCommandArgs } from './parse-command-args.js';
import type { CliIo } from './run-cli.js';

export const INIT_USAGE = `Usage: hintgate init [--force]

Writes a commented starter gateway configuration, ${DEFAULT_CONFIG_FILE}, in the current
directory: one server to try (@modelcontextprotocol/server-everything), an HTTP server and
further settings commented out, the mode, two rules, and the pin and audit defaults.

Options:
  --force           Replace an existing ${DEFAULT_CONFIG_FILE}.
  -h, --help        Show this help and exit.

Then: edit the servers, run "hintgate pin", and point your MCP client at
"hintgate gateway" (docs/gateway.md).
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  force: { type: 'boolean' },
} as const;

/** `hintgate init`: writes the starter configuration. Resolves to the exit code. */
export async function runInit(argv: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string): void => io.stderr(`hintgate init: ${line}\n`);
  const parsed = parseCommandArgs('init', argv, OPTIONS);
  if (!parsed.ok) {
    say(parsed.message);
    return 2;
  }
  const values = parsed.values as { help?: boolean; force?: boolean };
  if (values.help === true) {
    io.stdout(INIT_USAGE);
    return 0;
  }
  const cwd = io.cwd ?? process.cwd();
  const path = join(cwd, DEFAULT_CONFIG_FILE);
  try {
    // "wx" refuses an existing file in the same step that creates a new one.
    await writeFile(path, renderStarterConfig(), { flag: values.force === true ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as { code?: string }).code;
    say(
      code === 'EEXIST'
        ? `${path} already exists; edit it, or run "hintgate init --force" to replace it with the starter.`
        : `cannot write ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  io.stdout(
    `Wrote ${relative(cwd, path)}. Next: edit its servers, run "hintgate pin", then point your MCP client at "hintgate gateway" (docs/gateway.md).\n`,
  );
  return 0;
}
