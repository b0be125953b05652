import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { renderStarterConfig } from '../gateway/index.js';
import { KNOWN_CLIENTS } from './client-config-paths.js';
import { DEFAULT_CONFIG_FILE } from './gateway-config-file.js';
import { parseCommandArgs } from './parse-command-args.js';
import type { CliIo } from './run-cli.js';
import { schemaReference } from './schema-reference.js';
import { writeConfigFromClient } from './write-config-from-client.js';

export const INIT_USAGE = `Usage: hintgate init [--from FILE | --from ${KNOWN_CLIENTS.join('|')}] [--config FILE] [--no-check] [--force]

Without --from: writes a commented starter gateway configuration, ${DEFAULT_CONFIG_FILE}, in the
current directory: one server to try (@modelcontextprotocol/server-everything), an HTTP
server and further settings commented out, the mode, two rules, and the pin and audit
defaults.

With --from: takes the MCP servers of an MCP client's configuration and makes a gateway of
them in one step:
  1. writes ${DEFAULT_CONFIG_FILE} with those servers, or adds the ones it lacks to an existing
     one (your edits and comments there stay; servers it has are left as they are);
  2. unless --no-check, runs "hintgate check --probe --write-pin" on it: lints every tool,
     probes the read-only ones for side effects in a sandbox, and pins all of them with
     the verdicts in hintgate.lock;
  3. prints what the gateway will do with each tool: runs freely (verified read-only),
     asks, or held back, and why; and how to point the client at the gateway.

Options:
  --from FILE       The client's configuration: a file ("mcpServers", VS Code's "servers"
                    or "mcp.servers"), or claude, cursor or vscode for that client's file
                    at its usual place (docs/gateway.md lists them).
  --config FILE     The configuration to write. Default: ./${DEFAULT_CONFIG_FILE}.
  --no-check        Only write the configuration.
  --force           Replace an existing configuration instead of adding to it.
  -h, --help        Show this help and exit.

Exit status: 0 when done, 1 when the configuration cannot be written or the gateway not
started, 2 for bad options or an unusable client configuration, 3 when a server could not
be checked or the pin file not written (the others are reported).
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  force: { type: 'boolean' },
  from: { type: 'string' },
  config: { type: 'string' },
  'no-check': { type: 'boolean' },
} as const;

interface InitValues {
  help?: boolean;
  force?: boolean;
  from?: string;
  config?: string;
  'no-check'?: boolean;
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The client configuration snippet that replaces the servers by the gateway, both forms. */
function clientSnippet(block: string, config: string): string {
  const key = block === 'mcp.servers' ? '"mcp": { "servers"' : `"${block}"`;
  const close = block === 'mcp.servers' ? ' }' : '';
  const args = (first: string[]) =>
    JSON.stringify([...first, 'gateway', '--config', config]).replaceAll('","', '", "');
  return [
    `  ${key}: { "hintgate": { "command": "hintgate", "args": ${args([])} } }${close}`,
    'or, where hintgate is not installed (npm install -g hintgate, or a tarball: docs/gateway.md):',
    `  ${key}: { "hintgate": { "command": "npx", "args": ${args(['-y', 'hintgate'])} } }${close}`,
  ].join('\n');
}

/**
 * `hintgate init`: writes the starter configuration, or with `--from` makes a gateway
 * configuration of an MCP client's servers, checks, probes and pins them, and tells what
 * the gateway will do with each tool. Resolves to the exit code.
 */
export async function runInit(argv: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string): void => io.stderr(`hintgate init: ${line}\n`);
  const parsed = parseCommandArgs('init', argv, OPTIONS);
  if (!parsed.ok) {
    say(parsed.message);
    return 2;
  }
  const values = parsed.values as InitValues;
  if (values.help === true) {
    io.stdout(INIT_USAGE);
    return 0;
  }
  const cwd = io.cwd ?? process.cwd();
  const path = resolve(cwd, values.config ?? DEFAULT_CONFIG_FILE);
  const shown = relative(cwd, path) || path;
  if (values.from !== undefined) return initFrom(values, path, io, say);
  if (values['no-check'] === true) {
    say('--no-check goes with --from; without it nothing is checked anyway.');
    return 2;
  }
  try {
    // "wx" refuses an existing file in the same step that creates a new one.
    await writeFile(path, renderStarterConfig({ schemaUrl: schemaReference(dirname(path)) }), {
      flag: values.force === true ? 'w' : 'wx',
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    say(
      code === 'EEXIST'
        ? `${path} already exists; edit it, add a client's servers with "hintgate init --from FILE", or run "hintgate init --force" to replace it with the starter.`
        : `cannot write ${path}: ${messageOf(error)}`,
    );
    return 1;
  }
  io.stdout(
    `Wrote ${shown}. Next: edit its servers (or run "hintgate init --from claude|cursor|vscode|FILE" to take your client's), run "hintgate pin", then point your MCP client at "hintgate gateway" (docs/gateway.md).\n`,
  );
  return 0;
}

async function initFrom(
  values: InitValues,
  path: string,
  io: CliIo,
  say: (line: string) => void,
): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const shown = relative(cwd, path) || path;
  let written: Awaited<ReturnType<typeof writeConfigFromClient>>;
  try {
    written = await writeConfigFromClient({
      from: values.from as string,
      config: path,
      force: values.force === true,
      cwd,
      env: io.env ?? process.env,
      say,
    });
  } catch (error) {
    for (const line of messageOf(error).split('\n')) if (line.trim() !== '') say(line);
    const code = (error as { code?: string }).code;
    return code === 'invalid_config' ? 2 : 1;
  }
  const { source, created, added, present } = written;
  if (created) {
    io.stdout(
      `Wrote ${shown} with ${added.length} server${added.length === 1 ? '' : 's'} of ${source}: ${added.join(', ')}.\n`,
    );
  } else if (added.length > 0) {
    io.stdout(
      `Added ${added.length} server${added.length === 1 ? '' : 's'} of ${source} to ${shown}: ${added.join(', ')}${present.length > 0 ? `; kept ${present.join(', ')} as ${shown} has them` : ''}.\n`,
    );
  } else {
    io.stdout(
      `${shown} already has every server of ${source} (${present.join(', ')}); kept as it is.\n`,
    );
  }
  let exit = 0;
  if (values['no-check'] !== true) {
    const { checkAndPlan } = await import('./check-and-plan.js');
    exit = await checkAndPlan({ config: path, io, say });
  }
  io.stdout(
    `\nNext: point ${source} at the gateway instead of these servers, by replacing its servers with:\n${clientSnippet(written.block, path)}\nthen restart the client.${values['no-check'] === true ? ` Before that, run "hintgate check --config ${shown} --probe --write-pin" (or "hintgate pin --config ${shown}"): until tools are pinned, the gateway holds them back.` : ''}\n`,
  );
  return exit;
}
