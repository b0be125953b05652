import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HintgateError } from '../errors/index.js';
import { TOOL_NAME_PATTERN } from '../tool/index.js';
import { nodeScriptArgs } from './node-script-args.js';

/** A tool as the fixture server lists it (an MCP `Tool`; `inputSchema` defaults to any object). */
export interface FixtureTool {
  /** The tool's name (MCP name rules). */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** Display title. */
  readonly title?: string;
  /** JSON Schema of its arguments. Default `{ "type": "object" }`. */
  readonly inputSchema?: Record<string, unknown>;
  /** The hints it claims (`readOnlyHint`, `destructiveHint`, ...), sent as written. */
  readonly annotations?: Record<string, unknown>;
}

/** Options of {@link createFixtureServer}. */
export interface FixtureServerOptions {
  /** A directory of the test (a temp workspace) where the tool list file is kept. */
  readonly dir: string;
  /** The server's name: its answers start with it and its list file is named after it. */
  readonly name: string;
  /** The tools it lists at start. */
  readonly tools: readonly FixtureTool[];
  /** Fields merged into {@link FixtureServer.entry} (`trusted`, `timeoutMs`, ...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A fixture MCP server over stdio: how to start it, and a way to change its tools. */
export interface FixtureServer {
  /**
   * The server's entry for `servers` in a gateway configuration (`command`, `args` from
   * {@link nodeScriptArgs}, `env`), also fit for the MCP SDK's `StdioClientTransport`. Whoever starts the process
   * (a gateway, a client) stops it when it closes.
   */
  readonly entry: Record<string, unknown>;
  /** The file its tool list is read from, on every `tools/list`. */
  readonly toolsFile: string;
  /**
   * Replaces the tool list from the server's next `tools/list`; call its `notify_changed`
   * tool to have it announce the change.
   */
  setTools(tools: readonly FixtureTool[]): Promise<void>;
}

/** The fixture process: its compiled `.js` in the package, its `.ts` in hintgate's sources. */
const script = new URL(
  `./fixture-server-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

const checkTools = (name: string, tools: readonly FixtureTool[]): void => {
  if (!Array.isArray(tools)) {
    throw new HintgateError('invalid_option', `fixture server "${name}": tools must be a list`);
  }
  for (const tool of tools) {
    if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
      throw new HintgateError(
        'invalid_option',
        `fixture server "${name}": tool name ${JSON.stringify(tool?.name)} breaks the MCP name rules (1-128 of A-Z a-z 0-9 _ - .)`,
      );
    }
  }
};

/**
 * A fixture MCP server for tests of a gateway or an MCP client: a real stdio server
 * process (started by whoever uses {@link FixtureServer.entry}) that lists `tools` as
 * written, annotations included, and answers each call with
 * `"<name> <tool> <arguments as JSON>"`. Its own tools `notify_changed`, `crash`, `pid` and
 * `meet` (answers once `of` calls of it run at the same time) help test reloads, crashes
 * and concurrency.
 */
export async function createFixtureServer(options: FixtureServerOptions): Promise<FixtureServer> {
  const { dir, name } = options;
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new HintgateError(
      'invalid_option',
      `fixture server name ${JSON.stringify(name)}: use 1-64 of A-Z a-z 0-9 _ -`,
    );
  }
  const toolsFile = join(dir, `${name}.tools.json`);
  const setTools = async (tools: readonly FixtureTool[]): Promise<void> => {
    checkTools(name, tools);
    const listed = tools.map((tool) => ({ inputSchema: { type: 'object' }, ...tool }));
    await writeFile(toolsFile, JSON.stringify(listed));
  };
  await setTools(options.tools);
  return {
    entry: {
      command: process.execPath,
      args: nodeScriptArgs(script),
      env: { FIXTURE_TOOLS_FILE: toolsFile, FIXTURE_NAME: name },
      ...options.extra,
    },
    toolsFile,
    setTools,
  };
}
