/** Limits of a {@link SessionTable}. */
export interface SessionLimits {
  /** Most sessions open at once. */
  readonly maxSessions: number;
  /** Most sessions one client (one address) holds at once. */
  readonly maxSessionsPerClient: number;
  /** A session idle this long (ms) is evicted before any that is in use. */
  readonly sessionIdleMs: number;
  /**
   * A session no request followed after its initialize is closed after this long (ms),
   * and evicted before any other.
   */
  readonly uninitializedSessionMs: number;
}

/** One session as the table keeps it. */
export interface TableSession {
  /** Who opened it: the client's address, or another key of the caller. */
  readonly client: string;
  /** When it last served a request (ms, the table's clock). */
  lastActive: number;
  /** Order of its last use among the table's sessions (set by the table). */
  lastUse: number;
  /** True once a request followed its initialize. */
  used: boolean;
  /** Ends it (its transport and instance); the table has already let it go. */
  close(): Promise<void>;
}

/** A place for a session being opened; see {@link SessionTable.reserve}. */
export interface SessionReservation {
  /** Gives the place back once the session is in the table or failed to open. */
  release(): void;
}

/**
 * The open 2025-11-25 sessions of the HTTP endpoint, with limits that cannot lock a new
 * client out: a new session always gets a place. A client at `maxSessionsPerClient` makes
 * room among its own sessions; a full table evicts a session idle for `sessionIdleMs`, else
 * one of the client holding the most sessions. Either way a session that never got past
 * initialize goes before one in use, then the least recently used. So whoever fills the
 * table evicts its own sessions, not those of a client that holds fewer, and a session
 * that never completes initialize is closed after `uninitializedSessionMs` in any case.
 */
export class SessionTable<S extends TableSession> {
  readonly #sessions = new Map<string, S>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #limits: SessionLimits;
  readonly #now: () => number;
  readonly #onError: (error: Error) => void;
  #opening = 0;
  #uses = 0;

  constructor(
    limits: SessionLimits,
    options: { readonly now?: () => number; readonly onError: (error: Error) => void },
  ) {
    this.#limits = limits;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError;
  }

  /** Sessions open now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** The session of an id, if it is open. */
  get(id: string): S | undefined {
    return this.#sessions.get(id);
  }

  /** Marks a session in use now. */
  touch(session: S): void {
    session.lastActive = this.#now();
    session.lastUse = ++this.#uses;
    session.used = true;
  }

  /**
   * Takes a place for a session `client` is opening, evicting to make room. Undefined only
   * while `maxSessions` sessions are being opened at once.
   */
  reserve(client: string): SessionReservation | undefined {
    if (this.#opening >= this.#limits.maxSessions) return undefined;
    this.#fit(client, undefined, 1);
    this.#opening += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#opening -= 1;
      },
    };
  }

  /**
   * Adds a session that completed its initialize response, evicting others (never this
   * one) when sessions opened at the same time went over a limit, and starts its clock for
   * the rest of the handshake.
   */
  add(id: string, session: S): void {
    session.lastActive = this.#now();
    session.lastUse = ++this.#uses;
    this.#sessions.set(id, session);
    this.#fit(session.client, id, 0);
    const timer = setTimeout(() => {
      this.#timers.delete(id);
      if (this.#sessions.get(id) === session && !session.used) this.evict(id);
    }, this.#limits.uninitializedSessionMs);
    timer.unref?.();
    this.#timers.set(id, timer);
  }

  /** Lets a session go without closing it (it closed itself). */
  delete(id: string): void {
    this.#sessions.delete(id);
    const timer = this.#timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(id);
  }

  /** Lets a session go and closes it. */
  evict(id: string): void {
    const session = this.#sessions.get(id);
    if (session === undefined) return;
    this.delete(id);
    session.close().catch(this.#onError);
  }

  /** Lets every session go; resolves when they are closed. */
  async closeAll(): Promise<void> {
    const open = [...this.#sessions.keys()].map((id) => {
      const session = this.#sessions.get(id) as S;
      this.delete(id);
      return session.close().catch(this.#onError);
    });
    await Promise.all(open);
  }

  /**
   * Evicts until `client` holds, and the table has, room for `extra` more sessions besides
   * `keep` (a session just added, which is never evicted here).
   */
  #fit(client: string, keep: string | undefined, extra: number): void {
    const { maxSessions, maxSessionsPerClient } = this.#limits;
    const kept = keep === undefined ? 0 : 1;
    for (;;) {
      const own = this.#entries((s) => s.client === client, keep);
      if (own.length + kept + extra <= maxSessionsPerClient) break;
      const victim = this.#first(own);
      if (victim === undefined) break;
      this.evict(victim[0]);
    }
    while (this.#sessions.size + extra > maxSessions) {
      const victim = this.#globalVictim(keep);
      if (victim === undefined) break;
      this.evict(victim);
    }
  }

  #entries(match: (session: S) => boolean, keep: string | undefined): Array<[string, S]> {
    return [...this.#sessions].filter(([id, session]) => id !== keep && match(session));
  }

  /** Of some sessions, the one to let go first: unused before used, then least recent. */
  #first(entries: ReadonlyArray<[string, S]>): [string, S] | undefined {
    let best: [string, S] | undefined;
    for (const entry of entries) {
      const [, session] = entry;
      if (
        best === undefined ||
        (!session.used && best[1].used) ||
        (session.used === best[1].used && session.lastUse < best[1].lastUse)
      ) {
        best = entry;
      }
    }
    return best;
  }

  /**
   * The session to let go when the table is full: one idle for `sessionIdleMs`, else one of
   * the client that holds the most (of several such clients, the one whose session would
   * go first), unused before used, least recent first.
   */
  #globalVictim(keep: string | undefined): string | undefined {
    const now = this.#now();
    const idle = this.#first(
      this.#entries((s) => now - s.lastActive >= this.#limits.sessionIdleMs, keep),
    );
    if (idle !== undefined) return idle[0];
    const byClient = new Map<string, Array<[string, S]>>();
    for (const entry of this.#entries(() => true, keep)) {
      const list = byClient.get(entry[1].client) ?? [];
      list.push(entry);
      byClient.set(entry[1].client, list);
    }
    const most = Math.max(0, ...[...byClient.values()].map((list) => list.length));
    const heaviest = [...byClient.values()].filter((list) => list.length === most);
    return this.#first(heaviest.flat())?.[0];
  }
}
