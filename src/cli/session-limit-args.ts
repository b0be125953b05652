/**
 * The session flags of `hintgate serve --http`: the limits of its session table, under the
 * names `startMcpHttpServer` takes them (the gateway's configuration sets the same limits
 * as `downstream.http.sessions`).
 */

/** The session flags given, under `startMcpHttpServer`'s names. */
export interface SessionLimitArgs {
  readonly maxSessions?: number;
  readonly maxSessionsPerClient?: number;
  readonly sessionIdleMs?: number;
  readonly uninitializedSessionMs?: number;
}

/** Each session flag: the option it sets, its bounds, and what it counts. */
const SESSION_FLAGS = {
  'max-sessions': { option: 'maxSessions', min: 1, max: 100_000, what: 'sessions' },
  'max-sessions-per-client': {
    option: 'maxSessionsPerClient',
    min: 1,
    max: 100_000,
    what: 'sessions',
  },
  'session-idle-ms': {
    option: 'sessionIdleMs',
    min: 1000,
    max: 2_147_483_647,
    what: 'milliseconds',
  },
  'uninitialized-session-ms': {
    option: 'uninitializedSessionMs',
    min: 100,
    max: 600_000,
    what: 'milliseconds',
  },
} as const;

type SessionFlag = keyof typeof SESSION_FLAGS;

/** The flags' names, for the check that they come with `--http`. */
export const SESSION_FLAG_NAMES = Object.keys(SESSION_FLAGS) as SessionFlag[];

/** The flags as `parseArgs` options: each takes a value. */
export const SESSION_FLAG_OPTIONS = {
  'max-sessions': { type: 'string' },
  'max-sessions-per-client': { type: 'string' },
  'session-idle-ms': { type: 'string' },
  'uninitialized-session-ms': { type: 'string' },
} as const satisfies Record<SessionFlag, { type: 'string' }>;

/** Their lines of the usage text. */
export const SESSION_FLAGS_USAGE = `  --max-sessions N  Most 2025-11-25 sessions open at once (1-100000). Default 64. A new
                    client is never refused for lack of room: it closes an idle or
                    the least recently used session of the client holding the most.
  --max-sessions-per-client N
                    Most sessions one client address holds (1-100000); one more closes
                    its least recently used. Default 16. Clients behind one proxy, or
                    all local ones (127.0.0.1), count as one client.
  --session-idle-ms MS
                    Idle time after which a session goes first when the table is full
                    (1000-2147483647). Default 600000 (10 minutes).
  --uninitialized-session-ms MS
                    Time a session may go without a request after its initialize
                    before it is closed (100-600000). Default 10000.
`;

/** The limits the flags give (none given: no `limits`), or the first one that is wrong. */
export function sessionLimitArgs(
  values: Partial<Record<SessionFlag, string>>,
):
  | { readonly ok: true; readonly limits?: SessionLimitArgs }
  | { readonly ok: false; readonly message: string } {
  const limits: Record<string, number> = {};
  for (const [flag, { option, min, max, what }] of Object.entries(SESSION_FLAGS)) {
    const given = values[flag as SessionFlag];
    if (given === undefined) continue;
    const value = /^\d{1,10}$/.test(given) ? Number(given) : Number.NaN;
    if (!(value >= min && value <= max)) {
      return {
        ok: false,
        message: `--${flag} "${given}" is not a number of ${what} from ${min} to ${max}.`,
      };
    }
    limits[option] = value;
  }
  return Object.keys(limits).length === 0 ? { ok: true } : { ok: true, limits };
}
