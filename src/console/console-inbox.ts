import { randomUUID } from 'node:crypto';
import { redactSecrets } from '../audit/index.js';
import type { ApprovalAnswer, ApprovalRequest, Approver, RememberScope } from '../policy/index.js';
import { approvalKeyLines, opaqueLines } from '../policy/index.js';
import type { EffectiveHints, ToolAnnotations, ToolClass } from '../tool/index.js';

/** What the console shows of one call waiting for approval. Every string is data, never markup. */
export interface PendingApproval {
  /** The inbox's own id of the request (not the client's call id, which a client chooses). */
  readonly id: string;
  /** When it was offered, ISO-8601. */
  readonly since: string;
  readonly callId: string;
  readonly tool: { readonly name: string; readonly title?: string; readonly description: string };
  readonly server: string;
  readonly class: ToolClass;
  /** Whether the server's annotations are trusted (else the spec defaults apply). */
  readonly trusted: boolean;
  readonly claimed: ToolAnnotations;
  readonly effective: EffectiveHints;
  /** The arguments with secret-looking fields redacted, as the audit log has them. */
  readonly arguments: unknown;
  /** Each approval key and what already covers it. */
  readonly keys: readonly string[];
  /** Parts of the call its tool could not understand. */
  readonly opaque: readonly string[];
  /** The rule, mode or annotation that asked. */
  readonly reason: string;
  /** The choices offered besides Deny, each with what it would remember. */
  readonly choices: readonly { readonly remember: RememberScope; readonly remembers: string }[];
}

/** A person's choice in the console. */
export interface ConsoleChoice {
  readonly decision: 'allow' | 'deny';
  /** For `allow`: how long it is remembered. Default `once`. */
  readonly remember?: RememberScope;
  /** For `deny`: the reason typed in, told to the model and the audit log. */
  readonly reason?: string;
}

/** Options of {@link ConsoleInbox}. */
export interface ConsoleInboxOptions {
  /** Where "always" answers are written, to say so on the button. Default: not said. */
  readonly approvalsFile?: string;
  /** Clock for `since`. Default `Date.now`. */
  readonly now?: () => number;
}

/** Longest reason kept from the page, in characters. */
const MAX_REASON = 500;
/** Most requests waiting at once; later ones are denied, saying so. */
const MAX_PENDING = 1000;

const REMEMBER_ORDER: readonly RememberScope[] = ['once', 'session', 'always'];

/** What one choice remembers, in words. */
function remembers(request: ApprovalRequest, scope: RememberScope, file?: string): string {
  const keys = request.approvalKeys.join(', ');
  const tool = `"${request.tool.name}" of server "${request.origin}"`;
  switch (scope) {
    case 'once':
      return 'this call only; the next call asks again';
    case 'session':
      return `calls of ${tool} covering ${keys}, from the same client connection until it disconnects`;
    case 'always':
      return `calls of ${tool} covering ${keys}, in this project from now on, across restarts${file === undefined ? '' : ` (written to ${file})`}`;
  }
}

/** Control characters (but tab and line ends) removed: a reason is shown as one text. */
const cleanReason = (text: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '').slice(0, MAX_REASON);

interface Entry {
  readonly view: PendingApproval;
  readonly offered: readonly RememberScope[];
  readonly resolve: (answer: ApprovalAnswer) => void;
}

/**
 * The console's approvals inbox: an approval channel (`approver`) that shows each request
 * to the console's pages and waits for a choice there, until another channel answers or the
 * wait ends (its signal aborts: the request is then withdrawn from the pages).
 */
export class ConsoleInbox {
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<{ readonly listener: () => void }>();
  readonly #options: ConsoleInboxOptions;
  #closed = false;

  constructor(options: ConsoleInboxOptions = {}) {
    this.#options = options;
  }

  /** The approval channel: offer it with the MCP client's own (`approvalChannels`). */
  readonly approver: Approver = (request, { signal }) => {
    if (this.#closed) {
      return { decision: 'deny', reason: 'the console is closed', asked: false };
    }
    if (this.#entries.size >= MAX_PENDING) {
      return {
        decision: 'deny',
        reason: `the console has ${MAX_PENDING} requests waiting already; answer them first`,
        asked: false,
      };
    }
    const id = randomUUID();
    const offered = REMEMBER_ORDER.filter(
      (scope) => scope === 'once' || (request.remember ?? []).includes(scope),
    );
    const view: PendingApproval = {
      id,
      since: new Date((this.#options.now ?? Date.now)()).toISOString(),
      callId: request.callId,
      tool: {
        name: request.tool.name,
        ...(request.tool.title === undefined ? {} : { title: request.tool.title }),
        description: request.tool.description,
      },
      server: request.origin,
      class: request.class,
      trusted: request.trusted,
      claimed: request.claimed,
      effective: request.effective,
      arguments: redactSecrets(request.arguments),
      keys: approvalKeyLines(request),
      opaque: opaqueLines(request),
      reason: request.reason,
      choices: offered.map((scope) => ({
        remember: scope,
        remembers: remembers(request, scope, this.#options.approvalsFile),
      })),
    };
    return new Promise<ApprovalAnswer>((resolve) => {
      const finish = (answer: ApprovalAnswer): void => {
        if (!this.#entries.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
        this.#changed();
      };
      // Withdrawn: answered elsewhere, timed out or cancelled; the caller stopped waiting.
      const onAbort = (): void =>
        finish({ decision: 'deny', reason: 'withdrawn from the console', asked: false });
      this.#entries.set(id, { view, offered, resolve: finish });
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#changed();
    });
  };

  /** The requests waiting, oldest first. */
  pending(): PendingApproval[] {
    return [...this.#entries.values()].map((entry) => entry.view);
  }

  /**
   * Answers a waiting request with a choice made in the console by `who`. Resolves to false
   * when the request is no longer waiting (answered elsewhere, withdrawn). A remember scope
   * the request did not offer is narrowed to the widest offered one below it.
   */
  answer(id: string, choice: ConsoleChoice, who: string): boolean {
    const entry = this.#entries.get(id);
    if (entry === undefined) return false;
    const answeredBy = { channel: 'console', who } as const;
    if (choice.decision === 'deny') {
      const typed = cleanReason(choice.reason ?? '').trim();
      entry.resolve({
        decision: 'deny',
        reason: typed === '' ? 'denied in the console' : typed,
        answeredBy,
      });
      return true;
    }
    const wanted = REMEMBER_ORDER.indexOf(choice.remember ?? 'once');
    const remember =
      [...entry.offered].reverse().find((scope) => REMEMBER_ORDER.indexOf(scope) <= wanted) ??
      'once';
    entry.resolve({
      decision: 'allow',
      remember,
      reason: 'approved in the console',
      answeredBy,
    });
    return true;
  }

  /** Calls `listener` whenever the requests waiting change. Returns a function that unsubscribes. */
  onChange(listener: () => void): () => void {
    const entry = { listener };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Denies every request waiting and takes no more (they go to the other channels). */
  close(): void {
    this.#closed = true;
    for (const entry of [...this.#entries.values()]) {
      entry.resolve({ decision: 'deny', reason: 'the console was closed', asked: false });
    }
  }

  #changed(): void {
    for (const { listener } of [...this.#listeners]) {
      try {
        listener();
      } catch {
        // A page's listener must not break the approval.
      }
    }
  }
}
