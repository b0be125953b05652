/** The call events of a gateway's audit log, counted for the report of part 4 (bench/gateway.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Call events in one audit log, by type, and how many of them are of class `read`. */
export interface AuditCounts {
  readonly started: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Events of other types (approvals, tool changes), by type. */
  readonly other: Readonly<Record<string, number>>;
  /** Call events (`call.*`) whose class is `read`. */
  readonly read: number;
}

/** Counts the events of `.hintgate/audit.jsonl` under a gateway's configuration directory. */
export function auditCounts(directory: string): AuditCounts {
  const other: Record<string, number> = {};
  const counts = { started: 0, succeeded: 0, failed: 0, other, read: 0 };
  let text = '';
  try {
    text = readFileSync(join(directory, '.hintgate', 'audit.jsonl'), 'utf8');
  } catch {
    return counts;
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line) as { type?: string; class?: string };
    if (event.type === 'call.started') counts.started += 1;
    else if (event.type === 'call.succeeded') counts.succeeded += 1;
    else if (event.type === 'call.failed') counts.failed += 1;
    else other[event.type ?? 'unknown'] = (other[event.type ?? 'unknown'] ?? 0) + 1;
    if (event.type?.startsWith('call.') === true && event.class === 'read') counts.read += 1;
  }
  return counts;
}
