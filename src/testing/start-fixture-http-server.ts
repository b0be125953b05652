import { HintgateError } from '../errors/index.js';
import { FIXTURE_PROCESS, type FixtureEntryOptions, fixtureEnv } from './fixture-server-entry.js';
import { type NodeProcess, startNodeProcess } from './start-node-process.js';

/** Options of {@link startFixtureHttpServer}. */
export interface FixtureHttpServerOptions extends FixtureEntryOptions {
  /** The port on 127.0.0.1. Default 0: any free port. */
  readonly port?: number;
  /** A token every request must carry in the `x-fixture-token` header (else 401). Default none. */
  readonly token?: string;
  /** How long to wait for it to listen, in milliseconds. Default 20000. */
  readonly timeoutMs?: number;
}

/** A fixture MCP server over Streamable HTTP, running in its own process. */
export interface FixtureHttpServer extends NodeProcess {
  /** The port it listens on. */
  readonly port: number;
  /** Its MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
}

/**
 * Starts the fixture MCP server of `createFixtureServer` over Streamable HTTP on
 * 127.0.0.1, in a child process, and resolves once it listens. Its tool list is read from
 * `toolsFile` (a `createFixtureServer`'s `toolsFile`, or files you keep). Over HTTP its
 * answers may also use the actions `header` (a request header) and `drop_streams` (cuts
 * the open notification streams). Stop it with `stop()` (`SIGTERM`; `stop('SIGKILL')` to
 * have it vanish as a crash would).
 */
export async function startFixtureHttpServer(
  options: FixtureHttpServerOptions,
): Promise<FixtureHttpServer> {
  const { port = 0, token } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new HintgateError(
      'invalid_option',
      `startFixtureHttpServer: port is ${JSON.stringify(port)}; use an integer from 0 to 65535 (0 picks a free port)`,
    );
  }
  const started = await startNodeProcess({
    script: FIXTURE_PROCESS,
    env: {
      ...process.env,
      ...fixtureEnv(options),
      FIXTURE_HTTP_PORT: String(port),
      ...(token === undefined ? {} : { FIXTURE_HTTP_TOKEN: token }),
    },
    ready: /\{"port":(\d+)\}/,
    timeoutMs: options.timeoutMs ?? 20_000,
  });
  const bound = Number(started.ready[1]);
  return { ...started, port: bound, url: `http://127.0.0.1:${bound}/mcp` };
}
