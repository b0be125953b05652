import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Approver } from '../policy/policy-types.js';
import { createFakeClock } from '../testing/index.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import type { CallResult } from '../tool/tool-result.js';
import { createRuntime } from './create-runtime.js';
import { type Mark, sleepyTool } from './scenario.test-helpers.js';
import type { ToolCall } from './tool-call.js';

/** The fake clock of the test under way: `beforeEach` makes a new one. */
let clock = createFakeClock();

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
  beforeEach(() => {
    clock = createFakeClock();
  });

  it('keeps conflicting calls apart and in call order, results in call order, wall clock = critical path', async () => {
    const marks: Mark[] = [];
    const netWrite = { ...WRITE, openWorldHint: true };
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [
        sleepyTool('read', READ_ONLY, marks, clock),
        sleepyTool('write', WRITE, marks, clock),
        sleepyTool('destroy', DESTRUCTIVE, marks, clock),
        sleepyTool('netwrite', netWrite, marks, clock),
      ],
      clock,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 14 }), async (specs) => {
        marks.length = 0;
        const t0 = clock.now();
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

        // plan() lists the calls each waits for directly; each of them conflicts with it,
        // and the transitive closure reaches every earlier call it conflicts with.
        const plan = await runtime.plan(calls);
        const reached: Set<number>[] = [];
        plan.forEach((entry, j) => {
          const closure = new Set<number>();
          for (const id of entry.waitsFor) {
            const i = Number(id.slice(1));
            expect(i).toBeLessThan(j);
            expect(conflicts(specs[i] as Spec, specs[j] as Spec)).toBe(true);
            closure.add(i);
            for (const further of reached[i] ?? []) closure.add(further);
          }
          reached.push(closure);
        });
        expect(
          reached.map((closure, j) =>
            [...closure]
              .filter((i) => conflicts(specs[i] as Spec, specs[j] as Spec))
              .sort((a, b) => a - b)
              .map((i) => `c${i}`),
          ),
        ).toEqual(expectedWaits);

        const done = runtime.execute(calls);
        await clock.runAll();
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

/**
 * A call of a caller: what a rule says of it (`none`: the mode decides: reads run, the rest
 * asks), how the person would answer if asked, and after how long.
 */
interface AskedSpec {
  readonly spec: Spec;
  readonly rule: 'none' | 'allow' | 'deny';
  readonly allow: boolean;
  readonly answerMs: number;
}
/** A batch a caller sends at `at` ms: all at once (`execute`), or one call per `gapMs` (`turn`). */
interface BatchPlan {
  readonly at: number;
  readonly via: 'execute' | 'turn';
  readonly gapMs: number;
  readonly calls: readonly AskedSpec[];
}

const askedSpecArb: fc.Arbitrary<AskedSpec> = fc.record({
  spec: specArb,
  rule: fc.constantFrom<AskedSpec['rule']>('none', 'none', 'none', 'allow', 'deny'),
  allow: fc.boolean(),
  answerMs: fc.integer({ min: 0, max: 80 }),
});
const batchArb: fc.Arbitrary<BatchPlan> = fc.record({
  at: fc.integer({ min: 0, max: 60 }),
  via: fc.constantFrom<'execute' | 'turn'>('execute', 'turn'),
  gapMs: fc.integer({ min: 0, max: 15 }),
  calls: fc.array(askedSpecArb, { minLength: 1, maxLength: 4 }),
});
const callersArb = fc.array(fc.array(batchArb, { minLength: 1, maxLength: 3 }), {
  minLength: 1,
  maxLength: 3,
});

/** Each kind of call comes as three tools: as the mode says, allowed by a rule, denied by one. */
const RULES = [
  { tool: '*_allowed', decision: 'allow' as const },
  { tool: '*_denied', decision: 'deny' as const },
];
const toolOf = ({ spec, rule }: AskedSpec): string =>
  rule === 'none' ? spec.kind : `${spec.kind}_${rule === 'allow' ? 'allowed' : 'denied'}`;
const needsApproval = ({ spec, rule }: AskedSpec): boolean =>
  spec.kind !== 'read' && rule === 'none';

describe('scheduling properties with approvals, several callers (fake time)', () => {
  beforeEach(() => {
    clock = createFakeClock();
  });

  it('keeps conflicting calls apart and in arrival order, runs nothing unapproved, and a call waits for nothing but what it must', async () => {
    const marks: Mark[] = [];
    const netWrite = { ...WRITE, openWorldHint: true };
    const runtime = createRuntime({
      mode: 'ask',
      rules: RULES,
      tools: (
        [
          ['read', READ_ONLY],
          ['write', WRITE],
          ['destroy', DESTRUCTIVE],
          ['netwrite', netWrite],
        ] as const
      ).flatMap(([name, annotations]) =>
        ['', '_allowed', '_denied'].map((suffix) =>
          sleepyTool(`${name}${suffix}`, annotations, marks, clock),
        ),
      ),
      clock,
    });
    await fc.assert(
      fc.asyncProperty(callersArb, async (callers) => {
        marks.length = 0;
        const t0 = clock.now();
        const now = (): number => clock.now() - t0;
        const specs = new Map<string, AskedSpec>();
        const arrival: string[] = [];
        const arrivedAt = new Map<string, number>();
        /** When the answers of each asked call's group were all in. */
        const answeredAt = new Map<string, number>();
        const asked = new Set<string>();
        const results: Promise<CallResult>[] = [];

        const approverOf = (): Approver => {
          let group: string[] = [];
          return async (request) => {
            const plan = specs.get(request.callId) as AskedSpec;
            if (request.position === 1) group = [];
            group.push(request.callId);
            asked.add(request.callId);
            await new Promise((resolve) =>
              clock.setTimeout(() => resolve(undefined), plan.answerMs),
            );
            if (request.position === request.total) {
              for (const id of group) answeredAt.set(id, now());
            }
            return { decision: plan.allow ? 'allow' : 'deny' };
          };
        };
        const arrive = (call: ToolCall): void => {
          arrival.push(call.id);
          arrivedAt.set(call.id, now());
        };

        callers.forEach((batches, c) => {
          // One person (session) per caller: their prompts come one at a time.
          const options = { approver: approverOf(), session: `caller${c}` };
          batches.forEach((batch, b) => {
            const calls = batch.calls.map((entry, k): ToolCall => {
              const id = `c${c}b${b}k${k}`;
              specs.set(id, entry);
              const { spec } = entry;
              return {
                id,
                name: toolOf(entry),
                arguments:
                  spec.path === undefined ? { ms: spec.ms } : { path: spec.path, ms: spec.ms },
              };
            });
            clock.setTimeout(() => {
              if (batch.via === 'execute') {
                calls.forEach(arrive);
                const done = runtime.execute(calls, options);
                calls.forEach((_, k) => {
                  results.push(done.then((settled) => settled[k] as CallResult));
                });
                return;
              }
              const turn = runtime.turn(options);
              calls.forEach((call, k) => {
                clock.setTimeout(() => {
                  arrive(call);
                  results.push(turn.call(call));
                  if (k === calls.length - 1) void turn.end();
                }, k * batch.gapMs);
              });
            }, batch.at);
          });
        });
        await clock.runAll();
        const settled = await Promise.all(results);
        const resultOf = new Map(settled.map((result) => [result.id, result]));
        const start = new Map(
          marks.filter((m) => m.phase === 'start').map((m) => [m.id, m.at - t0]),
        );
        const end = new Map(marks.filter((m) => m.phase === 'end').map((m) => [m.id, m.at - t0]));
        const specOf = (id: string): Spec => (specs.get(id) as AskedSpec).spec;

        expect(resultOf.size).toBe(arrival.length);
        for (const id of arrival) {
          const planned = specs.get(id) as AskedSpec;
          const ran = start.has(id);
          const expectedToRun =
            planned.rule !== 'deny' && (!needsApproval(planned) || planned.allow);
          // No call that needed approval runs without it; every allowed call runs.
          expect(asked.has(id)).toBe(needsApproval(planned));
          expect(ran).toBe(expectedToRun);
          expect(resultOf.get(id)?.status).toBe(expectedToRun ? 'ok' : 'denied');
        }
        // When each call stopped holding its place: at its end, or at its denial.
        const releasedAt = (id: string): number =>
          end.get(id) ?? answeredAt.get(id) ?? (arrivedAt.get(id) as number);
        arrival.forEach((j, position) => {
          if (!start.has(j)) return;
          let earliest = Math.max(arrivedAt.get(j) as number, answeredAt.get(j) ?? 0);
          for (const i of arrival.slice(0, position)) {
            if (!conflicts(specOf(i), specOf(j))) continue;
            // Conflicting calls never overlap, and run in arrival order.
            if (start.has(i)) expect(end.get(i)).toBeLessThanOrEqual(start.get(j) as number);
            earliest = Math.max(earliest, releasedAt(i));
          }
          // And nothing else holds a call up: not an unrelated approval, not a denied call
          // after its denial.
          expect(start.get(j)).toBe(earliest);
        });
      }),
      { numRuns: 120 },
    );
    await runtime.close();
  });
});
