import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import { fakeClock, type Mark, sleepyTool, useFakeTime } from './scenario.test-helpers.js';

type Kind = 'read' | 'write' | 'destroy' | 'netwrite';
interface Spec {
  readonly kind: Kind;
  readonly path: string | undefined;
  readonly ms: number;
}

const KEYS = ['d', 'd/x', 'd/y', 'd/x/z', 'e'] as const;
const specArb: fc.Arbitrary<Spec> = fc.record({
  kind: fc.constantFrom<Kind>('read', 'read', 'write', 'destroy', 'netwrite'),
  path: fc.option(fc.constantFrom(...KEYS), { nil: undefined, freq: 3 }),
  ms: fc.integer({ min: 1, max: 50 }),
});

const isWrite = (spec: Spec): boolean => spec.kind !== 'read';
const within = (a: string, b: string): boolean =>
  a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);

/**
 * Conflicts straight from DESIGN's lock table, without the lock manager: a key-less read
 * holds S on the origin, a key-less write X; a keyed call holds IS/IX on the origin and
 * S/X on its key (and intention locks on the key's ancestors); open-world writes share X on
 * `world`.
 */
const conflicts = (a: Spec, b: Spec): boolean => {
  if (a.kind === 'netwrite' && b.kind === 'netwrite') return true;
  if (!isWrite(a) && !isWrite(b)) return false;
  if (a.path === undefined || b.path === undefined) return true;
  return within(a.path, b.path);
};

describe('scheduling properties (fake time)', () => {
  beforeEach(() => useFakeTime());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps conflicting calls apart and in call order, results in call order, wall clock = critical path', async () => {
    const marks: Mark[] = [];
    const netWrite = { ...WRITE, openWorldHint: true };
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [
        sleepyTool('read', READ_ONLY, marks),
        sleepyTool('write', WRITE, marks),
        sleepyTool('destroy', DESTRUCTIVE, marks),
        sleepyTool('netwrite', netWrite, marks),
      ],
      clock: fakeClock,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 14 }), async (specs) => {
        marks.length = 0;
        const t0 = Date.now();
        const calls = specs.map((spec, index) => ({
          id: `c${index}`,
          name: spec.kind,
          arguments: spec.path === undefined ? { ms: spec.ms } : { path: spec.path, ms: spec.ms },
        }));

        // The critical path, computed independently of the scheduler.
        const expectedStart: number[] = [];
        const expectedEnd: number[] = [];
        const expectedWaits: string[][] = [];
        specs.forEach((spec, j) => {
          let start = 0;
          const waits: string[] = [];
          for (let i = 0; i < j; i += 1) {
            if (conflicts(specs[i] as Spec, spec)) {
              start = Math.max(start, expectedEnd[i] as number);
              waits.push(`c${i}`);
            }
          }
          expectedStart.push(start);
          expectedEnd.push(start + spec.ms);
          expectedWaits.push(waits);
        });

        const plan = await runtime.plan(calls);
        expect(plan.map((entry) => [...entry.waitsFor].sort())).toEqual(
          expectedWaits.map((w) => w.sort()),
        );

        const done = runtime.execute(calls);
        await vi.runAllTimersAsync();
        const results = await done;

        expect(results.map((r) => r.id)).toEqual(calls.map((c) => c.id));
        expect(results.every((r) => r.status === 'ok')).toBe(true);
        const start = new Map(
          marks.filter((m) => m.phase === 'start').map((m) => [m.id, m.at - t0]),
        );
        const end = new Map(marks.filter((m) => m.phase === 'end').map((m) => [m.id, m.at - t0]));
        specs.forEach((spec, j) => {
          for (let i = 0; i < j; i += 1) {
            if (!conflicts(specs[i] as Spec, spec)) continue;
            // Never overlap, and the earlier call starts (and ends) first.
            expect(end.get(`c${i}`)).toBeLessThanOrEqual(start.get(`c${j}`) as number);
          }
        });
        expect(calls.map((c) => start.get(c.id))).toEqual(expectedStart);
        expect(Math.max(...end.values())).toBe(Math.max(...expectedEnd));
      }),
      { numRuns: 150 },
    );
  });
});
