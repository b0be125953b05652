import {
  Client,
  type ClientOptions,
  type ElicitRequestFormParams,
  type ElicitResult,
  InMemoryTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import type { McpHttpHandler } from './create-mcp-http-handler.js';
import type { McpToolServer } from './create-mcp-tool-server.js';

/** The protocol eras a test runs on. */
export const ERAS = ['legacy', 'modern'] as const;
export type Era = (typeof ERAS)[number];

/** How a test client answers approval forms, and what it was asked. */
export interface ElicitationScript {
  /** Answers each form, at once or later; default: accept with `allow_once`. */
  readonly answer?: (params: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>;
}

/** A connected client with what it saw. */
export interface TestClient {
  readonly client: Client;
  /** Approval forms the client was shown. */
  readonly forms: ElicitRequestFormParams[];
  /** Times the client was told the tool list changed. */
  listChanges(): number;
  close(): Promise<void>;
}

const clientOptions = (era: Era, elicitation: boolean, onChanged: () => void): ClientOptions => ({
  ...(elicitation ? { capabilities: { elicitation: { form: {} } } } : {}),
  ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged } },
});

const newClient = (era: Era, script: ElicitationScript | undefined) => {
  let changes = 0;
  const forms: ElicitRequestFormParams[] = [];
  const client = new Client(
    { name: 'hintgate-test-client', version: '1.0.0' },
    clientOptions(era, script !== undefined, () => {
      changes += 1;
    }),
  );
  if (script !== undefined) {
    client.setRequestHandler('elicitation/create', (request) => {
      const params = request.params as ElicitRequestFormParams;
      forms.push(params);
      return script.answer?.(params) ?? { action: 'accept', content: { decision: 'allow_once' } };
    });
  }
  return { client, forms, listChanges: () => changes };
};

/**
 * A 2025-11-25 client connected to a fresh instance of `toolServer` over the SDK's
 * in-memory transport. With `elicitation`, it declares form elicitation and answers with
 * the script.
 */
export async function connectInMemory(
  toolServer: McpToolServer,
  elicitation?: ElicitationScript,
): Promise<TestClient> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await toolServer.createServer().connect(serverSide);
  const made = newClient('legacy', elicitation);
  await made.client.connect(clientSide);
  return { ...made, close: () => made.client.close() };
}

/** A client of `era` connected over any transport (stdio to a child process, HTTP). */
export async function connectClient(
  transport: Transport,
  era: Era,
  elicitation?: ElicitationScript,
): Promise<TestClient> {
  const made = newClient(era, elicitation);
  await made.client.connect(transport);
  return { ...made, close: () => made.client.close() };
}

/**
 * A client of `era` connected to an HTTP handler in process: requests go straight to
 * `handler.fetch`, nothing listens on a port.
 */
export async function connectOverFetch(
  handler: McpHttpHandler,
  era: Era,
  elicitation?: ElicitationScript,
): Promise<TestClient> {
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  return connectClient(transport, era, elicitation);
}

/** Waits until `condition` holds, polling (see `waitFor` of `hintgate/testing`). */
export { waitFor as eventually } from '../../testing/index.js';
