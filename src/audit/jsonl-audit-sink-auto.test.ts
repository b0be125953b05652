import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HintgateError } from '../errors/hintgate-error.js';
import { createJsonlAuditSink } from './jsonl-audit-sink.js';
import {
  callIdsIn,
  event,
  heldSyncs,
  readLines,
  settled,
  startedEvent,
} from './jsonl-audit-sink.test-helpers.js';

describe("createJsonlAuditSink with sync: 'auto'", () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-jsonl-auto-'));
    path = join(dir, 'audit.jsonl');
  });
  afterEach(async () => {
    vi.useRealTimers();
    await rm(dir, { recursive: true, force: true });
  });

  it('resolves a read event before any sync, with its line in the file, and another write only once a sync covered it', async () => {
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem, sync: 'auto', maxSyncDelayMs: 60_000 });
    const read = sink.write(event('read', 'read')) as Promise<void>;
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(event('read', 'read'))}\n`);
    expect(await settled(read)).toBe(true);
    expect(syncs).toHaveLength(0);

    const write = sink.write(event('write')) as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    // The one sync covers the read-only line too.
    expect(syncs[0]?.linesAtStart).toBe(2);
    expect(await settled(write)).toBe(false);
    syncs[0]?.release();
    await write;
    expect(syncs).toHaveLength(1);
    await sink.close?.();
  });

  it("resolves a read call's call.started before any sync, and a write call's only after one", async () => {
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem, sync: 'auto', maxSyncDelayMs: 60_000 });
    const read = sink.write(startedEvent('read', 'read')) as Promise<void>;
    const write = sink.write(startedEvent('write')) as Promise<void>;
    expect(await readLines(path)).toHaveLength(2);
    expect(await settled(read)).toBe(true);
    expect(await settled(write)).toBe(false);
    expect(syncs).toHaveLength(0);
    const closed = sink.close?.() as Promise<void>;
    syncs[0]?.release();
    await Promise.all([write, closed]);
  });

  it('keeps the order of writes in the file across [WRITE(1), READ(2), WRITE-started(3), READ-started(4), WRITE(5), READ(6)]', async () => {
    const sink = createJsonlAuditSink({ path, sync: 'auto' });
    const writes = [sink.write(event('1'))];
    // The read-only line is appended at once, after the line written before it.
    writes.push(sink.write(event('2', 'read')) as Promise<void>);
    expect(await callIdsIn(path)).toEqual(['1', '2']);
    writes.push(sink.write(startedEvent('3')) as Promise<void>);
    writes.push(sink.write(startedEvent('4', 'read')) as Promise<void>);
    writes.push(sink.write(event('5')) as Promise<void>);
    writes.push(sink.write(event('6', 'read')) as Promise<void>);
    await Promise.all(writes);
    expect(await callIdsIn(path)).toEqual(['1', '2', '3', '4', '5', '6']);
    await sink.close?.();
  });

  it('syncs lone read lines together in the background after maxSyncDelayMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem, sync: 'auto', maxSyncDelayMs: 30 });
    await sink.write(event('1', 'read'));
    await sink.write(event('2', 'read'));
    await vi.advanceTimersByTimeAsync(29);
    expect(syncs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    expect(syncs[0]?.linesAtStart).toBe(2);
    syncs[0]?.release();
    await sink.close?.();
    expect(syncs).toHaveLength(1);
  });

  it('tells onSyncError of a failed sync of read lines once, rejects the other writes it covered, and goes on', async () => {
    const { fileSystem, syncs } = heldSyncs(path);
    const failures: HintgateError[] = [];
    const sink = createJsonlAuditSink({
      path,
      fileSystem,
      sync: 'auto',
      maxSyncDelayMs: 60_000,
      onSyncError: (error) => failures.push(error),
    });
    await sink.write(event('1', 'read'));
    await sink.write(event('2', 'read'));
    const write = sink.write(event('3')) as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    syncs[0]?.fail(new Error('EIO: i/o error'));
    await expect(write).rejects.toMatchObject({
      code: 'audit_write_failed',
      message: expect.stringContaining('EIO'),
    });
    expect(failures).toEqual([
      expect.objectContaining({
        code: 'audit_write_failed',
        message: expect.stringContaining('EIO'),
      }),
    ]);

    await sink.write(event('4', 'read'));
    const closed = sink.close?.() as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(2));
    syncs[1]?.release();
    await closed;
    expect(failures).toHaveLength(1);
    expect(await callIdsIn(path)).toEqual(['1', '2', '3', '4']);
  });

  it('syncs read lines on flush and close', async () => {
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem, sync: 'auto', maxSyncDelayMs: 60_000 });
    await sink.write(event('1', 'read'));
    const flushed = sink.flush?.() as Promise<void>;
    expect(syncs).toHaveLength(1);
    expect(await settled(flushed)).toBe(false);
    syncs[0]?.release();
    await flushed;
    await sink.write(event('2', 'read'));
    const closed = sink.close?.() as Promise<void>;
    expect(syncs.map((sync) => sync.linesAtStart)).toEqual([1, 2]);
    expect(await settled(closed)).toBe(false);
    syncs[1]?.release();
    await closed;
    await expect(sink.write(event('3', 'read'))).rejects.toMatchObject({
      code: 'audit_write_failed',
    });
  });

  it('leaves sync: true (the default) as it was: a read event waits for its sync', async () => {
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem });
    const read = sink.write(event('read', 'read')) as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    expect(await settled(read)).toBe(false);
    syncs[0]?.release();
    await read;
    await sink.close?.();
  });
  it("appends a read-only call's call.started with its last event, in one write, and reports both written then", async () => {
    const { fileSystem, syncs } = heldSyncs(path);
    const writes: number[] = [];
    const sink = createJsonlAuditSink({
      path,
      sync: 'auto',
      maxSyncDelayMs: 60_000,
      fileSystem: {
        ...fileSystem,
        write: (fd, data, offset) => {
          writes.push(data.length - offset);
          return fileSystem.write(fd, data, offset);
        },
      },
    });
    const started = sink.write(startedEvent('started', 'read')) as Promise<void>;
    expect(writes).toHaveLength(0);
    expect(await settled(started)).toBe(false);
    const ended = sink.write(event('ended', 'read')) as Promise<void>;
    expect(writes).toHaveLength(1);
    expect(await callIdsIn(path)).toEqual(['started', 'ended']);
    expect(await settled(started)).toBe(true);
    expect(await settled(ended)).toBe(true);
    expect(syncs).toHaveLength(0);
    const closed = sink.close?.() as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    syncs[0]?.release();
    await closed;
  });

  it('appends a held call.started by itself within maxSyncDelayMs when nothing else is written', async () => {
    const sink = createJsonlAuditSink({ path, sync: 'auto', maxSyncDelayMs: 20 });
    const alone = sink.write(startedEvent('alone', 'read'));
    expect(await callIdsIn(path)).toEqual([]);
    await alone;
    expect(await callIdsIn(path)).toEqual(['alone']);
    await sink.close?.();
  });
});
