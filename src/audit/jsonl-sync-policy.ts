import type { AuditEvent, AuditEventType } from './audit-event.js';
import type { AppendMode } from './group-commit-appender.js';

/**
 * When the JSONL sink syncs its lines to the disk: `true` before it reports them written,
 * `'batched'` in the background, `'auto'` by the event's class, `false` never. See
 * `JsonlAuditSinkOptions.sync`.
 */
export type JsonlSync = boolean | 'batched' | 'auto';

/** The values of {@link JsonlSync}. */
export const JSONL_SYNC_VALUES: readonly JsonlSync[] = [true, false, 'batched', 'auto'];

/**
 * Events written while a call is under way (its start and its approval): the runtime waits
 * for them only together with the call's end event, which it writes later, so their sync can
 * wait for that one's.
 */
const PROGRESS: ReadonlySet<AuditEventType> = new Set<AuditEventType>([
  'call.started',
  'approval.requested',
  'approval.granted',
  'approval.denied',
]);

/**
 * How the JSONL sink appends and syncs an event, decided from the event alone: its `type`
 * (a call's progress, or its end and anything else) and, with `'auto'`, its `class` (`read`:
 * the class the runtime's policy and scheduler used, from trusted annotations only; an event
 * without a class, such as `tool.changed` or a call that resolved to no tool, counts as one
 * that may change something).
 *
 * - `true`: progress `synced-later` (in the file before `write` returns, synced with the
 *   next sync another line asks for), anything else `synced`.
 * - `'batched'`: every line `appended` (reported written once in the file, synced in the
 *   background).
 * - `'auto'`: a `read` call's progress `with-next` (appended with the next line), its end
 *   `appended`; every other event as with `true`.
 * - `false`: every line `unsynced`.
 */
export function jsonlSyncPolicy(sync: JsonlSync): (event: AuditEvent) => AppendMode {
  switch (sync) {
    case true:
      return (event) => (PROGRESS.has(event.type) ? 'synced-later' : 'synced');
    case 'batched':
      return () => 'appended';
    case 'auto':
      return (event) => {
        const progress = PROGRESS.has(event.type);
        if (event.class === 'read') return progress ? 'with-next' : 'appended';
        return progress ? 'synced-later' : 'synced';
      };
    default:
      return () => 'unsynced';
  }
}
