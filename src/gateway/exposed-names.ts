import { qualifiedToolName, TOOL_NAME_SEPARATOR } from '../registry/index.js';
import { TOOL_NAME_PATTERN } from '../tool/index.js';

/**
 * What joins a server's name and a tool's name when two servers offer a tool of the same
 * name: `github` and `gitlab` both listing `search` are exposed as `github__search` and
 * `gitlab__search`. Two underscores, since server names may contain one.
 */
export { TOOL_NAME_SEPARATOR };

/** One upstream tool to name: its server and its name there. */
export interface UpstreamToolRef {
  readonly server: string;
  readonly tool: string;
}

/** Options of {@link exposedNames}. */
export interface ExposedNamesOptions {
  /** What is named, for the messages: `tool` (default) or `prompt`. */
  readonly kind?: string;
  /** Whether a name may be exposed. Default: the MCP tool name rules (1-128 of `A-Z a-z 0-9 _ - .`). */
  readonly valid?: (name: string) => boolean;
}

/** The names to expose, and the tools that cannot be exposed under any name. */
export interface ExposedNames {
  /** Exposed name by `server` then upstream tool name. */
  readonly names: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Tools left out, each with the reason, for the log. */
  readonly problems: readonly (UpstreamToolRef & { readonly message: string })[];
}

/**
 * Deterministic tool names across servers. A tool keeps its own name unless another
 * server's tool would be exposed under the same name; then every tool of that name is
 * exposed as `<server>__<tool>` (never one silently hidden behind another). Repeats until
 * no two tools share a name, so a server's own `a__x` next to server `a`'s prefixed `x` is
 * prefixed too. A tool whose own name starts with another server's name and `__` (tool
 * `github__delete_repo` of server `evil`) is always prefixed (`evil__github__delete_repo`),
 * so that a name in another server's prefix is never offered for a tool of this one. Tools
 * that still clash once prefixed, or whose prefixed name breaks the MCP name rules (over
 * 128 characters), are reported in `problems` and left out.
 *
 * `servers` are in configuration order; that order decides nothing but the order of
 * `problems`. List every server, also those with no tools: their names are prefixes that
 * other servers' tools may not take. Prompts are named the same way, with `options` for
 * their rules.
 */
export function exposedNames(
  servers: readonly { readonly server: string; readonly tools: readonly string[] }[],
  options: ExposedNamesOptions = {},
): ExposedNames {
  const kind = options.kind ?? 'tool';
  const valid = options.valid ?? ((name: string) => TOOL_NAME_PATTERN.test(name));
  const prefixes = servers.map(({ server }) => ({
    server,
    prefix: qualifiedToolName(server, ''),
  }));
  /** The other server whose prefix the tool's own name starts with, if any. */
  const prefixOwner = (server: string, tool: string): string | undefined =>
    prefixes.find((other) => other.server !== server && tool.startsWith(other.prefix))?.server;
  const entries = servers.flatMap(({ server, tools }) =>
    tools.map((tool) => {
      const owner = prefixOwner(server, tool);
      return owner === undefined
        ? { server, tool, name: tool, prefixed: false, owner }
        : { server, tool, name: qualifiedToolName(server, tool), prefixed: true, owner };
    }),
  );
  for (let changed = true; changed; ) {
    changed = false;
    const counts = new Map<string, number>();
    for (const entry of entries) counts.set(entry.name, (counts.get(entry.name) ?? 0) + 1);
    for (const entry of entries) {
      if (entry.prefixed || (counts.get(entry.name) ?? 0) < 2) continue;
      entry.name = qualifiedToolName(entry.server, entry.tool);
      entry.prefixed = true;
      changed = true;
    }
  }
  const problems: (UpstreamToolRef & { message: string })[] = [];
  const taken = new Map<string, UpstreamToolRef>();
  const names = new Map<string, Map<string, string>>(
    servers.map(({ server }) => [server, new Map()]),
  );
  for (const entry of entries) {
    const { server, tool, name, owner } = entry;
    const where = `${kind} "${tool}" of server "${server}"`;
    if (!valid(name)) {
      const why =
        owner === undefined
          ? `another server has a ${kind} of that name`
          : `its name starts with "${qualifiedToolName(owner, '')}", the prefix of server "${owner}", so it is offered only with its own server's prefix`;
      problems.push({
        server,
        tool,
        message: `${where} is not offered: ${why}, and "${name}" is longer than the 128 characters MCP allows. Give the server a shorter name${owner === undefined ? ', or disable one of the two tools' : ''}.`,
      });
      continue;
    }
    const holder = taken.get(name);
    if (holder !== undefined) {
      problems.push({
        server,
        tool,
        message: `${where} is not offered: it would be exposed as "${name}", as is ${kind} "${holder.tool}" of server "${holder.server}". Rename one of the servers in the configuration${kind === 'tool' ? ', or disable one of the two tools' : ''}.`,
      });
      continue;
    }
    taken.set(name, { server, tool });
    names.get(server)?.set(tool, name);
  }
  return { names, problems };
}
