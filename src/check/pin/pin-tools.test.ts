import { describe, expect, it } from 'vitest';
import type { ToolListing } from '../../tool/tool.js';
import { comparePins } from './compare-pins.js';
import { definitionBodyHash, definitionHash } from './definition-hash.js';
import { emptyLockFile, formatLockFile, type LockFile, parseLockFile } from './lock-file.js';
import { pinTools } from './pin-tools.js';

const read: ToolListing = {
  name: 'read_file',
  description: 'Read a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  annotations: { readOnlyHint: true, openWorldHint: false },
};
const remove: ToolListing = {
  name: 'delete_file',
  title: 'Delete',
  description: 'Delete a file.',
  inputSchema: { type: 'object' },
  annotations: { title: 'Delete a file', destructiveHint: true },
};

const day1 = new Date('2025-01-01T00:00:00.000Z');
const day2 = new Date('2025-02-01T00:00:00.000Z');

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
};

describe('pinTools', () => {
  it('records hash, body hash, field digests, claimed annotations, the time and the definition', () => {
    const lock = pinTools(emptyLockFile(), { server: 'fs', listings: [read, remove], now: day1 });
    expect(lock.version).toBe(1);
    expect(lock.servers.fs?.tools.read_file).toEqual({
      hash: definitionHash(read),
      bodyHash: definitionBodyHash(read),
      fields: expect.objectContaining({ description: expect.stringMatching(/^sha256:/) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
      pinnedAt: '2025-01-01T00:00:00.000Z',
      definition: {
        description: 'Read a file.',
        inputSchema: read.inputSchema,
        annotations: read.annotations,
      },
    });
    expect(lock.servers.fs?.tools.delete_file?.annotations).toEqual({
      title: 'Delete a file',
      destructiveHint: true,
    });
  });

  it('keeps pinnedAt and the verdict of an unchanged tool, drops both for a changed one', () => {
    const first = pinTools(emptyLockFile(), {
      server: 'fs',
      listings: [read, remove],
      now: day1,
      verdicts: { read_file: 'verified', delete_file: 'inconclusive' },
    });
    const changed = { ...remove, description: 'Delete a file or a directory.' };
    const second = pinTools(first, { server: 'fs', listings: [read, changed], now: day2 });
    expect(second.servers.fs?.tools.read_file).toEqual(first.servers.fs?.tools.read_file);
    expect(second.servers.fs?.tools.read_file?.verdict).toBe('verified');
    const pinned = second.servers.fs?.tools.delete_file;
    expect(pinned?.pinnedAt).toBe('2025-02-01T00:00:00.000Z');
    expect(pinned?.verdict).toBeUndefined();
    expect(pinned?.hash).toBe(definitionHash(changed));
  });

  it('records a new verdict over an old one', () => {
    const first = pinTools(emptyLockFile(), {
      server: 'fs',
      listings: [read],
      now: day1,
      verdicts: { read_file: 'verified' },
    });
    const second = pinTools(first, {
      server: 'fs',
      listings: [read],
      verdicts: { read_file: 'violation' },
    });
    expect(second.servers.fs?.tools.read_file?.verdict).toBe('violation');
    expect(second.servers.fs?.tools.read_file?.pinnedAt).toBe(day1.toISOString());
  });

  it('replaces the server pins with the listed tools, unless keepUnlisted', () => {
    const first = pinTools(emptyLockFile(), { server: 'fs', listings: [read, remove], now: day1 });
    const replaced = pinTools(first, { server: 'fs', listings: [read], now: day2 });
    expect(Object.keys(replaced.servers.fs?.tools ?? {})).toEqual(['read_file']);
    const kept = pinTools(replaced, {
      server: 'fs',
      listings: [remove],
      now: day2,
      keepUnlisted: true,
    });
    expect(Object.keys(kept.servers.fs?.tools ?? {}).sort()).toEqual(['delete_file', 'read_file']);
  });

  it('leaves other servers and the given lock as they are', () => {
    const start: LockFile = deepFreeze(
      pinTools(emptyLockFile(), { server: 'git', listings: [read], now: day1 }),
    );
    const next = pinTools(start, { server: 'fs', listings: [remove], now: day2 });
    expect(next.servers.git).toBe(start.servers.git);
    expect(Object.keys(start.servers)).toEqual(['git']);
    expect(pinTools(start, { server: 'fs', listings: [], now: day2 }).servers.fs).toEqual({
      tools: {},
    });
  });

  it('rejects duplicate names, verdicts of unlisted tools and an empty server name', () => {
    const lock = emptyLockFile();
    expect(() => pinTools(lock, { server: 'fs', listings: [read, read] })).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: expect.stringMatching(/twice/) }),
    );
    expect(() =>
      pinTools(lock, { server: 'fs', listings: [read], verdicts: { nope: 'verified' } }),
    ).toThrow(/nope/);
    expect(() => pinTools(lock, { server: '', listings: [read] })).toThrow(/server/);
  });
});

describe('pins of tools and servers named like Object.prototype members', () => {
  const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];
  const listings: ToolListing[] = NAMES.map((name) => ({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object' },
  }));

  it('pins, formats, parses and compares them as tools like any other', () => {
    let lock = emptyLockFile();
    for (const server of ['constructor', '__proto__', 'plain']) {
      lock = pinTools(lock, {
        server,
        listings,
        now: day1,
        verdicts: { valueOf: 'verified' as const },
      });
    }
    const read = parseLockFile(formatLockFile(lock), 'hintgate.lock');
    expect(Object.keys(read.servers).sort()).toEqual(['__proto__', 'constructor', 'plain']);
    for (const server of Object.keys(read.servers)) {
      expect(Object.keys(read.servers[server]?.tools ?? {}).sort()).toEqual([...NAMES].sort());
      const report = comparePins(read, { server, listings });
      expect(report.tools.map((state) => [state.tool, state.status])).toEqual(
        [...NAMES].sort().map((name) => [name, 'pinned']),
      );
      expect(report.findings).toEqual([]);
      expect(report.tools.find((state) => state.tool === 'valueOf')?.verdict).toBe('verified');
    }
    // Pinning again keeps pinnedAt of every tool, so the file does not change.
    const again = pinTools(read, { server: 'plain', listings, now: day2 });
    expect(formatLockFile(again)).toBe(formatLockFile(lock));
  });

  it('does not take a tool of those names as pinned when it is not', () => {
    const lock = pinTools(emptyLockFile(), { server: 'fs', listings: [read], now: day1 });
    const report = comparePins(lock, { server: 'fs', listings: [read, ...listings] });
    expect(
      report.tools.filter((state) => state.status === 'new').map((state) => state.tool),
    ).toEqual([...NAMES].sort());
    // A server named like a prototype member has no pins until it is pinned.
    expect(
      comparePins(lock, { server: 'constructor', listings }).tools.map((s) => s.status),
    ).toEqual(NAMES.map(() => 'new'));
  });
});
