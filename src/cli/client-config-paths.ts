import { posix, win32 } from 'node:path';

/** The MCP clients whose configuration `hintgate init --from` finds by name. */
export const KNOWN_CLIENTS = ['claude', 'cursor', 'vscode'] as const;

/** One of {@link KNOWN_CLIENTS}. */
export type KnownClient = (typeof KNOWN_CLIENTS)[number];

/** Where {@link clientConfigPaths} looks; injectable so that every platform can be tested. */
export interface ClientConfigPathsOptions {
  /** `process.platform`: `darwin`, `win32`, anything else is taken as Linux. */
  readonly platform: NodeJS.Platform;
  /** The user's home directory. */
  readonly home: string;
  /** The project directory, for per-project files (`.cursor/mcp.json`, `.vscode/mcp.json`). */
  readonly cwd: string;
  /** Environment: `APPDATA` on Windows, `XDG_CONFIG_HOME` on Linux. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A client's display name, for messages. */
export const CLIENT_NAMES: Readonly<Record<KnownClient, string>> = {
  claude: 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
};

/**
 * The files where a client keeps its MCP servers, in the order they are tried: a per-project
 * file first (Cursor, VS Code), then the user's.
 *
 * - Claude Desktop: `~/Library/Application Support/Claude/claude_desktop_config.json`
 *   (macOS), `%APPDATA%\Claude\claude_desktop_config.json` (Windows),
 *   `$XDG_CONFIG_HOME/Claude/claude_desktop_config.json`, default `~/.config/Claude/...`
 *   (Linux).
 * - Cursor: `.cursor/mcp.json` of the project, then `~/.cursor/mcp.json` (every platform).
 * - VS Code: `.vscode/mcp.json` of the project, then the user's `mcp.json` and
 *   `settings.json` (its `mcp.servers`) in `~/Library/Application Support/Code/User`
 *   (macOS), `%APPDATA%\Code\User` (Windows), `$XDG_CONFIG_HOME/Code/User`, default
 *   `~/.config/Code/User` (Linux).
 */
export function clientConfigPaths(
  client: KnownClient,
  options: ClientConfigPathsOptions,
): string[] {
  const { platform, home, cwd, env } = options;
  const path = platform === 'win32' ? win32 : posix;
  const nonEmpty = (value: string | undefined): string | undefined =>
    value === undefined || value === '' ? undefined : value;
  /** The directory applications keep their per-user settings in. */
  const appData =
    platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (nonEmpty(env.APPDATA) ?? path.join(home, 'AppData', 'Roaming'))
        : (nonEmpty(env.XDG_CONFIG_HOME) ?? path.join(home, '.config'));
  switch (client) {
    case 'claude':
      return [path.join(appData, 'Claude', 'claude_desktop_config.json')];
    case 'cursor':
      return [path.join(cwd, '.cursor', 'mcp.json'), path.join(home, '.cursor', 'mcp.json')];
    case 'vscode': {
      const user = path.join(appData, 'Code', 'User');
      return [
        path.join(cwd, '.vscode', 'mcp.json'),
        path.join(user, 'mcp.json'),
        path.join(user, 'settings.json'),
      ];
    }
  }
}
