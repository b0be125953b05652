import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HintgateError } from '../errors/hintgate-error.js';
import type { AuditEvent } from './audit-event.js';
import { type AuditFileSystem, nodeAuditFileSystem } from './audit-file-system.js';
import { createJsonlAuditSink } from './jsonl-audit-sink.js';
import { event, startedEvent } from './jsonl-audit-sink.test-helpers.js';

const DAY_MS = 86_400_000;

/** The files of the log at `path`, oldest first: `PATH.N`, ..., `PATH.1`, `PATH`. */
const filesOf = (path: string): string[] => {
  const rotated: string[] = [];
  for (let index = 1; existsSync(`${path}.${index}`); index += 1) rotated.push(`${path}.${index}`);
  return [...rotated.reverse(), ...(existsSync(path) ? [path] : [])];
};

/** The events of one file; fails unless it holds whole JSON lines only. */
const eventsIn = (file: string): AuditEvent[] => {
  const text = readFileSync(file, 'utf8');
  if (text === '') return [];
  expect(text.endsWith('\n'), `${file} ends with a whole line`).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEvent);
};

describe('createJsonlAuditSink with rotate', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-jsonl-rotate-'));
    path = join(dir, 'audit.jsonl');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts a new file before a line that would pass maxBytes: every file whole lines within the limit, no event lost or repeated', async () => {
    const sink = createJsonlAuditSink({ path, rotate: { maxBytes: 1024, keep: 100 } });
    const ids = Array.from({ length: 60 }, (_, index) => String(index));
    for (const id of ids) await sink.write(event(id));
    await sink.close?.();
    const files = filesOf(path);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      expect(statSync(file).size).toBeLessThanOrEqual(1024);
      expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    }
    expect(files.flatMap(eventsIn).map((e) => e.callId)).toEqual(ids);
  });

  it('splits a group of lines written in one turn between files at line boundaries', async () => {
    const sink = createJsonlAuditSink({ path, rotate: { maxBytes: 2048, keep: 100 } });
    const ids = Array.from({ length: 200 }, (_, index) => String(index));
    // 200 lines appended together in one write without rotation; here spread over files.
    await Promise.all(ids.map((id) => sink.write(event(id))));
    await sink.close?.();
    const files = filesOf(path);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(statSync(file).size).toBeLessThanOrEqual(2048);
    expect(files.flatMap(eventsIn).map((e) => e.callId)).toEqual(ids);
  });

  it('gives a line larger than maxBytes a file of its own', async () => {
    const sink = createJsonlAuditSink({ path, rotate: { maxBytes: 1024 } });
    const big: AuditEvent = { ...event('big'), message: 'x'.repeat(3000) };
    await sink.write(event('before'));
    await sink.write(big);
    await sink.write(event('after'));
    await sink.close?.();
    expect(filesOf(path).map((file) => eventsIn(file).map((e) => e.callId))).toEqual([
      ['before'],
      ['big'],
      ['after'],
    ]);
  });

  it('keeps `keep` rotated files, the newest as PATH.1, and drops older ones', async () => {
    const sink = createJsonlAuditSink({ path, rotate: { maxBytes: 1024, keep: 2 } });
    const ids = Array.from({ length: 40 }, (_, index) => String(index));
    for (const id of ids) await sink.write(event(id));
    await sink.close?.();
    expect(readdirSync(dir).sort()).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    const kept = filesOf(path)
      .flatMap(eventsIn)
      .map((e) => e.callId);
    // What is kept is the end of the log, in order.
    expect(kept).toEqual(ids.slice(ids.length - kept.length));
    expect(kept.at(-1)).toBe('39');
  });

  it('with daily, starts a new file at the first append of a new UTC day', async () => {
    let now = Date.UTC(2026, 0, 1, 23, 59, 0);
    const sink = createJsonlAuditSink({ path, rotate: { daily: true }, now: () => now });
    await sink.write(event('day1-a'));
    await sink.write(event('day1-b'));
    now = Date.UTC(2026, 0, 2, 0, 0, 1);
    await sink.write(event('day2'));
    now += DAY_MS * 3;
    await sink.write(event('day5'));
    await sink.close?.();
    expect(filesOf(path).map((file) => eventsIn(file).map((e) => e.callId))).toEqual([
      ['day1-a', 'day1-b'],
      ['day2'],
      ['day5'],
    ]);
  });

  it('with daily, rotates a file left from an earlier day (by its last change) at the first append', async () => {
    await writeFile(path, `${JSON.stringify(event('old'))}\n`);
    const yesterday = new Date(Date.now() - DAY_MS);
    utimesSync(path, yesterday, yesterday);
    const sink = createJsonlAuditSink({ path, rotate: { daily: true } });
    await sink.write(event('today'));
    await sink.close?.();
    expect(filesOf(path).map((file) => eventsIn(file).map((e) => e.callId))).toEqual([
      ['old'],
      ['today'],
    ]);
  });

  it('counts the bytes of a file it appends to from its size', async () => {
    await writeFile(path, `${JSON.stringify({ old: 'x'.repeat(960) })}\n`);
    const sink = createJsonlAuditSink({ path, rotate: { maxBytes: 1024 } });
    await sink.write(event('new'));
    await sink.close?.();
    expect(readFileSync(`${path}.1`, 'utf8')).toContain('"old"');
    expect(eventsIn(path).map((e) => e.callId)).toEqual(['new']);
  });

  it('syncs the rotated file and the directory before it reports a line of the new file written, then closes the old file', async () => {
    const operations: string[] = [];
    const names = new Map<number, string>();
    let opened = 0;
    const fileSystem: AuditFileSystem = {
      ...nodeAuditFileSystem,
      open: (file, mode) => {
        const fd = nodeAuditFileSystem.open(file, mode);
        opened += 1;
        names.set(fd, `file${opened}`);
        return fd;
      },
      datasync: async (fd) => {
        operations.push(`datasync ${names.get(fd)}`);
        await nodeAuditFileSystem.datasync(fd);
      },
      syncDirectory: async () => {
        operations.push('sync directory');
      },
      close: (fd) => {
        operations.push(`close ${names.get(fd)}`);
        nodeAuditFileSystem.close(fd);
      },
      rename: (from, to) => {
        operations.push('rename');
        nodeAuditFileSystem.rename(from, to);
      },
    };
    const sink = createJsonlAuditSink({ path, fileSystem, rotate: { maxBytes: 1024 } });
    const big = (id: string): AuditEvent => ({ ...event(id), message: 'x'.repeat(600) });
    await sink.write(big('1'));
    operations.length = 0;
    // A call's start goes to the old file, its end to the new one.
    const start = sink.write(startedEvent('2'));
    const end = sink.write(big('2'));
    await Promise.all([start, end]);
    expect(operations).toEqual([
      'rename',
      'datasync file1',
      'datasync file2',
      'sync directory',
      'close file1',
    ]);
    await sink.close?.();
    expect(filesOf(path).map((file) => eventsIn(file).map((e) => e.type))).toEqual([
      ['call.succeeded', 'call.started'],
      ['call.succeeded'],
    ]);
  });

  it('without sync, closes a rotated file at once', async () => {
    const closed: number[] = [];
    const sink = createJsonlAuditSink({
      path,
      sync: false,
      fileSystem: {
        ...nodeAuditFileSystem,
        close: (fd) => {
          closed.push(fd);
          nodeAuditFileSystem.close(fd);
        },
      },
      rotate: { maxBytes: 1024, keep: 100 },
    });
    for (let index = 0; index < 30; index += 1) await sink.write(event(String(index)));
    const rotations = filesOf(path).length - 1;
    expect(rotations).toBeGreaterThan(1);
    expect(closed).toHaveLength(rotations);
    await sink.close?.();
    expect(closed).toHaveLength(rotations + 1);
  });

  it('reports a rotation that fails and goes on appending to the current file, losing nothing', async () => {
    const errors: HintgateError[] = [];
    const sink = createJsonlAuditSink({
      path,
      fileSystem: {
        ...nodeAuditFileSystem,
        rename: () => {
          throw new Error('EACCES: permission denied');
        },
      },
      rotate: { maxBytes: 1024 },
      onRotateError: (error) => errors.push(error),
    });
    const ids = Array.from({ length: 12 }, (_, index) => String(index));
    for (const id of ids) await sink.write(event(id));
    await sink.close?.();
    expect(errors.length).toBeGreaterThan(0);
    // Retried after another maxBytes, not before every line.
    expect(errors.length).toBeLessThan(ids.length / 2);
    expect(errors[0]).toMatchObject({
      code: 'audit_write_failed',
      message: expect.stringMatching(/Could not rotate the audit log .*EACCES/),
    });
    expect(filesOf(path)).toEqual([path]);
    expect(eventsIn(path).map((e) => e.callId)).toEqual(ids);
  });

  it.each([
    [{}, /needs maxBytes, daily: true, or both/],
    [{ maxBytes: 10 }, /maxBytes must be a whole number of bytes, at least 1024, not 10/],
    [{ maxBytes: '1MB' }, /maxBytes must be a whole number of bytes/],
    [{ daily: 'yes' }, /daily must be true or false/],
    [{ maxBytes: 4096, keep: 0 }, /keep must be a whole number from 1 to 1000, not 0/],
    [{ maxBytes: 4096, kept: 3 }, /kept is not an option; use maxBytes, daily and keep/],
    ['daily', /rotate must be an object/],
  ])('throws invalid_option for rotate %j', (rotate, message) => {
    expect(() =>
      createJsonlAuditSink({ path, rotate: rotate as unknown as { daily: boolean } }),
    ).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: expect.stringMatching(message) }),
    );
  });
});
