import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { nodeAuditFileSystem } from './audit-file-system.js';
import { createJsonlAuditSink } from './jsonl-audit-sink.js';
import {
  event,
  heldSyncs,
  readLines,
  settled,
  startedEvent,
} from './jsonl-audit-sink.test-helpers.js';

describe('createJsonlAuditSink', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-jsonl-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates missing directories and appends one JSON line per event', async () => {
    const path = join(dir, 'a', 'b', 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    await sink.write(event('1'));
    await sink.write(event('2'));
    expect((await readLines(path)).map((line) => JSON.parse(line))).toEqual([
      event('1'),
      event('2'),
    ]);
    await sink.close?.();
  });

  it('has the line in the file as soon as write resolves', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    await sink.write(event('1'));
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(event('1'))}\n`);
    await sink.write(event('2'));
    expect(await readLines(path)).toHaveLength(2);
    await sink.close?.();
  });

  it('has the line in the file as soon as write resolves, without sync', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path, sync: false });
    await sink.write(event('1'));
    expect(await readLines(path)).toHaveLength(1);
    await sink.close?.();
  });

  it('lands all of 200 writes made in one tick, in order, each a whole line', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    const ids = Array.from({ length: 200 }, (_, index) => String(index));
    await Promise.all(ids.map((id) => sink.write(event(id))));
    const lines = await readLines(path);
    expect(lines).toHaveLength(200);
    expect(lines.map((line) => (JSON.parse(line) as AuditEvent).callId)).toEqual(ids);
    await sink.close?.();
  });

  it('keeps writes made while a group is being written', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    const first = sink.write(event('1'));
    await Promise.resolve();
    await Promise.resolve();
    const second = sink.write(event('2'));
    await Promise.all([first, second]);
    expect(await readLines(path)).toHaveLength(2);
    await sink.close?.();
  });

  it('appends to an existing file', async () => {
    const path = join(dir, 'audit.jsonl');
    await writeFile(path, '{"old":true}\n');
    const sink = createJsonlAuditSink({ path });
    await sink.write(event('1'));
    expect(await readLines(path)).toEqual(['{"old":true}', JSON.stringify(event('1'))]);
    await sink.close?.();
  });

  it('creates the file readable and writable by its owner only (0600)', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    await sink.write(event('1'));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await sink.close?.();
  });

  it('has every written event in the file once flush resolves', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    const writes = [sink.write(event('1')), sink.write(event('2'))];
    await sink.flush?.();
    expect(await readLines(path)).toHaveLength(2);
    await Promise.all(writes);
    await sink.close?.();
  });

  it('finishes pending writes on close, then rejects later writes with audit_write_failed', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    const pending = sink.write(event('1'));
    await sink.close?.();
    await pending;
    expect(await readLines(path)).toHaveLength(1);
    await expect(sink.write(event('2'))).rejects.toMatchObject({
      code: 'audit_write_failed',
      message: expect.stringContaining(path),
    });
  });

  it('rejects writes to an unwritable path with audit_write_failed naming the path', async () => {
    const blocker = join(dir, 'not-a-directory');
    await writeFile(blocker, '');
    const path = join(blocker, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    const failure = await (sink.write(event('1')) as Promise<void>).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      name: 'HintgateError',
      code: 'audit_write_failed',
      message: expect.stringContaining(path),
    });
    expect((failure as Error).cause).toBeInstanceOf(Error);
    await expect(sink.close?.()).resolves.toBeUndefined();
  });

  it('has a call.started line in the file when write returns, before it resolves', async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem });
    const written = sink.write(startedEvent('1')) as Promise<void>;
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(startedEvent('1'))}\n`);
    expect(await settled(written)).toBe(false);
    const flushed = sink.flush?.();
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    syncs[0]?.release();
    await Promise.all([written, flushed]);
  });

  it('appends other lines at the end of the turn, and keeps the order events were written in', async () => {
    const path = join(dir, 'audit.jsonl');
    const sink = createJsonlAuditSink({ path });
    const first = sink.write(event('1'));
    const second = sink.write(event('2'));
    expect(readFileSync(path, 'utf8')).toBe('');
    const third = sink.write(startedEvent('3'));
    expect((await readLines(path)).map((line) => (JSON.parse(line) as AuditEvent).callId)).toEqual([
      '1',
      '2',
      '3',
    ]);
    const fourth = sink.write(event('4'));
    await Promise.all([first, second, third, fourth]);
    expect((await readLines(path)).map((line) => (JSON.parse(line) as AuditEvent).callId)).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    await sink.close?.();
  });

  it('shares one sync among the writes of one turn of the event loop', async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem });
    const writes = ['1', '2', '3'].map((id) => sink.write(event(id)) as Promise<void>);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    expect(syncs[0]?.linesAtStart).toBe(3);
    syncs[0]?.release();
    await Promise.all(writes);
    expect(syncs).toHaveLength(1);
    await sink.close?.();
  });

  it('resolves a write only after a sync that began once its line was in the file', async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem });
    const first = sink.write(event('1')) as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    // Lines written while a sync runs wait for the next one, and share it.
    const second = sink.write(event('2')) as Promise<void>;
    const third = sink.write(event('3')) as Promise<void>;
    expect(syncs.map((sync) => sync.linesAtStart)).toEqual([1]);
    syncs[0]?.release();
    await first;
    expect(await settled(second)).toBe(false);
    await vi.waitFor(() => expect(syncs).toHaveLength(2));
    expect(syncs[1]?.linesAtStart).toBe(3);
    syncs[1]?.release();
    await Promise.all([second, third]);
    expect(syncs).toHaveLength(2);
    await sink.close?.();
  });

  it('syncs a call.started with the next write that asks for a sync: one sync for both', async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem });
    const started = sink.write(startedEvent('started')) as Promise<void>;
    expect(await settled(started)).toBe(false);
    expect(syncs).toHaveLength(0);
    const ended = sink.write(event('ended')) as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    expect(syncs.map((sync) => sync.linesAtStart)).toEqual([2]);
    syncs[0]?.release();
    await Promise.all([started, ended]);
    expect(syncs).toHaveLength(1);
    await sink.close?.();
  });

  it('syncs a lone call.started after maxSyncDelayMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const path = join(dir, 'audit.jsonl');
      const { fileSystem, syncs } = heldSyncs(path);
      const sink = createJsonlAuditSink({ path, fileSystem, maxSyncDelayMs: 30 });
      const started = sink.write(startedEvent('started')) as Promise<void>;
      await vi.advanceTimersByTimeAsync(29);
      expect(syncs).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(syncs).toHaveLength(1));
      expect(syncs.map((sync) => sync.linesAtStart)).toEqual([1]);
      syncs[0]?.release();
      await started;
    } finally {
      vi.useRealTimers();
    }
  });

  it('syncs call.started lines on flush', async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem, maxSyncDelayMs: 60_000 });
    const started = sink.write(startedEvent('started')) as Promise<void>;
    const flushed = sink.flush?.() as Promise<void>;
    expect(syncs).toHaveLength(1);
    syncs[0]?.release();
    await Promise.all([started, flushed]);
  });

  it('syncs the directory of a file it created once, and not that of a file that existed', async () => {
    const created = join(dir, 'new', 'audit.jsonl');
    const fresh = heldSyncs(created);
    const sink = createJsonlAuditSink({ path: created, fileSystem: fresh.fileSystem });
    const first = sink.write(event('1')) as Promise<void>;
    await vi.waitFor(() => expect(fresh.syncs).toHaveLength(1));
    fresh.syncs[0]?.release();
    await first;
    const second = sink.write(event('2')) as Promise<void>;
    await vi.waitFor(() => expect(fresh.syncs).toHaveLength(2));
    fresh.syncs[1]?.release();
    await second;
    expect(fresh.directorySyncs).toEqual([join(dir, 'new')]);

    const existing = join(dir, 'existing.jsonl');
    await writeFile(existing, '');
    const old = heldSyncs(existing);
    const other = createJsonlAuditSink({ path: existing, fileSystem: old.fileSystem });
    const written = other.write(event('1')) as Promise<void>;
    await vi.waitFor(() => expect(old.syncs).toHaveLength(1));
    old.syncs[0]?.release();
    await written;
    expect(old.directorySyncs).toEqual([]);
  });

  it('rejects the writes a failed sync covered with audit_write_failed', async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({ path, fileSystem });
    const started = sink.write(startedEvent('started')) as Promise<void>;
    const ended = sink.write(event('ended')) as Promise<void>;
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    syncs[0]?.fail(new Error('EIO: i/o error'));
    for (const write of [started, ended]) {
      await expect(write).rejects.toMatchObject({
        code: 'audit_write_failed',
        message: expect.stringContaining('EIO'),
      });
    }
  });

  it('rejects a write whose append fails with audit_write_failed, and keeps serving later writes', async () => {
    const path = join(dir, 'audit.jsonl');
    let full = true;
    const sink = createJsonlAuditSink({
      path,
      fileSystem: {
        ...nodeAuditFileSystem,
        write: (fd, data, offset) => {
          if (full)
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          return nodeAuditFileSystem.write(fd, data, offset);
        },
      },
    });
    await expect(sink.write(event('1'))).rejects.toMatchObject({
      code: 'audit_write_failed',
      message: expect.stringContaining('ENOSPC'),
    });
    full = false;
    await sink.write(event('2'));
    expect((await readLines(path)).map((line) => (JSON.parse(line) as AuditEvent).callId)).toEqual([
      '2',
    ]);
    await sink.close?.();
  });

  it("sync: 'batched' has each line in the file when write returns, resolves before any sync, and syncs them together after maxSyncDelayMs", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const path = join(dir, 'audit.jsonl');
      const { fileSystem, syncs } = heldSyncs(path);
      const sink = createJsonlAuditSink({ path, fileSystem, sync: 'batched', maxSyncDelayMs: 30 });
      const first = sink.write(event('1')) as Promise<void>;
      expect(await readLines(path)).toHaveLength(1);
      const second = sink.write(startedEvent('2')) as Promise<void>;
      expect(await readLines(path)).toHaveLength(2);
      expect(await settled(Promise.all([first, second]))).toBe(true);
      await vi.advanceTimersByTimeAsync(29);
      expect(syncs).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(syncs).toHaveLength(1));
      expect(syncs.map((sync) => sync.linesAtStart)).toEqual([2]);
      // A line written while that sync runs gets the next one.
      await sink.write(event('3'));
      syncs[0]?.release();
      await vi.advanceTimersByTimeAsync(30);
      await vi.waitFor(() => expect(syncs).toHaveLength(2));
      expect(syncs[1]?.linesAtStart).toBe(3);
      syncs[1]?.release();
      await sink.close?.();
    } finally {
      vi.useRealTimers();
    }
  });

  it("sync: 'batched' syncs what is left on flush and close", async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const sink = createJsonlAuditSink({
      path,
      fileSystem,
      sync: 'batched',
      maxSyncDelayMs: 60_000,
    });
    await sink.write(event('1'));
    const flushed = sink.flush?.() as Promise<void>;
    expect(syncs).toHaveLength(1);
    expect(await settled(flushed)).toBe(false);
    syncs[0]?.release();
    await flushed;
    await sink.write(event('2'));
    const closed = sink.close?.() as Promise<void>;
    expect(syncs).toHaveLength(2);
    syncs[1]?.release();
    await closed;
  });

  it("sync: 'batched' tells onSyncError of a failed background sync once, and goes on syncing", async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const failures: Error[] = [];
    const sink = createJsonlAuditSink({
      path,
      fileSystem,
      sync: 'batched',
      maxSyncDelayMs: 60_000,
      onSyncError: (error) => failures.push(error),
    });
    await sink.write(event('1'));
    await sink.write(event('2'));
    const flushed = sink.flush?.() as Promise<void>;
    syncs[0]?.fail(new Error('EIO: i/o error'));
    await flushed;
    expect(failures).toEqual([
      expect.objectContaining({
        code: 'audit_write_failed',
        message: expect.stringContaining('EIO'),
      }),
    ]);
    await sink.write(event('3'));
    const closed = sink.close?.() as Promise<void>;
    syncs[1]?.release();
    await closed;
    expect(failures).toHaveLength(1);
    expect(await readLines(path)).toHaveLength(3);
  });

  it('throws invalid_option for a sync that is not true, false, batched or auto', () => {
    expect(() =>
      createJsonlAuditSink({ path: join(dir, 'a.jsonl'), sync: 'always' as never }),
    ).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });

  it('throws invalid_option for a negative maxSyncDelayMs', () => {
    expect(() => createJsonlAuditSink({ path: join(dir, 'a.jsonl'), maxSyncDelayMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('throws invalid_option without a path', () => {
    expect(() => createJsonlAuditSink({ path: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => createJsonlAuditSink(undefined as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => createJsonlAuditSink({ path: 42 } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});
