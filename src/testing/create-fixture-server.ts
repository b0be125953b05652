import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HintgateError } from '../errors/index.js';
import { TOOL_NAME_PATTERN } from '../tool/index.js';
import { checkAnswers, type FixtureAnswer } from './fixture-answer.js';
import { checkServerName, fixtureServerEntry } from './fixture-server-entry.js';

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
  /** JSON Schema of its structured results, listed as written. */
  readonly outputSchema?: Record<string, unknown>;
  /** The tool's `_meta`, listed as written. */
  readonly _meta?: Record<string, unknown>;
  /**
   * How it answers (not listed): the first answer whose `when` matches the call's
   * arguments; without one, the built-in action of its name, else the echo.
   */
  readonly answers?: readonly FixtureAnswer[];
}

/** Options of {@link createFixtureServer}. */
export interface FixtureServerOptions {
  /** A directory of the test (a temp workspace) where the tool list file is kept. */
  readonly dir: string;
  /**
   * The server's name (1-64 of A-Z a-z 0-9 _ -): its `serverInfo.name`, what its echo
   * answers start with, and the name of its list file.
   */
  readonly name: string;
  /** What an echo answer starts with, before the tool's name. Default `name`; `''`: nothing. */
  readonly echoPrefix?: string;
  /** The tools it lists at start. */
  readonly tools: readonly FixtureTool[];
  /** Fields merged into {@link FixtureServer.entry} (`trusted`, `timeoutMs`, ...). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Tools per `tools/list` page (see `fixtureServerEntry`). Default: all in one page. */
  readonly pageSize?: number;
}

/** A fixture MCP server over stdio: how to start it, and a way to change its tools. */
export interface FixtureServer {
  /**
   * The server's entry for `servers` in a gateway configuration (`command`, `args`, `env`:
   * see `fixtureServerEntry`), also fit for the MCP SDK's `StdioClientTransport`. Whoever
   * starts the process (a gateway, a client) stops it when it closes.
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
    if (tool.answers !== undefined)
      checkAnswers(`fixture server "${name}": tool "${tool.name}"`, tool.answers);
  }
};

/**
 * A fixture MCP server for tests of a gateway or an MCP client: a real stdio server
 * process (started by whoever uses {@link FixtureServer.entry}) that lists `tools` as
 * written, annotations included, and answers each call as the tool's `answers` say (a
 * text, structured content, a tool error, after a delay a cancellation interrupts, after
 * progress notifications, or a built-in action), else with its echo
 * `"<name> <tool> <arguments as JSON>"`. Its own tools `notify_changed`, `crash`, `pid`,
 * `meta`, `cancelled_calls` and `meet` (answers once `of` calls of it run at the same time)
 * help test reloads, crashes, cancellation and concurrency. For the same server over HTTP,
 * give its `toolsFile` to `startFixtureHttpServer`.
 */
export async function createFixtureServer(options: FixtureServerOptions): Promise<FixtureServer> {
  const { dir, name } = options;
  checkServerName(name);
  const toolsFile = join(dir, `${name}.tools.json`);
  const setTools = async (tools: readonly FixtureTool[]): Promise<void> => {
    checkTools(name, tools);
    const listed = tools.map((tool) => ({ inputSchema: { type: 'object' }, ...tool }));
    await writeFile(toolsFile, JSON.stringify(listed));
  };
  await setTools(options.tools);
  return {
    entry: {
      ...fixtureServerEntry({
        name,
        toolsFile,
        ...(options.echoPrefix === undefined ? {} : { echoPrefix: options.echoPrefix }),
        ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      }),
      ...options.extra,
    },
    toolsFile,
    setTools,
  };
}
