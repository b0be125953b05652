import { argumentDigest } from '../../audit/index.js';

/** A call the adapter put to the person through the AI SDK's approval flow. */
export interface IssuedAsk {
  /** The tool's name. */
  readonly name: string;
  /** The arguments as asked about. */
  readonly arguments: unknown;
  /** The hintgate session of the adapter that asked (see `AiSdkToolsOptions.session`). */
  readonly session: string | null | undefined;
}

interface Entry {
  readonly name: string;
  readonly digest: string;
  readonly session: string | null | undefined;
}

/** How many asks are remembered at most; the oldest are forgotten first. */
export const ISSUED_ASKS_LIMIT = 10_000;

/**
 * The asks the adapters of this process issued and that have not been answered yet, by
 * tool call id. The AI SDK rebuilds approvals from the message history the app sends,
 * which a client may have written: an approval is honoured only for a call asked about
 * here, with the same tool, arguments and session, and only once.
 */
export class IssuedAsks {
  readonly #asks = new Map<string, Entry>();
  readonly #limit: number;

  constructor(limit = ISSUED_ASKS_LIMIT) {
    this.#limit = limit;
  }

  /** True when an ask for this tool call id is waiting for its answer. */
  has(toolCallId: string): boolean {
    return this.#asks.has(toolCallId);
  }

  /** Remembers an ask; forgets the oldest beyond the limit. */
  issue(toolCallId: string, ask: IssuedAsk): void {
    this.#asks.delete(toolCallId);
    this.#asks.set(toolCallId, {
      name: ask.name,
      digest: argumentDigest(ask.arguments),
      session: ask.session,
    });
    for (const oldest of this.#asks.keys()) {
      if (this.#asks.size <= this.#limit) break;
      this.#asks.delete(oldest);
    }
  }

  /**
   * Forgets and returns true for the ask of this call when it was issued for the same tool,
   * arguments and session; false (and the ask is kept) otherwise.
   */
  take(toolCallId: string, ask: IssuedAsk): boolean {
    const entry = this.#asks.get(toolCallId);
    if (
      entry === undefined ||
      entry.name !== ask.name ||
      entry.session !== ask.session ||
      entry.digest !== argumentDigest(ask.arguments)
    ) {
      return false;
    }
    this.#asks.delete(toolCallId);
    return true;
  }
}

/** The asks issued by every AI SDK adapter of this process, so that any of them may take the answer. */
export const issuedAsks = new IssuedAsks();
