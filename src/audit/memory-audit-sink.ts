import type { AuditEvent, AuditSink } from './audit-event.js';

/** An {@link AuditSink} that keeps events in memory. */
export interface MemoryAuditSink extends AuditSink {
  /** Events in the order written. */
  readonly events: readonly AuditEvent[];
  /** Forgets all events. */
  clear(): void;
}

/** Creates an in-memory audit sink, for tests and in-process inspection. */
export function createMemoryAuditSink(): MemoryAuditSink {
  const events: AuditEvent[] = [];
  return {
    events,
    write(event) {
      events.push(event);
    },
    clear() {
      events.length = 0;
    },
  };
}
