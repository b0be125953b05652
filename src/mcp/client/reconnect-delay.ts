/** How a lost MCP server connection is re-established. */
export interface ReconnectOptions {
  /** Delay before the first attempt, in milliseconds. Default 250. */
  readonly initialDelayMs?: number;
  /**
   * Cap of one delay, in milliseconds; delays double up to it. Default 30000. A connection
   * lost sooner than this after it was made counts as a failed attempt, so a server that
   * crashes at start-up backs off instead of restarting at full speed.
   */
  readonly maxDelayMs?: number;
  /**
   * Failed attempts in a row after which the connection gives up and closes (its tools
   * leave the registry). Default `Infinity`: keep trying at `maxDelayMs` intervals.
   */
  readonly maxAttempts?: number;
}

/** {@link ReconnectOptions} with every default applied. */
export type ResolvedReconnect = Required<ReconnectOptions>;

/** Defaults of {@link ReconnectOptions}. */
export const DEFAULT_RECONNECT: ResolvedReconnect = Object.freeze({
  initialDelayMs: 250,
  maxDelayMs: 30_000,
  maxAttempts: Number.POSITIVE_INFINITY,
});

/**
 * Delay before reconnect attempt `attempt` (1 for the first): exponential from
 * `initialDelayMs`, capped at `maxDelayMs`, with "equal jitter" (between half and all of
 * that value), so that servers restarted together do not reconnect in lockstep and a
 * delay never collapses to zero.
 */
export function reconnectDelay(
  attempt: number,
  options: ResolvedReconnect,
  random: () => number,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 52);
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
