import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../gateway/gateway.test-helpers.js';
import { ConsoleAuditTrail } from './console-audit-trail.js';

let dir: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.remove());

const event = (callId: string) => ({
  type: 'call.succeeded' as const,
  time: '2026-11-28T00:00:00.000Z',
  callId,
});

describe('ConsoleAuditTrail', () => {
  it('starts with the end of the audit log, skipping what is not an event', async () => {
    const path = join(dir.dir, 'audit.jsonl');
    await writeFile(
      path,
      `${JSON.stringify(event('old'))}\nnot json\n{"type":"nope","time":"x"}\n`,
    );
    await appendFile(path, `${JSON.stringify(event('c1'))}\n[1,2]\n`);
    const trail = new ConsoleAuditTrail();
    await trail.loadHistory(path);
    expect(trail.events().map((e) => e.callId)).toEqual(['old', 'c1']);
    const cut = new ConsoleAuditTrail({ maxHistoryBytes: 90 });
    await cut.loadHistory(path);
    // The read starts mid-line: that line is dropped, never half-parsed.
    expect(cut.events().map((e) => e.callId)).toEqual(['c1']);
  });

  it('has no history without a log, and keeps live events within its bound', async () => {
    const trail = new ConsoleAuditTrail({ maxEvents: 2 });
    await trail.loadHistory(join(dir.dir, 'missing.jsonl'));
    const seen: string[] = [];
    trail.onEvent((e) => seen.push(e.callId ?? ''));
    for (const id of ['a', 'b', 'c']) trail.write(event(id));
    expect(trail.events().map((e) => e.callId)).toEqual(['b', 'c']);
    expect(seen).toEqual(['a', 'b', 'c']);
  });
});
