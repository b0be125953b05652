import type { Transport } from '@modelcontextprotocol/client';
import {
  connectTestClient,
  type ElicitationScript,
  type TestClient,
  type TestClientEra,
} from '../../testing/index.js';
import type { McpHttpHandler } from './create-mcp-http-handler.js';
import type { McpToolServer } from './create-mcp-tool-server.js';

export type { ElicitationScript, TestClient };

/** The protocol eras a test runs on. */
export const ERAS = ['legacy', 'modern'] as const satisfies readonly TestClientEra[];
export type Era = (typeof ERAS)[number];

// The short forms the MCP server tests use, over `connectTestClient` of hintgate/testing.

/** A 2025-11-25 client connected to a fresh instance of `toolServer` in memory. */
export const connectInMemory = (
  toolServer: McpToolServer,
  elicitation?: ElicitationScript,
): Promise<TestClient> =>
  connectTestClient({ to: toolServer, ...(elicitation === undefined ? {} : { elicitation }) });

/** A client of `era` connected over any transport (stdio to a child process, HTTP). */
export const connectClient = (
  transport: Transport,
  era: Era,
  elicitation?: ElicitationScript,
): Promise<TestClient> =>
  connectTestClient({ to: transport, era, ...(elicitation === undefined ? {} : { elicitation }) });

/** A client of `era` connected to an HTTP handler in process (its `fetch`, no port). */
export const connectOverFetch = (
  handler: McpHttpHandler,
  era: Era,
  elicitation?: ElicitationScript,
): Promise<TestClient> =>
  connectTestClient({ to: handler, era, ...(elicitation === undefined ? {} : { elicitation }) });

/** Waits until `condition` holds, polling (see `waitFor` of `hintgate/testing`). */
export { waitFor as eventually } from '../../testing/index.js';

/**
 * A 2025-11-25 `initialize` request as a raw JSON-RPC message from a client named `name`,
 * for tests that speak HTTP without an SDK client (sessions, headers, status codes).
 */
export const initializeRequest = (name = 'raw') => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name, version: '1.0.0' },
  },
});

/** The `notifications/initialized` a client sends once its session is open. */
export const INITIALIZED_NOTIFICATION = {
  jsonrpc: '2.0',
  method: 'notifications/initialized',
} as const;
