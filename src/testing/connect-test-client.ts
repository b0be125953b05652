import {
  Client,
  type ClientOptions,
  type ElicitRequestFormParams,
  type ElicitResult,
  InMemoryTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { HintgateError } from '../errors/index.js';
import type { McpHttpHandler, McpToolServer } from '../mcp/index.js';

/** The protocol eras a test client speaks: `legacy` is 2025-11-25, `modern` 2026-07-28. */
export type TestClientEra = 'legacy' | 'modern';

/** How a test client answers approval forms (MCP form elicitation). */
export interface ElicitationScript {
  /** Answers each form, at once or later. Default: accept with `{ decision: 'allow_once' }`. */
  readonly answer?: (params: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>;
}

/** Options of {@link connectTestClient}. */
export interface ConnectTestClientOptions {
  /**
   * What to connect to: a tool server of `hintgate/mcp` (`createMcpToolServer`, a gateway's
   * `toolServer`: a fresh server instance, over the SDK's in-memory transport), an HTTP
   * handler (`createMcpHttpHandler`: requests go to its `fetch`, nothing listens on a port),
   * or any MCP SDK client transport (stdio to a child process, Streamable HTTP to a URL).
   */
  readonly to: McpToolServer | McpHttpHandler | Transport;
  /** The protocol era it speaks. Default `legacy` (2025-11-25); `modern` pins 2026-07-28. */
  readonly era?: TestClientEra;
  /** With it, the client declares form elicitation and answers approval forms by it. */
  readonly elicitation?: ElicitationScript;
}

/** A connected MCP SDK client and what it saw. */
export interface TestClient {
  /** The MCP SDK client. */
  readonly client: Client;
  /** The approval forms it was shown, in order. */
  readonly forms: ElicitRequestFormParams[];
  /** How many times it was told that the tool list changed. */
  listChanges(): number;
  /** Closes the client (and with it the transport). */
  close(): Promise<void>;
}

const isToolServer = (to: object): to is McpToolServer =>
  typeof (to as Partial<McpToolServer>).createServer === 'function';
const isHttpHandler = (to: object): to is McpHttpHandler =>
  typeof (to as Partial<McpHttpHandler>).fetch === 'function' &&
  typeof (to as Partial<Transport>).start !== 'function';

/**
 * Connects an MCP SDK client, as an MCP host would, to a hintgate tool server, an HTTP
 * handler or a transport, and records the approval forms it was shown and the tool-list
 * changes it was told of: `const { client, forms } = await connectTestClient({ to:
 * gateway.toolServer, elicitation: {} })`. Close it with `close()`.
 */
export async function connectTestClient(options: ConnectTestClientOptions): Promise<TestClient> {
  const { to, era = 'legacy', elicitation } = options;
  if (typeof to !== 'object' || to === null) {
    throw new HintgateError(
      'invalid_option',
      'connectTestClient: give `to`, a tool server, an HTTP handler or a client transport',
    );
  }
  if (era !== 'legacy' && era !== 'modern') {
    throw new HintgateError(
      'invalid_option',
      `connectTestClient: era is ${JSON.stringify(era)}; use "legacy" or "modern"`,
    );
  }
  let changes = 0;
  const forms: ElicitRequestFormParams[] = [];
  const clientOptions: ClientOptions = {
    ...(elicitation === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
    ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    listChanged: {
      tools: {
        autoRefresh: false,
        debounceMs: 0,
        onChanged: () => {
          changes += 1;
        },
      },
    },
  };
  const client = new Client({ name: 'hintgate-test-client', version: '1.0.0' }, clientOptions);
  if (elicitation !== undefined) {
    client.setRequestHandler('elicitation/create', (request) => {
      const params = request.params as ElicitRequestFormParams;
      forms.push(params);
      return (
        elicitation.answer?.(params) ?? { action: 'accept', content: { decision: 'allow_once' } }
      );
    });
  }
  let transport: Transport;
  if (isToolServer(to)) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await to.createServer().connect(serverSide);
    transport = clientSide;
  } else if (isHttpHandler(to)) {
    transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => to.fetch(new Request(url, init)),
    });
  } else {
    transport = to;
  }
  await client.connect(transport);
  return { client, forms, listChanges: () => changes, close: () => client.close() };
}
