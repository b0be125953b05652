/**
 * Parts 1-3 of `npm run bench`, in process: strategies on the same batches of sleeping
 * tools, read-only batches of growing size, and the pipeline's per-call cost with no-op
 * tools. Alone: `npx tsx --tsconfig bench/tsconfig.json bench/strategies.ts [--write]`.
 */
import { type CallResult, createRuntime, type Runtime } from 'hintgate';
import { parallelIfAllReadOnly, readWaves, sequential } from './baselines.js';
import {
  type Batch,
  conflictSets,
  criticalPath,
  maxOf,
  mixedBatches,
  readOnlyBatch,
  sumOf,
  toDirectCalls,
  toToolCalls,
} from './batches.js';
import { interleave, machine, thousandCalls, type Variant } from './measure.js';
import { fixed, type Goal, runAlone, type SectionResult, section, table, yesNo } from './report.js';
import { noopBatches, noopReadTool, noopWriteTool, sleepingTools } from './tools.js';

const REPEATS = 5;
const FACTOR = 1.05;
const OVERHEAD_GOAL_US = 20;
const COMMAND = 'bench/strategies.ts';

/** A variant of one run of `work`; ids of calls that did not end `ok` go to `failed`. */
const noting = (work: () => Promise<unknown>, failed: Set<string>): Variant => ({
  calls: 1,
  run: async () => {
    const results = await work();
    for (const result of Array.isArray(results) ? (results as CallResult[]) : []) {
      if (result.status !== undefined && result.status !== 'ok') failed.add(result.id);
    }
  },
});

/** Median wall ms of each variant over {@link REPEATS} rotating rounds of one run, after a warm-up run. */
const msOf = async (variants: readonly Variant[]): Promise<number[]> =>
  (await interleave(variants, { rounds: REPEATS, runsPerRound: 1, warmupRuns: 1 })).map(
    (m) => m.wallUs / 1000,
  );

/**
 * True when the plan agrees with the lock model: every call it waits for conflicts with it,
 * and the closure of `waitsFor`, kept to conflicting calls, is the model's conflict set.
 */
async function planAgrees(runtime: Runtime, of: Batch): Promise<boolean> {
  const plan = await runtime.plan(toToolCalls(of));
  const model = conflictSets(of);
  const waits = plan.map((entry) => entry.waitsFor.map((id) => Number(id.slice(1))));
  const closureOf = (j: number): Set<number> => {
    const seen = new Set<number>();
    const stack = [...(waits[j] ?? [])];
    for (let i = stack.pop(); i !== undefined; i = stack.pop()) {
      if (seen.has(i)) continue;
      seen.add(i);
      stack.push(...(waits[i] ?? []));
    }
    return seen;
  };
  return plan.every((entry, j) => {
    const expected = model[j] ?? [];
    const kept = [...closureOf(j)].filter((i) => expected.includes(i)).sort((a, b) => a - b);
    const direct = waits[j] ?? [];
    return (
      entry.runnable && direct.every((i) => expected.includes(i)) && kept.join() === expected.join()
    );
  });
}

/** Part 1: the strategies and hintgate on the same batches, in interleaved repetitions. */
export async function strategiesSection(): Promise<SectionResult> {
  const started = machine();
  const runtime = createRuntime({ tools: sleepingTools, mode: 'yolo' });
  const batches = mixedBatches();
  const strategies = [
    (of: Batch) => () => sequential(toDirectCalls(of)),
    (of: Batch) => () => parallelIfAllReadOnly(toDirectCalls(of)),
    (of: Batch) => () => readWaves(toDirectCalls(of)),
    (of: Batch) => () => runtime.execute(toToolCalls(of)),
  ];
  const goals: Goal[] = [];
  const rows: string[][] = [];
  for (const [b, of] of batches.entries()) {
    const failed = new Set<string>();
    const [seq = 0, allRead = 0, waves = 0, hintgate = 0] = await msOf(
      strategies.map((strategy) => noting(strategy(of), failed)),
    );
    const critical = criticalPath(of);
    const mixed = of.calls.some((call) => call.kind !== 'READ' && call.kind !== 'SEARCH');
    if (mixed) {
      goals.push({
        name: `1. batch ${b + 1}: hintgate / critical path`,
        value: hintgate / critical,
        limit: FACTOR,
        bound: 'most',
        unit: 'x',
      });
    }
    const notOk = [...failed];
    rows.push([
      String(b + 1),
      `${of.title}: \`${of.shape}\``,
      String(sumOf(of)),
      String(critical),
      fixed(seq),
      fixed(allRead),
      fixed(waves),
      fixed(hintgate),
      fixed(hintgate / critical, 3),
      fixed(seq / hintgate, 2),
      fixed(Math.min(allRead, waves) / hintgate, 2),
      yesNo(await planAgrees(runtime, of)),
      notOk.length === 0 ? 'none' : notOk.join(', '),
    ]);
  }
  await runtime.close();
  return section({
    heading: '## 1. Strategies on the same batches (median of 5, ms)',
    command: COMMAND,
    started,
    method: `tools await a real \`setTimeout\` for their latency (20-120 ms, seeded). (1) sequential; (2) parallel only if all are read-only; (3) consecutive reads as one wave (bench/baselines.ts); (4) hintgate \`execute\`, mode \`yolo\`. Critical path from DESIGN's lock table (bench/batches.ts, independent of src/). Median of ${REPEATS} rotating rounds after a warm-up run of each. Goal: mixed batches within ${FACTOR}x of their critical path. "plan agrees": \`runtime.plan\` waits only for conflicting calls and its closure is the lock model's conflict set.`,
    tables: [
      table(
        [
          '#',
          'batch (shape)',
          'sum ms',
          'critical path ms',
          '(1) ms',
          '(2) ms',
          '(3) ms',
          '(4) hintgate ms',
          'hintgate / critical',
          '(1) / hintgate',
          'best of (2),(3) / hintgate',
          'plan agrees',
          'calls not ok',
        ],
        rows,
      ),
    ],
    goals,
  });
}

