import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { HintgateError } from '../errors/index.js';
import { writeFileAtomic } from '../fs/index.js';
import { addServersToConfigText, renderStarterConfig } from '../gateway/index.js';
import {
  CLIENT_NAMES,
  clientConfigPaths,
  KNOWN_CLIENTS,
  type KnownClient,
} from './client-config-paths.js';
import { readClientServers } from './read-client-servers.js';
import { schemaReference } from './schema-reference.js';

/** Options of {@link writeConfigFromClient}. */
export interface WriteConfigFromClientOptions {
  /** `--from`: a client's name (`claude`, `cursor`, `vscode`) or a file. */
  readonly from: string;
  /** The configuration to write or add to (absolute). */
  readonly config: string;
  /** Replace an existing configuration instead of adding to it. */
  readonly force: boolean;
  /** Directory relative paths and per-project client files are found in. */
  readonly cwd: string;
  /** Environment: `HOME`/`USERPROFILE`, `APPDATA`, `XDG_CONFIG_HOME`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `process.platform` unless a test says otherwise. */
  readonly platform?: NodeJS.Platform;
  /** One line for the person (without a trailing newline). */
  readonly say: (line: string) => void;
}

/** What {@link writeConfigFromClient} did. */
export interface WriteConfigFromClientResult {
  /** The client's configuration file read. */
  readonly source: string;
  /** Where that file keeps its servers: `mcpServers`, `servers` or `mcp.servers`. */
  readonly block: string;
  /** Whether the configuration was created (else added to, or left as it was). */
  readonly created: boolean;
  /** Servers written into it this time. */
  readonly added: readonly string[];
  /** Servers of the client's file that the configuration already had, left as they are. */
  readonly present: readonly string[];
}

/** The client's configuration file `--from` names. */
function sourceFile(options: WriteConfigFromClientOptions): string {
  const { from, cwd, env } = options;
  if (!(KNOWN_CLIENTS as readonly string[]).includes(from)) return resolve(cwd, from);
  const client = from as KnownClient;
  const platform = options.platform ?? process.platform;
  const home = (platform === 'win32' ? env.USERPROFILE : env.HOME) || env.HOME || homedir();
  const candidates = clientConfigPaths(client, { platform, home, cwd, env });
  const found = candidates.find((path) => existsSync(path));
  if (found === undefined) {
    throw new HintgateError(
      'invalid_config',
      `no ${CLIENT_NAMES[client]} configuration found; looked for ${candidates.join(', ')}. Give the file with --from FILE.`,
    );
  }
  return found;
}

/**
 * The configuration step of `hintgate init --from`: reads the MCP servers of a client's
 * configuration and writes a starter `hintgate.yaml` with them, or adds those it lacks to
 * an existing one, keeping everything the person wrote there (see
 * `addServersToConfigText`). Servers the gateway could not run are left out, and each
 * server left out, renamed or missing an environment variable is told through `say`.
 *
 * @throws HintgateError `invalid_config` when the client's file cannot be found, read or
 *   parsed, lists no usable server, or the existing configuration cannot be parsed.
 */
export async function writeConfigFromClient(
  options: WriteConfigFromClientOptions,
): Promise<WriteConfigFromClientResult> {
  const { config, say } = options;
  const source = sourceFile(options);
  const client = await readClientServers(source);
  for (const { name, reason } of client.skipped) say(`left out server "${name}": ${reason}`);
  for (const server of client.servers) {
    if (server.renamedFrom !== undefined) {
      say(
        `server "${server.renamedFrom}" is called "${server.name}" here (server names are 1-64 of A-Z a-z 0-9 _ -).`,
      );
    }
    for (const warning of server.warnings) say(`server "${server.name}": ${warning}`);
  }
  if (client.servers.length === 0) {
    throw new HintgateError(
      'invalid_config',
      `${source}: none of its servers can be fronted (see above); fix them there, or give another file with --from.`,
    );
  }
  const entries = client.servers.map(({ name, entry }) => ({ name, entry }));
  const exists = existsSync(config);
  if (!exists || options.force) {
    const text = renderStarterConfig({
      servers: entries,
      source,
      schemaUrl: schemaReference(dirname(config)),
    });
    await writeFile(config, text);
    return {
      source,
      block: client.block,
      created: true,
      added: entries.map((e) => e.name),
      present: [],
    };
  }
  const before = await readFile(config, 'utf8');
  const result = addServersToConfigText(before, entries, { source, file: config });
  if (result.added.length > 0) {
    const { mode } = await stat(config);
    await writeFileAtomic(config, result.text, { mode: mode & 0o777 });
  }
  return {
    source,
    block: client.block,
    created: false,
    added: result.added,
    present: result.present,
  };
}
