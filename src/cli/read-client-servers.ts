import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { HintgateError } from '../errors/index.js';
import { parseGatewayConfigText, SERVER_NAME_PATTERN, type ServerEntry } from '../gateway/index.js';

import { isPlainObject } from '../tool/index.js';

/** A server of a client's configuration, as it goes into `hintgate.yaml`. */
export interface ClientServer extends ServerEntry {
  /** The client's name for it, when it had to be changed to fit `SERVER_NAME_PATTERN`. */
  readonly renamedFrom?: string;
  /** Problems that do not stop it from being added (an environment variable not set here). */
  readonly warnings: readonly string[];
}

/** The servers of a client's configuration. */
export interface ClientServers {
  /** The servers hintgate can front, in the file's order. */
  readonly servers: readonly ClientServer[];
  /** Servers left out, with the reason (one line each). */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** Where the file keeps them: `mcpServers`, `servers` or `mcp.servers`. */
  readonly block: string;
}

const where = (text: string, offset: number): string => {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
};

/** Parses JSON with comments and trailing commas (VS Code's and Cursor's files), or YAML. */
function parseClientFile(text: string, file: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (['.yaml', '.yml'].includes(extname(file).toLowerCase())) {
    try {
      return parseYaml(source);
    } catch (error) {
      throw new HintgateError(
        'invalid_config',
        `${file}: the YAML cannot be parsed: ${(error as Error).message.split('\n')[0]}; fix the file, or give another one with --from.`,
        { cause: error },
      );
    }
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(source, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  const [first] = errors;
  if (first !== undefined) {
    throw new HintgateError(
      'invalid_config',
      `${file}:${where(source, first.offset)}: the JSON cannot be parsed (${printParseErrorCode(first.error)}); fix the file, or give another one with --from.`,
    );
  }
  return value;
}

/** The servers mapping of a client file, and the key it is under. */
function serversBlock(value: unknown, file: string): { block: string; servers: unknown } {
  if (isPlainObject(value)) {
    if (Object.hasOwn(value, 'mcpServers'))
      return { block: 'mcpServers', servers: value.mcpServers };
    if (Object.hasOwn(value, 'servers')) return { block: 'servers', servers: value.servers };
    const mcp = value.mcp;
    if (isPlainObject(mcp) && Object.hasOwn(mcp, 'servers')) {
      return { block: 'mcp.servers', servers: mcp.servers };
    }
  }
  throw new HintgateError(
    'invalid_config',
    `${file} has no MCP servers: hintgate looks for "mcpServers" (Claude Desktop, Cursor), "servers" (VS Code's mcp.json) or "mcp.servers" (VS Code's settings.json). Give the file that lists them with --from FILE.`,
  );
}

/** A name that fits `SERVER_NAME_PATTERN`, not in `taken`. */
function fittingName(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'server';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}-${n}`;
  return candidate;
}

/** Whether an entry runs `hintgate gateway` (or `serve`): a client already pointed at hintgate. */
function isHintgate(entry: Readonly<Record<string, unknown>>): boolean {
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].filter(
    (word): word is string => typeof word === 'string',
  );
  const hintgate = words.some((word) =>
    /(^|[\\/@])hintgate(@[^\\/]*)?$|hintgate[\\/]dist[\\/]cli[\\/]main\.js$/.test(word),
  );
  return hintgate && words.some((word) => word === 'gateway' || word === 'serve');
}

/** Whether a problem line only says that an environment variable is not set here. */
const unsetVariable = (line: string): boolean => /, which is not set\b/.test(line);

/**
 * Reads the MCP servers of a client's configuration file (Claude Desktop's
 * `claude_desktop_config.json`, Cursor's or VS Code's `mcp.json`, VS Code's
 * `settings.json`; JSON with comments, or YAML). Each server is checked as the gateway
 * would load it: one it could not run is left out with the reason; one that refers to an
 * environment variable not set here is kept with a warning (the gateway may run with it
 * set). A name that does not fit hintgate's server names (1-64 of `A-Z a-z 0-9 _ -`) is
 * changed, and says so.
 *
 * @throws HintgateError `invalid_config` when the file cannot be read or parsed, or lists
 *   no servers.
 */
export async function readClientServers(file: string): Promise<ClientServers> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new HintgateError(
      'invalid_config',
      code === 'ENOENT'
        ? `${file} does not exist; give the client's configuration file with --from FILE.`
        : `cannot read ${file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const { block, servers } = serversBlock(parseClientFile(text, file), file);
  if (!isPlainObject(servers) || Object.keys(servers).length === 0) {
    throw new HintgateError(
      'invalid_config',
      `${file}: "${block}" lists no servers; add them there first, or give another file with --from.`,
    );
  }
  // Names that fit are kept; a name that has to change takes none of them.
  const taken = new Set(Object.keys(servers).filter((name) => SERVER_NAME_PATTERN.test(name)));
  const result: ClientServer[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const [original, entry] of Object.entries(servers)) {
    if (!isPlainObject(entry)) {
      skipped.push({ name: original, reason: 'its entry is not an object' });
      continue;
    }
    if (entry.disabled === true) {
      skipped.push({ name: original, reason: 'it is turned off there (disabled: true)' });
      continue;
    }
    if (isHintgate(entry)) {
      skipped.push({
        name: original,
        reason: 'it is a hintgate gateway, which would front itself',
      });
      continue;
    }
    const name = SERVER_NAME_PATTERN.test(original) ? original : fittingName(original, taken);
    taken.add(name);
    const problems = checkEntry(name, entry);
    const fatal = problems.filter((line) => !unsetVariable(line));
    if (fatal.length > 0) {
      skipped.push({ name: original, reason: fatal.join(' ') });
      continue;
    }
    result.push({
      name,
      entry,
      ...(name === original ? {} : { renamedFrom: original }),
      warnings: problems,
    });
  }
  return { servers: result, skipped, block };
}

/** What the gateway's loader says of one server entry, one line per problem; none when it loads. */
function checkEntry(name: string, entry: Readonly<Record<string, unknown>>): string[] {
  try {
    parseGatewayConfigText(JSON.stringify({ servers: { [name]: entry } }), 'client.json');
    return [];
  } catch (error) {
    return (error instanceof Error ? error.message : String(error))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.replace(/^client\.json:\d+:\d+: /, ''));
  }
}
