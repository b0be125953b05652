import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** One signed-in browser. */
export interface ConsoleSession {
  /** The cookie's value: random, never shown. */
  readonly id: string;
  /** Sent by the page with every state-changing request (`X-CSRF-Token`). */
  readonly csrf: string;
  /** A short name for the audit log (`answeredBy.who`, `changedBy.who`). */
  readonly label: string;
}

/** Most sessions kept at once; signing in past it ends the oldest. */
const MAX_SESSIONS = 32;

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Compares two secrets in constant time, whatever their lengths. */
export const sameSecret = (presented: string, expected: string): boolean =>
  timingSafeEqual(digest(presented), digest(expected));

/**
 * The console's sign-ins: a person presents the login token once and gets a session, kept
 * in an HttpOnly cookie; the token itself is never stored in the browser. Sessions last
 * as long as the console.
 */
export class ConsoleSessions {
  readonly #token: string;
  readonly #sessions = new Map<string, ConsoleSession>();

  constructor(token: string) {
    this.#token = token;
  }

  /** A new session when `presented` is the login token, else undefined. */
  signIn(presented: string): ConsoleSession | undefined {
    if (!sameSecret(presented, this.#token)) return undefined;
    if (this.#sessions.size >= MAX_SESSIONS) {
      const [oldest] = this.#sessions.keys();
      if (oldest !== undefined) this.#sessions.delete(oldest);
    }
    const session: ConsoleSession = {
      id: randomBytes(32).toString('base64url'),
      csrf: randomBytes(32).toString('base64url'),
      label: `console session ${randomBytes(4).toString('hex')}`,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The session whose id `presented` is, else undefined. */
  find(presented: string | undefined): ConsoleSession | undefined {
    if (presented === undefined || presented === '') return undefined;
    // Looked up by its digest-compared id: a Map lookup on the raw value would be as good
    // for random ids, but this keeps every secret comparison in one constant-time shape.
    for (const session of this.#sessions.values()) {
      if (sameSecret(presented, session.id)) return session;
    }
    return undefined;
  }

  /** Ends a session. */
  signOut(id: string): void {
    this.#sessions.delete(id);
  }
}
