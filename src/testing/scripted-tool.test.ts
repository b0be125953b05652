import { describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/index.js';
import { READ_ONLY, WRITE } from '../tool/index.js';
import { createFakeClock } from './create-fake-clock.js';
import { scriptedTool } from './scripted-tool.js';

const inputSchema = { type: 'object' as const, properties: { path: { type: 'string' } } };

describe('scriptedTool', () => {
  it('runs [READ(a), READ(b), WRITE(a)] as two waves on the fake clock, answering as scripted', async () => {
    const clock = createFakeClock();
    const read = scriptedTool({
      name: 'read',
      annotations: READ_ONLY,
      inputSchema,
      resources: ['file:{path}'],
      steps: [
        { result: 'first', delayMs: 10 },
        { result: 'second', delayMs: 30 },
      ],
      clock,
    });
    const write = scriptedTool({
      name: 'write',
      annotations: WRITE,
      inputSchema,
      resources: ['file:{path}'],
      steps: [{ error: 'disk full', delayMs: 5 }],
      clock,
    });
    const runtime = createRuntime({ tools: [read.tool, write.tool], mode: 'yolo', clock });
    const done = runtime.execute([
      { id: 'r1', name: 'read', arguments: { path: 'a' } },
      { id: 'r2', name: 'read', arguments: { path: 'b' } },
      { id: 'w1', name: 'write', arguments: { path: 'a' } },
    ]);
    await clock.advance(0);
    expect(read.running()).toEqual(['r1', 'r2']);
    expect(write.calls).toEqual([]);
    await clock.advance(100);
    const results = await done;
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok', 'error']);
    expect(read.calls.map((call) => [call.callId, call.startedAt, call.endedAt])).toEqual([
      ['r1', 0, 10],
      ['r2', 0, 30],
    ]);
    // The write of `a` waits for the read of `a` only.
    expect(write.calls[0]).toMatchObject({ callId: 'w1', startedAt: 10, outcome: 'threw' });
    expect(JSON.stringify(results[2])).toContain('disk full');
    await runtime.close();
  });

  it('refuses an empty script with what to give', () => {
    expect(() => scriptedTool({ name: 'x', steps: [] })).toThrow(/non-empty list/);
  });
});
