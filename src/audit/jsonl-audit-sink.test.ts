import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { createJsonlAuditSink } from './jsonl-audit-sink.js';

const event = (callId: string): AuditEvent => ({
  type: 'call.succeeded',
  time: '2025-01-01T00:00:00.000Z',
  callId,
  tool: 'write_file',
  attempts: 1,
});

const readLines = async (path: string): Promise<string[]> =>
  (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');

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
