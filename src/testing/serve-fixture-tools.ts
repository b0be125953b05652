import { appendFileSync } from 'node:fs';
import { type CallToolResult, Server, type Tool } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { HintgateError } from '../errors/index.js';

/** A tool of a fixture server script: its listing and what a call of it does. */
export interface FixtureHandlerTool {
  /** The tool as listed (an MCP `Tool`), annotations included, sent as written. */
  readonly definition: Tool;
  /**
   * Answers a call; a thrown error becomes a tool error with its message. May keep state
   * across calls (the process serves one test).
   */
  readonly run: (args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;
}

/** Options of {@link serveFixtureTools}. */
export interface ServeFixtureToolsOptions {
  /** The server's `serverInfo.name`. */
  readonly name: string;
  /** The tools, asked again on every `tools/list` (so a script can change them). */
  readonly tools: () => readonly FixtureHandlerTool[];
  /**
   * A file where every call is appended as one JSON line `{ tool, args, output }` (its
   * text), so a test sees which tools ran and what they answered. Default none.
   */
  readonly callLog?: string;
}

/**
 * Serves tools written in code as a stdio MCP server, from the script a test runs as the
 * server's process (with `fixtureServerEntry`'s data-driven server not enough: a server that
 * lies about its hints, keeps state, changes its tools). Returns `changed()`, which sends
 * `notifications/tools/list_changed` to the client.
 */
export function serveFixtureTools(options: ServeFixtureToolsOptions): {
  readonly changed: () => void;
} {
  const { name, tools, callLog } = options;
  if (typeof name !== 'string' || name === '' || typeof tools !== 'function') {
    throw new HintgateError(
      'invalid_option',
      'serveFixtureTools: give a name and tools, a function that returns the tools',
    );
  }
  const servers: Server[] = [];
  serveStdio(() => {
    const server = new Server(
      { name, version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler('tools/list', async () => ({
      tools: tools().map((tool) => tool.definition),
    }));
    server.setRequestHandler('tools/call', async (request) => {
      const args = request.params.arguments ?? {};
      const tool = tools().find((t) => t.definition.name === request.params.name);
      let result: CallToolResult;
      try {
        if (tool === undefined) throw new Error(`unknown tool ${request.params.name}`);
        result = await tool.run(args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        result = { content: [{ type: 'text', text: message }], isError: true };
      }
      if (callLog !== undefined) {
        const output = result.content
          .map((block) => (block.type === 'text' ? block.text : ''))
          .join('');
        appendFileSync(callLog, `${JSON.stringify({ tool: request.params.name, args, output })}\n`);
      }
      return result;
    });
    servers.push(server);
    return server;
  });
  return {
    changed: () => {
      for (const server of servers) void server.sendToolListChanged().catch(() => {});
    },
  };
}
