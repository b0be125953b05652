import { HintgateError } from '../errors/index.js';

/** Environment variable that turns the MCP layer's fast paths off, all or some. */
export const FAST_PATHS_ENV = 'HINTGATE_FAST_PATHS';

/**
 * The fast paths of the MCP layer, each one explicit layer past part of the SDK:
 * `http`, `tools/call` requests of 2025-11-25 sessions answered from the HTTP
 * listener (`startMcpHttpServer`); `stdio`, every `tools/call` of a 2025-11-25 stdio
 * connection answered by the `StdioCallLayer` of `serveMcpStdio`; `upstream`, `tools/call`
 * sent straight on a 2025-era upstream stdio connection.
 */
export const FAST_PATHS = ['http', 'stdio', 'upstream'] as const;

/** One of {@link FAST_PATHS}. */
export type FastPath = (typeof FAST_PATHS)[number];

/**
 * Whether the MCP layer may take the fast path `path`, from `HINTGATE_FAST_PATHS`: unset,
 * empty or `on` allows every one, `off` none (every request through the SDK as it is), and
 * a comma-separated list of {@link FAST_PATHS} allows those only. For measuring what each
 * buys (bench/gateway.ts), and as a way out should one misbehave.
 *
 * @throws HintgateError `invalid_option` for any other value.
 */
export function fastPathEnabled(
  path: FastPath,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  const value = env[FAST_PATHS_ENV]?.trim();
  if (value === undefined || value === '' || value === 'on') return true;
  if (value === 'off') return false;
  const named = value.split(',').map((name) => name.trim());
  const unknown = named.filter((name) => !(FAST_PATHS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new HintgateError(
      'invalid_option',
      `${FAST_PATHS_ENV} must be "on", "off" or a comma-separated list of ${FAST_PATHS.join(', ')}, not ${JSON.stringify(value.slice(0, 60))}.`,
    );
  }
  return named.includes(path);
}