/** Part 2: read-only batches against plain `Promise.allSettled` of the same calls. */
export async function readOnlySection(sizes = [1, 2, 4, 8, 16, 32, 64]): Promise<SectionResult> {
  const started = machine();
  const runtime = createRuntime({ tools: sleepingTools, mode: 'yolo' });
  const goals: Goal[] = [];
  const rows: string[][] = [];
  for (const size of sizes) {
    const of = readOnlyBatch(size);
    const failed = new Set<string>();
    const [plain = 0, hintgate = 0] = await msOf([
      noting(() => parallelIfAllReadOnly(toDirectCalls(of)), failed),
      noting(() => runtime.execute(toToolCalls(of)), failed),
    ]);
    const ratio = hintgate / plain;
    goals.push({
      name: `2. ${size} reads: hintgate / Promise.allSettled`,
      value: ratio,
      limit: FACTOR,
      bound: 'most',
      unit: 'x',
    });
    rows.push([
      String(size),
      String(sumOf(of)),
      String(maxOf(of)),
      fixed(plain),
      fixed(hintgate),
      fixed(ratio, 3),
      fixed(hintgate / maxOf(of), 3),
      failed.size === 0 ? 'none' : [...failed].join(', '),
    ]);
  }
  await runtime.close();
  return section({
    heading: '## 2. Read-only batches (median of 5)',
    command: COMMAND,
    started,
    method: `read-only batches of distinct files, latencies 20-100 ms (seeded); hintgate \`execute\` and plain \`Promise.allSettled\` of the same tools taking turns in ${REPEATS} rounds after a warm-up run, median. Goal: hintgate within ${FACTOR}x of \`Promise.allSettled\`.`,
    tables: [
      table(
        [
          'calls',
          'sum ms',
          'slowest call ms',
          'Promise.allSettled ms',
          'hintgate ms',
          'hintgate / allSettled',
          'hintgate / slowest',
          'calls not ok',
        ],
        rows,
      ),
    ],
    goals,
  });
}

/** Part 3: µs per call of no-op batches through one runtime, against validate + execute alone. */
export async function overheadSection(): Promise<SectionResult> {
  const started = machine();
  const runtime = createRuntime({ tools: [noopReadTool, noopWriteTool], mode: 'yolo' });
  const scenarios = noopBatches;
  const reads = scenarios[0]?.[1] ?? [];
  const context = { signal: new AbortController().signal, callId: 'x', attempt: 1 };
  const variants = scenarios.map(([, calls]) =>
    thousandCalls(async () => {
      const results = await runtime.execute(calls);
      if (results.some((result) => result.status !== 'ok'))
        throw new Error('part 3: a call failed');
    }, calls.length),
  );
  const floor = thousandCalls(async () => {
    for (const call of reads) {
      const outcome = noopReadTool.inputSchema.validate(call.arguments);
      if (!(outcome instanceof Promise) && outcome.ok) noopReadTool.execute(outcome.value, context);
    }
  }, reads.length);
  const measured = await interleave([...variants, floor], {
    rounds: 15,
    runsPerRound: 4,
    warmupRuns: 30,
  });
  await runtime.close();
  const base = measured[scenarios.length] ?? {
    wallUs: Number.NaN,
    cpuUs: Number.NaN,
    bestWallUs: Number.NaN,
  };
  const goals: Goal[] = scenarios.map(([label], index) => ({
    name: `3. ${label}: µs added over validate + execute`,
    value: (measured[index]?.wallUs ?? Number.NaN) - base.wallUs,
    limit: OVERHEAD_GOAL_US,
    bound: 'most',
    unit: ' µs',
  }));
  const rows = [
    ...scenarios.map(([label]) => label),
    'reference: zod validate + execute only, no pipeline (100 reads)',
  ].map((label, index) => {
    const m = measured[index] ?? base;
    return [
      label,
      fixed(m.wallUs, 2),
      fixed(m.bestWallUs, 2),
      fixed(m.cpuUs, 2),
      index < scenarios.length ? fixed(m.wallUs - base.wallUs, 2) : 'n/a',
    ];
  });
  return section({
    heading: '## 3. Per-call overhead of the pipeline (no-op tools)',
    command: COMMAND,
    started,
    method: `batches of no-op calls (zod schemas) through one runtime, mode \`yolo\`; 4000 calls per variant and round, the variants taking turns in 15 rounds after 30,000 warm-up calls each; the reference validates and executes the same 100 reads without the pipeline. Goal: the pipeline adds under ${OVERHEAD_GOAL_US} µs per call over the reference (wall, median of rounds).`,
    tables: [
      table(
        [
          'scenario',
          'wall µs/call (median)',
          'wall µs/call (best round)',
          'CPU µs/call',
          'added over reference µs',
        ],
        rows,
      ),
    ],
    goals,
  });
}

runAlone(import.meta.url, async () => [
  await strategiesSection(),
  await readOnlySection(),
  await overheadSection(),
]);
