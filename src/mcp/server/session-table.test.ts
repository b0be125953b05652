import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionTable, type TableSession } from './session-table.js';

const LIMITS = {
  maxSessions: 3,
  maxSessionsPerClient: 2,
  sessionIdleMs: 60_000,
  uninitializedSessionMs: 10_000,
};

afterEach(() => {
  vi.useRealTimers();
});

const tableOf = (limits = LIMITS) => {
  const closed: string[] = [];
  const table = new SessionTable<TableSession & { id: string }>(limits, { onError: () => {} });
  const open = (id: string, client: string) => {
    const place = table.reserve(client);
    if (place === undefined) throw new Error('no place');
    table.add(id, {
      id,
      client,
      lastActive: 0,
      lastUse: 0,
      used: false,
      close: async () => {
        closed.push(id);
      },
    });
    place.release();
  };
  const use = (id: string) => {
    const session = table.get(id);
    if (session !== undefined) table.touch(session);
  };
  return { table, open, use, closed };
};

describe('SessionTable', () => {
  it('runs [a(x), b(x), c(y), d(z)] into a table of 3: x, the client with most, gives way', () => {
    const { open, use, closed } = tableOf();
    open('a', 'x');
    open('b', 'x');
    open('c', 'y');
    for (const id of ['b', 'a', 'c']) use(id);
    open('d', 'z');
    expect(closed).toEqual(['b']);
  });

  it('closes a session that is not used within uninitializedSessionMs, and keeps a used one', async () => {
    vi.useFakeTimers();
    const { table, open, use, closed } = tableOf();
    open('a', 'x');
    open('b', 'y');
    use('b');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toEqual(['a']);
    expect(table.size).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(table.get('b')).toBeDefined();
  });

  it('fits sessions opened at the same time into the limits once they are added', () => {
    const { table } = tableOf();
    const places = ['x', 'x', 'x', 'x'].map((client) => table.reserve(client));
    expect(places.filter((p) => p === undefined)).toHaveLength(1);
    for (const [i, id] of ['a', 'b', 'c'].entries()) {
      table.add(id, {
        id,
        client: 'x',
        lastActive: 0,
        lastUse: 0,
        used: false,
        close: async () => {},
      });
      places[i]?.release();
    }
    expect(table.size).toBe(2);
    expect(table.get('c')).toBeDefined();
  });
});
