import { qualifiedToolName } from '../registry/index.js';
import { TOOL_NAME_PATTERN } from '../tool/index.js';
import { type ExposedNames, exposedNames } from './exposed-names.js';

/** One server's tools to name: those offered, and those held back by their pins. */
export interface GatewayNamesServer {
  readonly server: string;
  /** Names on the server of the tools that are offered. */
  readonly offered: readonly string[];
  /** Names on the server of the tools held back (changed since pinned, or not pinned yet). */
  readonly heldBack: readonly string[];
}

/** What {@link gatewayNames} gives: the offered tools' names, and the held-back tools'. */
export interface GatewayNames extends ExposedNames {
  /**
   * The name a held-back tool is known by while it is held back, by server then name on
   * the server: a call by that name is refused with the reason it is held back. A
   * held-back tool whose names are all taken has none.
   */
  readonly heldBack: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * Names the gateway's tools. Only the offered tools take part in naming
 * (`exposedNames`): a tool held back by its pin does not make another server's tool of the
 * same name prefixed, and never takes a name an offered tool has. Each held-back tool then
 * gets the first free one of its own name and `<server>__<name>` (its own name only when
 * it is not in another server's prefix), in configuration order, so that a client calling
 * it by the name it had learns why it does not run.
 */
export function gatewayNames(servers: readonly GatewayNamesServer[]): GatewayNames {
  const named = exposedNames(servers.map(({ server, offered }) => ({ server, tools: offered })));
  const taken = new Set<string>();
  for (const names of named.names.values()) for (const name of names.values()) taken.add(name);
  const prefixes = servers.map(({ server }) => qualifiedToolName(server, ''));
  const heldBack = new Map<string, Map<string, string>>();
  for (const { server, heldBack: tools } of servers) {
    const own = qualifiedToolName(server, '');
    const names = new Map<string, string>();
    for (const tool of tools) {
      const inOtherPrefix = prefixes.some((prefix) => prefix !== own && tool.startsWith(prefix));
      const candidates = inOtherPrefix
        ? [qualifiedToolName(server, tool)]
        : [tool, qualifiedToolName(server, tool)];
      const name = candidates.find(
        (candidate) => TOOL_NAME_PATTERN.test(candidate) && !taken.has(candidate),
      );
      if (name === undefined) continue;
      taken.add(name);
      names.set(tool, name);
    }
    heldBack.set(server, names);
  }
  return { ...named, heldBack };
}
