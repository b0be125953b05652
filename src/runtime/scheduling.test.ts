import { beforeEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../registry/index.js';
import { createFakeClock } from '../testing/index.js';
import { READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import {
  type Mark,
  scenarioTools,
  sleepyTool,
  startOrder,
  startTimes,
} from './scenario.test-helpers.js';
import type { ToolCall } from './tool-call.js';

/** The fake clock of the test under way: `beforeEach` makes a new one. */
let clock = createFakeClock();

const call = (id: string, name: string, path?: string, ms = 10): ToolCall => ({
  id,
  name,
  arguments: path === undefined ? { ms } : { path, ms },
});

describe('scheduling', () => {
  let marks: Mark[];
  beforeEach(() => {
    clock = createFakeClock();
    marks = [];
  });

  const run = async (
    calls: ToolCall[],
    runtime = createRuntime({ mode: 'yolo', tools: scenarioTools(marks, clock), clock: clock }),
  ) => {
    const done = runtime.execute(calls);
    await clock.runAll();
    return { results: await done, runtime };
  };

  it('runs [READ, READ, WRITE(a), WRITE(b), READ(a)] in three waves', async () => {
    const calls = [
      call('r1', 'read'),
      call('r2', 'read'),
      call('wa', 'write', 'a'),
      call('wb', 'write', 'b'),
      call('ra', 'read', 'a'),
    ];
    const runtime = createRuntime({
      mode: 'yolo',
      tools: scenarioTools(marks, clock),
      clock,
    });
    const plan = await runtime.plan(calls);
    expect(plan.map((entry) => [entry.id, entry.waitsFor])).toEqual([
      ['r1', []],
      ['r2', []],
      ['wa', ['r1', 'r2']],
      ['wb', ['r1', 'r2']],
      ['ra', ['wa']],
    ]);
    expect(plan.map((entry) => entry.class)).toEqual(['read', 'read', 'write', 'write', 'read']);
    expect(plan[2]?.locks).toEqual([
      { key: 'origin:local', mode: 'IX' },
      { key: 'file:', mode: 'IX' },
      { key: 'file:a', mode: 'X' },
    ]);
    const { results } = await run(calls, runtime);
    expect(startTimes(marks)).toEqual({ r1: 0, r2: 0, wa: 10, wb: 10, ra: 20 });
    expect(results.map((r) => r.id)).toEqual(['r1', 'r2', 'wa', 'wb', 'ra']);
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    expect(results[4]?.queuedMs).toBe(20);
  });

  it('runs [READ x5] of different latencies fully in parallel (sum -> max)', async () => {
    const calls = [30, 10, 50, 20, 40].map((ms, i) => call(`r${i}`, 'read', undefined, ms));
    await run(calls);
    expect(Object.values(startTimes(marks))).toEqual([0, 0, 0, 0, 0]);
    expect(Math.max(...marks.map((m) => m.at))).toBe(50);
  });

  it('runs [WRITE(a), WRITE(b), WRITE(c)] on distinct files in parallel', async () => {
    await run([call('a', 'write', 'a'), call('b', 'write', 'b'), call('c', 'write', 'c')]);
    expect(startTimes(marks)).toEqual({ a: 0, b: 0, c: 0 });
  });

  it('runs [WRITE(a), WRITE(a), READ(a)] one after another in call order', async () => {
    await run([call('w1', 'write', 'a', 5), call('w2', 'write', 'a', 5), call('r', 'read', 'a')]);
    expect(startTimes(marks)).toEqual({ w1: 0, w2: 5, r: 10 });
  });

  it('treats two spellings of one file as the same key: [WRITE(src/a), READ(./src/../src/a)]', async () => {
    await run([call('w', 'write', 'src/a'), call('r', 'read', './src/../src/a')]);
    expect(startTimes(marks)).toEqual({ w: 0, r: 10 });
  });

  it('orders [WRITE(dir src), READ(src/a.ts), READ(lib/b.ts)]: the read below the directory waits', async () => {
    await run([
      call('w', 'write', 'src'),
      call('ra', 'read', 'src/a.ts'),
      call('rb', 'read', 'lib/b.ts'),
    ]);
    expect(startTimes(marks)).toEqual({ w: 0, ra: 10, rb: 0 });
  });

  it('orders [READ(src/a.ts), WRITE(dir src)]: a directory write waits for a read inside it', async () => {
    await run([call('r', 'read', 'src/a.ts'), call('w', 'write', 'src')]);
    expect(startTimes(marks)).toEqual({ r: 0, w: 10 });
  });

  it('never lets a later call block an earlier one: [WRITE(a) slow, READ(b)]', async () => {
    await run([call('w', 'write', 'a', 100), call('r', 'read', 'b')]);
    expect(startTimes(marks)).toEqual({ w: 0, r: 0 });
  });

  it('serializes a key-less write against everything of its origin: [READ(a), WRITE, READ(b)]', async () => {
    await run([call('ra', 'read', 'a'), call('w', 'write'), call('rb', 'read', 'b')]);
    expect(startTimes(marks)).toEqual({ ra: 0, w: 10, rb: 20 });
  });

  it('orders [DESTROY(a), READ(a), READ(b)]: only the read of a waits', async () => {
    await run([call('d', 'destroy', 'a'), call('ra', 'read', 'a'), call('rb', 'read', 'b')]);
    expect(startTimes(marks)).toEqual({ d: 0, ra: 10, rb: 0 });
  });

  it('orders open-world writes of two origins through the world lock', async () => {
    const registry = createRegistry({ env: {} });
    const openWrite = { ...WRITE, openWorldHint: true };
    registry.addOrigin({
      name: 'mail',
      layer: 'project',
      tools: [sleepyTool('send_mail', openWrite, marks, clock)],
    });
    registry.addOrigin({
      name: 'chat',
      layer: 'project',
      tools: [sleepyTool('post_chat', openWrite, marks, clock)],
    });
    registry.addOrigin({
      name: 'local',
      layer: 'project',
      tools: [sleepyTool('write', WRITE, marks, clock)],
    });
    const runtime = createRuntime({ mode: 'yolo', registry, clock: clock });
    await run([call('m', 'send_mail'), call('c', 'post_chat'), call('w', 'write')], runtime);
    expect(startTimes(marks)).toEqual({ m: 0, c: 10, w: 0 });

    marks.length = 0;
    const t = clock.now();
    const unordered = createRuntime({
      mode: 'yolo',
      registry,
      clock,
      serializeOpenWorldWrites: false,
    });
    await run([call('m', 'send_mail'), call('c', 'post_chat')], unordered);
    expect(startTimes(marks)).toEqual({ m: t, c: t });
  });

  it('caps concurrency per origin: [READ x4] with concurrency 2 runs in two waves', async () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'api',
      layer: 'project',
      concurrency: 2,
      tools: [sleepyTool('read', READ_ONLY, marks, clock)],
    });
    const runtime = createRuntime({ mode: 'yolo', registry, clock: clock });
    await run(
      ['a', 'b', 'c', 'd'].map((id) => call(id, 'read')),
      runtime,
    );
    expect(startTimes(marks)).toEqual({ a: 0, b: 0, c: 10, d: 10 });
  });

  it('runs one call at a time for an untrusted origin and ignores its read-only claim', async () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'remote',
      layer: 'project',
      trusted: false,
      tools: [sleepyTool('read', READ_ONLY, marks, clock)],
    });
    const runtime = createRuntime({ mode: 'yolo', registry, clock: clock });
    const plan = await runtime.plan([call('a', 'read', 'x'), call('b', 'read', 'y')]);
    expect(plan.map((entry) => entry.class)).toEqual(['destructive', 'destructive']);
    await run([call('a', 'read', 'x'), call('b', 'read', 'y')], runtime);
    expect(startTimes(marks)).toEqual({ a: 0, b: 10 });
  });

  it('lets the runtime override an origin cap', async () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'api',
      layer: 'project',
      concurrency: 1,
      tools: [sleepyTool('read', READ_ONLY, marks, clock)],
    });
    const runtime = createRuntime({
      mode: 'yolo',
      registry,
      clock,
      concurrency: { api: 3 },
    });
    await run(
      ['a', 'b', 'c'].map((id) => call(id, 'read')),
      runtime,
    );
    expect(startTimes(marks)).toEqual({ a: 0, b: 0, c: 0 });
  });

  it('caps an origin named constructor by its own cap, not by an Object.prototype member', async () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'constructor',
      layer: 'project',
      concurrency: 2,
      tools: [sleepyTool('read', READ_ONLY, marks, clock)],
    });
    const runtime = createRuntime({
      mode: 'yolo',
      registry,
      clock,
      concurrency: { api: 3 },
    });
    const { results } = await run(
      ['a', 'b', 'c'].map((id) => call(id, 'read')),
      runtime,
    );
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok', 'ok']);
    expect(startTimes(marks)).toEqual({ a: 0, b: 0, c: 10 });
  });

  it('admits concurrent batches of one runtime in arrival order into the same locks', async () => {
    const runtime = createRuntime({
      mode: 'yolo',
      tools: scenarioTools(marks, clock),
      clock,
    });
    const first = runtime.execute([call('w', 'write', 'a', 30)]);
    await clock.advance(5);
    const second = runtime.execute([call('r', 'read', 'a'), call('rb', 'read', 'b')]);
    await clock.runAll();
    await Promise.all([first, second]);
    expect(startTimes(marks)).toEqual({ w: 0, r: 30, rb: 5 });
    expect(startOrder(marks)).toEqual(['w', 'rb', 'r']);
  });
});
