import { describe, expect, it } from 'vitest';
import type { ToolListing } from '../../tool/tool.js';
import { formatLockFile } from './lock-file.js';
import { emptyLockFile, parseLockFile, parseLockFileInTurns } from './lock-file-data.js';
import { pinTools } from './pin-tools.js';

const listing = (name: string): ToolListing => ({
  name,
  description: `Reads ${name}.`,
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  annotations: { readOnlyHint: true },
});

/** The text of a lock pinning `count` tools of one server. */
const lockText = (count: number): string => {
  const listings = Array.from({ length: count }, (_, n) => listing(`tool_${n}`));
  const now = new Date('2026-01-02T03:04:05.000Z');
  return formatLockFile(pinTools(emptyLockFile(), { server: 'big', listings, now }));
};

describe('parseLockFileInTurns', () => {
  it('gives what parseLockFile gives, letting other work run between slices of pins', async () => {
    const text = lockText(1500);
    let turns = 0;
    let counting = true;
    const count = (): void => {
      if (!counting) return;
      turns += 1;
      setImmediate(count);
    };
    setImmediate(count);
    const lock = await parseLockFileInTurns(text, 'hintgate.lock');
    counting = false;
    expect(lock).toEqual(parseLockFile(text, 'hintgate.lock'));
    expect(Object.keys(lock.servers.big?.tools ?? {})).toHaveLength(1500);
    // 1,500 pins are checked in three slices: other work ran in between.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('rejects a bad pin as parseLockFile throws, naming the pin', async () => {
    const data = JSON.parse(lockText(700)) as {
      servers: { big: { tools: Record<string, { pinnedAt: unknown }> } };
    };
    (data.servers.big.tools.tool_600 as { pinnedAt: unknown }).pinnedAt = 5;
    const text = JSON.stringify(data);
    const expected = (() => {
      try {
        parseLockFile(text, 'hintgate.lock');
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    })();
    expect(expected).toContain('tool_600');
    await expect(parseLockFileInTurns(text, 'hintgate.lock')).rejects.toThrow(expected);
  });
});
