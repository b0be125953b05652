import { HintgateError } from '../errors/index.js';
import { nodeScriptArgs } from './node-script-args.js';

/** Options of {@link fixtureServerEntry}: the fixture server's list and name. */
export interface FixtureEntryOptions {
  /**
   * The server's name (1-64 of A-Z a-z 0-9 _ -): its `serverInfo.name`, and what its echo
   * answers start with unless `echoPrefix` says otherwise.
   */
  readonly name: string;
  /**
   * The file(s) of its tool list: JSON arrays of {@link FixtureTool}, read again on every
   * `tools/list` (several files: their lists one after the other).
   */
  readonly toolsFile: string | readonly string[];
  /** What an echo answer starts with, before the tool's name. Default `name`; `''`: nothing. */
  readonly echoPrefix?: string;
  /** A path that, while it exists, makes the server exit at start (to test failed restarts). */
  readonly refuseWhileExists?: string;
  /**
   * Tools per `tools/list` page (an integer >= 1): the list then comes in pages, each with
   * the `nextCursor` of the next. Default: the whole list in one page.
   */
  readonly pageSize?: number;
}

/** The fixture process: its compiled `.js` in the package, its `.ts` in hintgate's sources. */
export const FIXTURE_PROCESS = new URL(
  `./fixture-server-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

/** Checks a server name. */
export const checkServerName = (name: unknown): void => {
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new HintgateError(
      'invalid_option',
      `fixture server name ${JSON.stringify(name)}: use 1-64 of A-Z a-z 0-9 _ -`,
    );
  }
};

/** The environment of the fixture process for `options`. */
export const fixtureEnv = (options: FixtureEntryOptions): Record<string, string> => {
  checkServerName(options.name);
  const files = typeof options.toolsFile === 'string' ? [options.toolsFile] : options.toolsFile;
  if (
    !Array.isArray(files) ||
    files.length === 0 ||
    files.some((f) => typeof f !== 'string' || f === '')
  ) {
    throw new HintgateError(
      'invalid_option',
      `fixture server "${options.name}": toolsFile must be a file path or a non-empty list of them`,
    );
  }
  const { pageSize } = options;
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1)) {
    throw new HintgateError(
      'invalid_option',
      `fixture server "${options.name}": pageSize must be an integer >= 1, got ${String(pageSize)}`,
    );
  }
  return {
    FIXTURE_TOOLS_FILE: files.join(process.platform === 'win32' ? ';' : ':'),
    FIXTURE_NAME: options.name,
    ...(options.echoPrefix === undefined ? {} : { FIXTURE_ECHO_PREFIX: options.echoPrefix }),
    ...(options.refuseWhileExists === undefined
      ? {}
      : { FIXTURE_REFUSE_IF_EXISTS: options.refuseWhileExists }),
    ...(pageSize === undefined ? {} : { FIXTURE_TOOLS_PAGE_SIZE: String(pageSize) }),
  };
};

/**
 * The stdio entry of a fixture MCP server whose tool list is kept in files you keep
 * (`createFixtureServer` writes one for you): `{ command, args, env }`, for `servers` in a
 * gateway configuration or the MCP SDK's `StdioClientTransport`. Synchronous, so it fits
 * where a configuration is built inline. Whoever starts the process stops it.
 */
export function fixtureServerEntry(options: FixtureEntryOptions): {
  command: string;
  args: string[];
  env: Record<string, string>;
} {
  return {
    command: process.execPath,
    args: nodeScriptArgs(FIXTURE_PROCESS),
    env: fixtureEnv(options),
  };
}
