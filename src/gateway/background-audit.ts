import type { AuditEvent, AuditSink } from '../audit/index.js';
import { asError } from '../errors/index.js';

/** Audit writes made in the background, and a way to wait for them. */
export interface BackgroundAudit {
  /** Writes the event without making the caller wait; a failure goes to `report`. */
  readonly write: (event: AuditEvent) => void;
  /** Resolves once every write started so far has settled (written, or reported). */
  settled(): Promise<void>;
}

/**
 * Writes audit events that nobody waits for, such as the gateway's pin findings (`tool.changed`),
 * never failing the caller, and keeps track of them so that closing can wait until they
 * are written before the sink closes. Given several sinks, each event goes to each of them.
 */
export function backgroundAudit(
  sink: AuditSink | readonly AuditSink[],
  report: (error: Error) => void,
): BackgroundAudit {
  const pending = new Set<Promise<void>>();
  const sinks: readonly AuditSink[] = Array.isArray(sink) ? sink : [sink as AuditSink];
  return {
    write(event) {
      const written = Promise.resolve()
        .then(() => Promise.all(sinks.map((each) => each.write(event))))
        .then(() => {})
        .catch((error: unknown) => report(asError(error)))
        .finally(() => pending.delete(written));
      pending.add(written);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
