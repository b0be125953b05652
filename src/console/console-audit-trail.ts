import { open } from 'node:fs/promises';
import { AUDIT_EVENT_TYPES, type AuditEvent, type AuditSink } from '../audit/index.js';
import { isPlainObject } from '../tool/index.js';

/** Options of {@link ConsoleAuditTrail}. */
export interface ConsoleAuditTrailOptions {
  /** Most events kept (oldest dropped first). Default 5000. */
  readonly maxEvents?: number;
  /** Most bytes read from the end of the audit log at start. Default 4 MiB. */
  readonly maxHistoryBytes?: number;
}

const TYPES: ReadonlySet<string> = new Set(AUDIT_EVENT_TYPES);

/** One line of the audit log as an event, or undefined when it is not one. */
const parseLine = (line: string): AuditEvent | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || typeof value.type !== 'string' || !TYPES.has(value.type)) {
    return undefined;
  }
  if (typeof value.time !== 'string') return undefined;
  return value as unknown as AuditEvent;
};

/**
 * The console's view of the audit trail: the end of the JSONL audit log read at start
 * ({@link ConsoleAuditTrail.loadHistory}), then every event as the gateway writes it (it is
 * an audit sink, given to the gateway's `auditSinks`), kept in memory up to a bound, and
 * passed on live to the pages that listen.
 */
export class ConsoleAuditTrail implements AuditSink {
  readonly #events: AuditEvent[] = [];
  readonly #listeners = new Set<{ readonly listener: (event: AuditEvent) => void }>();
  readonly #max: number;
  readonly #maxHistoryBytes: number;

  constructor(options: ConsoleAuditTrailOptions = {}) {
    this.#max = options.maxEvents ?? 5000;
    this.#maxHistoryBytes = options.maxHistoryBytes ?? 4 * 1024 * 1024;
  }

  /**
   * Reads the end of the audit log at `path` (a missing file is no history) and puts its
   * events before those written since. Lines that are not audit events are skipped.
   */
  async loadHistory(path: string): Promise<void> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return;
      throw error;
    }
    let text: string;
    try {
      const { size } = await handle.stat();
      const start = Math.max(0, size - this.#maxHistoryBytes);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      text = buffer.toString('utf8');
      // A read that starts mid-file starts mid-line: that line is dropped.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
    const history = text
      .split('\n')
      .map(parseLine)
      .filter((event): event is AuditEvent => event !== undefined);
    this.#events.unshift(...history);
    this.#trim();
  }

  /** Keeps the event and passes it to the listeners. */
  write(event: AuditEvent): void {
    this.#events.push(event);
    this.#trim();
    for (const { listener } of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A page's listener must not fail the audit write.
      }
    }
  }

  /** The events kept, oldest first. */
  events(): readonly AuditEvent[] {
    return [...this.#events];
  }

  /** Calls `listener` with every event written from now on. Returns a function that unsubscribes. */
  onEvent(listener: (event: AuditEvent) => void): () => void {
    const entry = { listener };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  #trim(): void {
    if (this.#events.length > this.#max) this.#events.splice(0, this.#events.length - this.#max);
  }
}
