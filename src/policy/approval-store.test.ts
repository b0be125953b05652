import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeScriptArgs } from '../testing/index.js';
import { createApprovalStore } from './approval-store.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-approvals-'));
  file = join(dir, 'approvals.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fixedClock = (iso: string) => () => new Date(iso);

/** Writers in their own processes, run from the test run's build (see `nodeScriptArgs`). */
const WRITER = fileURLToPath(new URL('./fixtures/approval-writer.ts', import.meta.url));
const STALLED_WRITER = fileURLToPath(
  new URL('./fixtures/stalled-approval-writer.ts', import.meta.url),
);

describe('createApprovalStore', () => {
  it('round-trips approvals through a sorted, versioned JSON file', async () => {
    const store = createApprovalStore({
      path: file,
      clock: fixedClock('2025-01-02T03:04:05.000Z'),
    });
    await store.add('write_file', ['file:b', 'file:a'], 'chosen in the terminal');
    await store.add('bash', ['git status']);

    expect(await store.has('write_file', 'file:a')).toBe(true);
    expect(await store.has('write_file', 'file:c')).toBe(false);
    expect(await store.has('bash', 'file:a')).toBe(false);
    expect(await store.hasAll('write_file', ['file:a', 'file:b'])).toBe(true);
    expect(await store.hasAll('write_file', ['file:a', 'file:c'])).toBe(false);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      approvals: [
        { tool: 'bash', key: 'git status', grantedAt: '2025-01-02T03:04:05.000Z' },
        {
          tool: 'write_file',
          key: 'file:a',
          grantedAt: '2025-01-02T03:04:05.000Z',
          reason: 'chosen in the terminal',
        },
        {
          tool: 'write_file',
          key: 'file:b',
          grantedAt: '2025-01-02T03:04:05.000Z',
          reason: 'chosen in the terminal',
        },
      ],
    });
    expect(await store.list()).toHaveLength(3);
  });

  it('never approves an empty key list', async () => {
    const store = createApprovalStore({ path: file });
    await store.add('bash', ['*']);
    expect(await store.hasAll('bash', [])).toBe(false);
  });

  it('keeps the first grant of a pair added twice', async () => {
    let now = '2025-01-01T00:00:00.000Z';
    const store = createApprovalStore({ path: file, clock: () => new Date(now) });
    await store.add('bash', ['ls', 'ls']);
    now = '2025-06-01T00:00:00.000Z';
    await store.add('bash', ['ls', 'pwd']);
    expect(await store.list()).toEqual([
      { tool: 'bash', key: 'ls', grantedAt: '2025-01-01T00:00:00.000Z' },
      { tool: 'bash', key: 'pwd', grantedAt: '2025-06-01T00:00:00.000Z' },
    ]);
  });

  it('writes the file with mode 0600, creating its directory, and leaves no lock or temp file', async () => {
    const nested = join(dir, 'project', '.hintgate', 'approvals.json');
    const store = createApprovalStore({ path: nested });
    await store.add('bash', ['ls']);
    if (process.platform !== 'win32') expect((await stat(nested)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, 'project', '.hintgate'))).toEqual(['approvals.json']);
  });

  it('honours approvals written earlier, by a new store on the same file', async () => {
    await createApprovalStore({ path: file }).add('delete_file', ['file:/tmp/x']);
    const later = createApprovalStore({ path: file });
    expect(await later.has('delete_file', 'file:/tmp/x')).toBe(true);
  });

  it('re-reads the file when another store changed it after it was read', async () => {
    const reader = createApprovalStore({ path: file });
    const writer = createApprovalStore({ path: file });
    expect(await reader.has('bash', 'ls')).toBe(false);
    await writer.add('bash', ['ls']);
    expect(await reader.has('bash', 'ls')).toBe(true);
    await writer.add('bash', ['pwd']);
    expect(await reader.hasAll('bash', ['ls', 'pwd'])).toBe(true);
  });

  it('treats a missing file as no approvals and does not create it on reads', async () => {
    const store = createApprovalStore({ path: file });
    expect(await store.has('bash', 'ls')).toBe(false);
    expect(await store.list()).toEqual([]);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([
    ['not JSON', '{"version": 1, "approvals": [', /not valid JSON/],
    ['another version', '{"version": 2, "approvals": []}', /version 2/],
    ['no approvals array', '{"version": 1}', /"approvals" array/],
    ['an entry without a key', '{"version":1,"approvals":[{"tool":"a","grantedAt":"x"}]}', /key/],
    [
      'a non-string reason',
      '{"version":1,"approvals":[{"tool":"a","key":"k","grantedAt":"x","reason":1}]}',
      /reason/,
    ],
  ])('rejects a file with %s and leaves it untouched', async (_, content, problem) => {
    await writeFile(file, content);
    const store = createApprovalStore({ path: file });
    const expected = { name: 'HintgateError', code: 'invalid_approvals_file' };
    await expect(store.has('a', 'k')).rejects.toMatchObject(expected);
    await expect(store.list()).rejects.toThrow(problem);
    await expect(store.add('a', ['k'])).rejects.toMatchObject(expected);
    await expect(store.add('a', ['k'])).rejects.toThrow(file);
    expect(await readFile(file, 'utf8')).toBe(content);
    expect(await readdir(dir)).toEqual(['approvals.json']);
  });

  it('breaks a lock older than staleLockMs', async () => {
    const lock = `${file}.lock`;
    await writeFile(lock, JSON.stringify({ pid: 999_999, token: 'dead' }));
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const store = createApprovalStore({ path: file, staleLockMs: 10_000, lockTimeoutMs: 1000 });
    await store.add('bash', ['ls']);
    expect(await store.has('bash', 'ls')).toBe(true);
    expect(await readdir(dir)).toEqual(['approvals.json']);
  });

  it('times out on a held lock, naming the lock file, and writes nothing', async () => {
    const lock = `${file}.lock`;
    await writeFile(lock, JSON.stringify({ pid: process.pid, token: 'alive' }));
    const store = createApprovalStore({ path: file, lockTimeoutMs: 150 });
    const started = Date.now();
    const failure = store.add('bash', ['ls']);
    await expect(failure).rejects.toMatchObject({ code: 'approvals_locked' });
    await expect(failure).rejects.toThrow(`remove ${lock}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(await readdir(dir)).toEqual(['approvals.json.lock']);
  });

  it('loses no update when two stores add in parallel in one process', async () => {
    const a = createApprovalStore({ path: file });
    const b = createApprovalStore({ path: file });
    const keys = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    await Promise.all(keys.flatMap((key) => [a.add('from_a', [key]), b.add('from_b', [key])]));
    const fresh = createApprovalStore({ path: file });
    expect(await fresh.hasAll('from_a', keys)).toBe(true);
    expect(await fresh.hasAll('from_b', keys)).toBe(true);
    expect(await fresh.list()).toHaveLength(60);
    expect(await readdir(dir)).toEqual(['approvals.json']);
  });

  it('loses no update when four processes add 25 approvals each at once', async () => {
    const workers = [0, 1, 2, 3];
    const children: ChildProcess[] = workers.map((worker) =>
      spawn(process.execPath, [...nodeScriptArgs(WRITER), file, String(worker)], {
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    const stderr = children.map(() => ({ text: '' }));
    const exits = children.map(
      (child, i) =>
        new Promise<number | null>((resolve) => {
          child.stderr?.on('data', (chunk: Buffer) => {
            (stderr[i] as { text: string }).text += chunk.toString();
          });
          child.on('exit', resolve);
        }),
    );
    // Release all writers together once each has loaded, so that their adds overlap.
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve, reject) => {
            child.stdout?.once('data', () => resolve());
            child.once('exit', () => reject(new Error('writer exited before it was ready')));
          }),
      ),
    );
    for (const child of children) child.stdin?.write('go\n');
    const codes = await Promise.all(exits);
    expect(codes, stderr.map((s) => s.text).join('\n')).toEqual([0, 0, 0, 0]);

    const store = createApprovalStore({ path: file });
    const records = await store.list();
    expect(records).toHaveLength(100);
    for (const worker of workers) {
      const keys = Array.from({ length: 25 }, (_, i) => `key-${i}`);
      expect(await store.hasAll(`tool_${worker}`, keys)).toBe(true);
    }
    expect(await readdir(dir)).toEqual(['approvals.json']);
  });

  it('keeps both entries when a writer stalls under the lock past its stale time', async () => {
    // The stalled writer is a real process whose whole event loop freezes right after it
    // read the file under the lock (its clock is asked then): no heartbeat keeps the lock
    // fresh, so the other writer breaks it as abandoned, adds its entry and leaves. When
    // the stalled writer wakes, it must not replace the file with what it read before.
    const child = spawn(process.execPath, [...nodeScriptArgs(STALLED_WRITER), file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('stalled')) resolve();
      });
      child.once('exit', () => reject(new Error(`the writer exited first: ${stderr}`)));
    });
    // The stalled writer holds the lock; this one waits for it to go stale and breaks it.
    const other = createApprovalStore({ path: file, staleLockMs: 200, lockTimeoutMs: 15000 });
    await other.add('other_tool', ['key-b'], 'other writer');
    expect(await other.has('other_tool', 'key-b')).toBe(true);
    expect(await exited, stderr).toBe(0);
    expect(stdout).toContain('done');

    const fresh = createApprovalStore({ path: file });
    expect(await fresh.has('stalled_tool', 'key-a')).toBe(true);
    expect(await fresh.has('other_tool', 'key-b')).toBe(true);
    expect(await readdir(dir)).toEqual(['approvals.json']);
  });

  it.runIf(process.platform !== 'win32')(
    'refuses an approvals file that is a FIFO or a directory without hanging, in words',
    async () => {
      execFileSync('mkfifo', [file]);
      const store = createApprovalStore({ path: file });
      await expect(store.has('bash', 'ls')).rejects.toMatchObject({
        code: 'invalid_approvals_file',
        message: expect.stringContaining('a FIFO (named pipe), not a regular file'),
      });
      await rm(file);
      await mkdir(file);
      await expect(store.list()).rejects.toMatchObject({
        code: 'invalid_approvals_file',
        message: expect.stringContaining('it is a directory'),
      });
    },
    10_000,
  );

  it('rejects bad options and arguments with invalid_option', async () => {
    expect(() => createApprovalStore({ path: '' })).toThrow(/needs \{ path \}/);
    expect(() => createApprovalStore({ path: file, lockTimeoutMs: -1 })).toThrow(/lockTimeoutMs/);
    const store = createApprovalStore({ path: file });
    await expect(store.add('', ['k'])).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(store.add('bash', [''])).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
