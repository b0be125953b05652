/**
 * hintgate benchmark: `npm run bench` (builds, then runs this file against dist/). Writes bench/RESULTS.md and
 * prints the same tables. Exits non-zero when something crashes, or when a ratio of section 7
 * (bench/scaling.ts: cost per call as batches grow, one call against FunctionTool.invoke) or
 * a scaling guard of section 8 (bench/catalog.ts: big catalogs) misses its goal: the
 * regression guard. Other missed goals are reported as "no".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { type CallResult, createRuntime, type Runtime, type ToolCall } from 'hintgate';
import { parallelIfAllReadOnly, readWaves, type Strategy, sequential } from './baselines.js';
import {
  type Batch,
  conflictSets,
  criticalPath,
  latenciesOf,
  maxOf,
  mixedBatches,
  nominalAllReadOnly,
  nominalReadWaves,
  readOnlyBatch,
  shapeOf,
  sumOf,
  toDirectCalls,
  toToolCalls,
} from './batches.js';
import { CATALOG_HEADING, catalogBench } from './catalog.js';
import { gatewayOverhead, ROOT } from './gateway.js';
import {
  BUILD_COMPARISON_HEADING,
  fixed,
  loadNow,
  machine,
  median,
  replaceSection,
  table,
  yesNo,
} from './report.js';
import { SCALING_HEADING, scalingReport } from './scaling.js';
import { SHELL_HEADING, shellReading } from './shell.js';
import { noopReadTool, noopWriteTool, sleepingTools } from './tools.js';

/** Measurements per (batch, strategy); the median is reported. */
const REPEATS = 5;
/** Goal of part 1: hintgate within this factor of the critical path. */
const CRITICAL_PATH_FACTOR = 1.05;
/** Goal of part 2: wall <= factor * slowest call + slack. */
const READ_ONLY_FACTOR = 1.05;
const READ_ONLY_SLACK_MS = 2;
/** Goal of part 3, in microseconds per call. */
const OVERHEAD_GOAL_US = 20;
const OVERHEAD_BATCH = 100;
const OVERHEAD_WARMUP_BATCHES = 300;
const OVERHEAD_ROUNDS = 15;
const OVERHEAD_BATCHES_PER_ROUND = 40;

const RESULTS_PATH = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

/** Wall clock of one run of `work`, in ms. */
async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Results that did not end `ok`, as `id: code` strings. */
const failures = (results: readonly CallResult[]): string[] =>
  results.filter((r) => r.status !== 'ok').map((r) => `${r.id}: ${r.error?.code ?? r.status}`);

// ---------------------------------------------------------------------------------------
// Part 1: strategies on the same batches.

interface StrategyRow {
  readonly batch: Batch;
  readonly sum: number;
  readonly critical: number;
  readonly sequential: number;
  readonly allReadOnly: number;
  readonly waves: number;
  readonly hintgate: number;
  /** True when `runtime.plan` waits for exactly the calls the lock model says conflict. */
  readonly planAgrees: boolean;
  readonly failed: readonly string[];
}

const BASELINES: ReadonlyArray<readonly [string, Strategy]> = [
  ['sequential', sequential],
  ['allReadOnly', parallelIfAllReadOnly],
  ['waves', readWaves],
];

/** Compares the runtime's plan with the independent conflict model. */
async function planAgrees(runtime: Runtime, batch: Batch): Promise<boolean> {
  const plan = await runtime.plan(toToolCalls(batch));
  const model = conflictSets(batch);
  return plan.every((entry, j) => {
    const expected = (model[j] ?? []).map((i) => `c${i}`).sort();
    const actual = [...entry.waitsFor].sort();
    return entry.runnable && expected.join() === actual.join();
  });
}

async function compareStrategies(
  runtime: Runtime,
  batches: readonly Batch[],
): Promise<StrategyRow[]> {
  const samples = batches.map(() => new Map<string, number[]>());
  const failed = batches.map(() => new Set<string>());
  const record = (b: number, name: string, ms: number): void => {
    const list = samples[b]?.get(name) ?? [];
    list.push(ms);
    samples[b]?.set(name, list);
  };
  // Warm-up: one unrecorded run of every strategy on the smallest mixed batch.
  const warm = batches[1] ?? batches[0];
  if (warm !== undefined) {
    for (const [, strategy] of BASELINES) await strategy(toDirectCalls(warm));
    await runtime.execute(toToolCalls(warm));
  }
  for (let rep = 0; rep < REPEATS; rep += 1) {
    for (const [b, batch] of batches.entries()) {
      for (const [name, strategy] of BASELINES) {
        const direct = toDirectCalls(batch);
        record(b, name, await time(() => strategy(direct)));
      }
      const calls = toToolCalls(batch);
      let results: CallResult[] = [];
      record(
        b,
        'hintgate',
        await time(async () => {
          results = await runtime.execute(calls);
        }),
      );
      for (const failure of failures(results)) failed[b]?.add(failure);
    }
    process.stdout.write(`  part 1: repetition ${rep + 1}/${REPEATS} done\n`);
  }
  const rows: StrategyRow[] = [];
  for (const [b, batch] of batches.entries()) {
    const of = (name: string): number => median(samples[b]?.get(name) ?? []);
    rows.push({
      batch,
      sum: sumOf(batch),
      critical: criticalPath(batch),
      sequential: of('sequential'),
      allReadOnly: of('allReadOnly'),
      waves: of('waves'),
      hintgate: of('hintgate'),
      planAgrees: await planAgrees(runtime, batch),
      failed: [...(failed[b] ?? [])],
    });
  }
  return rows;
}

function strategyTables(rows: readonly StrategyRow[]): string {
  const main = table(
    [
      '#',
      'batch (shape)',
      'calls',
      'sum ms',
      'critical path ms',
      '(1) sequential ms',
      '(2) parallel-if-all-read ms',
      '(3) read waves ms',
      '(4) hintgate ms',
      'hintgate / critical',
      `within ${CRITICAL_PATH_FACTOR}x`,
      'speed-up vs (1)',
      'speed-up vs best of (2),(3)',
    ],
    rows.map((row, index) => [
      String(index + 1),
      `${row.batch.title}: \`${shapeOf(row.batch)}\``,
      String(row.batch.calls.length),
      String(row.sum),
      String(row.critical),
      fixed(row.sequential),
      fixed(row.allReadOnly),
      fixed(row.waves),
      fixed(row.hintgate),
      fixed(row.hintgate / row.critical, 3),
      yesNo(row.hintgate <= CRITICAL_PATH_FACTOR * row.critical),
      `${fixed(row.sequential / row.hintgate, 2)}x`,
      `${fixed(Math.min(row.allReadOnly, row.waves) / row.hintgate, 2)}x`,
    ]),
  );
  const nominal = table(
    [
      '#',
      'latencies ms (call order)',
      'nominal (1) = sum',
      'nominal (2)',
      'nominal (3)',
      'nominal (4) = critical path',
      'plan() waits = lock model',
      'hintgate calls not ok',
    ],
    rows.map((row, index) => [
      String(index + 1),
      latenciesOf(row.batch),
      String(row.sum),
      String(nominalAllReadOnly(row.batch)),
      String(nominalReadWaves(row.batch)),
      String(row.critical),
      yesNo(row.planAgrees),
      row.failed.length === 0 ? 'none' : row.failed.join(', '),
    ]),
  );
  return `${main}\n\nNominal costs (perfect timers, zero overhead) and checks:\n\n${nominal}`;
}

// ---------------------------------------------------------------------------------------
// Part 2: read-only batches of growing size.

interface ReadOnlyRow {
  readonly size: number;
  readonly max: number;
  readonly sum: number;
  readonly hintgate: number;
  readonly promiseAll: number;
  readonly failed: readonly string[];
}

async function readOnlyScaling(runtime: Runtime, sizes: readonly number[]): Promise<ReadOnlyRow[]> {
  const rows: ReadOnlyRow[] = [];
  for (const size of sizes) {
    const batch = readOnlyBatch(size);
    const calls = toToolCalls(batch);
    const direct = toDirectCalls(batch);
    const hintgate: number[] = [];
    const promiseAll: number[] = [];
    const failed = new Set<string>();
    for (let rep = 0; rep < REPEATS; rep += 1) {
      promiseAll.push(await time(() => parallelIfAllReadOnly(direct)));
      let results: CallResult[] = [];
      hintgate.push(
        await time(async () => {
          results = await runtime.execute(calls);
        }),
      );
      for (const failure of failures(results)) failed.add(failure);
    }
    rows.push({
      size,
      max: maxOf(batch),
      sum: sumOf(batch),
      hintgate: median(hintgate),
      promiseAll: median(promiseAll),
      failed: [...failed],
    });
  }
  return rows;
}

function readOnlyTable(rows: readonly ReadOnlyRow[]): string {
  return table(
    [
      'calls',
      'sum ms',
      'slowest call ms',
      'hintgate wall ms',
      'wall / slowest',
      `limit ${READ_ONLY_FACTOR}x slowest + ${READ_ONLY_SLACK_MS} ms`,
      'within goal',
      'plain Promise.allSettled ms',
      'hintgate calls not ok',
    ],
    rows.map((row) => {
      const limit = READ_ONLY_FACTOR * row.max + READ_ONLY_SLACK_MS;
      return [
        String(row.size),
        String(row.sum),
        String(row.max),
        fixed(row.hintgate),
        fixed(row.hintgate / row.max, 3),
        fixed(limit),
        yesNo(row.hintgate <= limit),
        fixed(row.promiseAll),
        row.failed.length === 0 ? 'none' : row.failed.join(', '),
      ];
    }),
  );
}

// ---------------------------------------------------------------------------------------
// Part 3: per-call overhead of the pipeline with no-op tools.

interface OverheadRow {
  readonly label: string;
  readonly medianUs: number;
  readonly minUs: number;
  /** False for the reference row that bypasses the pipeline. */
  readonly judged: boolean;
  readonly failed: readonly string[];
}

/**
 * µs per call of `runBatch` over rounds of batches of `size` calls; larger batches run
 * proportionally fewer times, so every scenario handles about the same number of calls.
 */
async function microsPerCall(
  runBatch: () => Promise<readonly CallResult[]> | undefined,
  size = OVERHEAD_BATCH,
): Promise<{ medianUs: number; minUs: number; failed: string[] }> {
  const failed = new Set<string>();
  const scale = Math.max(1, Math.round(size / OVERHEAD_BATCH));
  const warmup = Math.ceil(OVERHEAD_WARMUP_BATCHES / scale);
  const perRound = Math.ceil(OVERHEAD_BATCHES_PER_ROUND / scale);
  for (let batch = 0; batch < warmup; batch += 1) await runBatch();
  const rounds: number[] = [];
  for (let round = 0; round < OVERHEAD_ROUNDS; round += 1) {
    const start = performance.now();
    for (let batch = 0; batch < perRound; batch += 1) {
      const results = await runBatch();
      if (batch === 0) for (const failure of failures(results ?? [])) failed.add(failure);
    }
    const elapsed = performance.now() - start;
    rounds.push((elapsed * 1000) / (perRound * size));
  }
  return { medianUs: median(rounds), minUs: Math.min(...rounds), failed: [...failed] };
}

async function pipelineOverhead(): Promise<OverheadRow[]> {
  const runtime = createRuntime({ tools: [noopReadTool, noopWriteTool], mode: 'yolo' });
  const indices = Array.from({ length: OVERHEAD_BATCH }, (_, n) => n);
  const reads: ToolCall[] = indices.map((n) => ({
    id: `r${n}`,
    name: 'noop_read',
    arguments: { n },
  }));
  const distinctWrites: ToolCall[] = indices.map((n) => ({
    id: `w${n}`,
    name: 'noop_write',
    arguments: { n, key: `k${n}` },
  }));
  const sameKeyWrites: ToolCall[] = indices.map((n) => ({
    id: `s${n}`,
    name: 'noop_write',
    arguments: { n, key: 'shared' },
  }));
  const big = OVERHEAD_BATCH * 10;
  const bigSameKeyWrites: ToolCall[] = Array.from({ length: big }, (_, n) => ({
    id: `s${n}`,
    name: 'noop_write',
    arguments: { n, key: 'shared' },
  }));
  const rows: OverheadRow[] = [];
  const scenarios: ReadonlyArray<readonly [string, readonly ToolCall[]]> = [
    [`${OVERHEAD_BATCH} no-op reads (zod { n: number })`, reads],
    [`${OVERHEAD_BATCH} no-op writes, distinct keys (parallel)`, distinctWrites],
    [`${OVERHEAD_BATCH} no-op writes, one key (serialized)`, sameKeyWrites],
    [`${big} no-op writes, one key (serialized; cost stays linear)`, bigSameKeyWrites],
  ];
  for (const [label, calls] of scenarios) {
    const result = await microsPerCall(() => runtime.execute(calls), calls.length);
    rows.push({ label, ...result, judged: true });
    process.stdout.write(`  part 3: ${label}: ${fixed(result.medianUs, 2)} µs/call\n`);
  }
  // Reference: what validating and invoking costs without the pipeline.
  const schema = noopReadTool.inputSchema;
  const context = { signal: new AbortController().signal, callId: 'x', attempt: 1 };
  const floor = await microsPerCall(() => {
    for (const call of reads) {
      const outcome = schema.validate(call.arguments);
      if (!(outcome instanceof Promise) && outcome.ok) noopReadTool.execute(outcome.value, context);
    }
    return undefined;
  });
  rows.push({
    label: `reference: zod validate + execute only, no pipeline (${OVERHEAD_BATCH} calls)`,
    ...floor,
    judged: false,
  });
  await runtime.close();
  return rows;
}

function overheadTable(rows: readonly OverheadRow[]): string {
  return table(
    [
      'scenario',
      'µs per call (median of rounds)',
      'µs per call (best round)',
      `under ${OVERHEAD_GOAL_US} µs`,
      'calls not ok',
    ],
    rows.map((row) => [
      row.label,
      fixed(row.medianUs, 2),
      fixed(row.minUs, 2),
      row.judged ? yesNo(row.medianUs < OVERHEAD_GOAL_US) : 'n/a',
      row.failed.length === 0 ? 'none' : row.failed.slice(0, 3).join(', '),
    ]),
  );
}

// ---------------------------------------------------------------------------------------

const METHOD = `Tools await a real \`setTimeout\` for their latency (20-120 ms, seeded). Strategies on the same batch: (1) sequential; (2) parallel only if all are read-only; (3) consecutive reads as one wave (bench/baselines.ts); (4) hintgate \`execute\`, mode \`yolo\`. Critical path from DESIGN's lock table. Median of ${REPEATS} interleaved runs after a warm-up. Part 3: batches of ${OVERHEAD_BATCH} no-op calls, ${OVERHEAD_WARMUP_BATCHES} warm-up batches, ${OVERHEAD_ROUNDS} rounds of ${OVERHEAD_BATCHES_PER_ROUND}.`;

async function main(): Promise<void> {
  const started = performance.now();
  const host = machine();
  process.stdout.write(
    `hintgate bench on ${host.cpu} (${host.cores} cores, ${fixed(host.memoryGiB)} GiB), Node ${host.node}\n`,
  );

  const runtime = createRuntime({ tools: sleepingTools, mode: 'yolo' });
  process.stdout.write('part 1: strategies on the same batches\n');
  const strategies = await compareStrategies(runtime, mixedBatches());
  const part1 = strategyTables(strategies);
  process.stdout.write(`${part1}\n\n`);

  process.stdout.write('part 2: read-only batches\n');
  const scaling = await readOnlyScaling(runtime, [1, 2, 4, 8, 16, 32, 64]);
  const part2 = readOnlyTable(scaling);
  process.stdout.write(`${part2}\n\n`);
  await runtime.close();

  const loadBeforePart3 = loadNow();
  process.stdout.write(`part 3: per-call overhead (load average ${fixed(loadBeforePart3, 2)})\n`);
  const overhead = await pipelineOverhead();
  const part3 = overheadTable(overhead);
  process.stdout.write(`${part3}\n\n`);

  const loadBeforePart4 = loadNow();
  process.stdout.write(
    `part 4: gateway overhead over MCP (load average ${fixed(loadBeforePart4, 2)})\n`,
  );
  const gateway = await gatewayOverhead((line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${gateway.markdown}\n\n`);

  process.stdout.write('part 5: reading shell command lines\n');
  const shell = await shellReading();
  process.stdout.write(`${shell.markdown}\n\n`);

  process.stdout.write(`cost per call as batches grow (load average ${fixed(loadNow(), 2)})\n`);
  const scalingPart = await scalingReport();
  process.stdout.write(`${scalingPart.markdown}\n\n`);
  process.stdout.write('part 8: big catalogs\n');
  const catalogs = await catalogBench([{ label: 'this build', root: ROOT }], (line) =>
    process.stdout.write(`${line}\n`),
  );
  process.stdout.write(`${catalogs.markdown}\n\n`);

  const mixed = strategies.filter((row) =>
    row.batch.calls.some((c) => c.kind !== 'READ' && c.kind !== 'SEARCH'),
  );
  const summary = [
    `- Mixed batches within ${CRITICAL_PATH_FACTOR}x of their critical path: ${mixed.filter((r) => r.hintgate <= CRITICAL_PATH_FACTOR * r.critical).length}/${mixed.length}.`,
    `- Read-only batches within ${READ_ONLY_FACTOR}x of the slowest call + ${READ_ONLY_SLACK_MS} ms: ${scaling.filter((r) => r.hintgate <= READ_ONLY_FACTOR * r.max + READ_ONLY_SLACK_MS).length}/${scaling.length}.`,
    `- Pipeline overhead under ${OVERHEAD_GOAL_US} µs per call: ${overhead.filter((r) => r.judged && r.medianUs < OVERHEAD_GOAL_US).length}/${overhead.filter((r) => r.judged).length} scenarios.`,
    ...gateway.summary,
    ...shell.summary,
    ...scalingPart.summary,
    `- Big catalogs: ${catalogs.failures.length === 0 ? 'every goal met' : `missed: ${catalogs.failures.join('; ')}`}.`,
    `- Whole run: ${fixed((performance.now() - started) / 1000)} s.`,
  ].join('\n');
  process.stdout.write(`${summary}\n`);

  const markdown = `# hintgate benchmark results

Generated by \`npm run bench\` (bench/run.ts); overwritten on every run.

- Machine: ${host.cpu}, ${host.cores} cores, ${fixed(host.memoryGiB)} GiB memory
- Node: ${host.node}
- Date: ${host.date}
- Load average (1 min): ${fixed(host.load, 2)} at start, ${fixed(loadBeforePart3, 2)} before part 3, ${fixed(loadBeforePart4, 2)} before part 4

## Method

${METHOD}

## Summary

${summary}

## 1. Strategies on the same batches (median of ${REPEATS}, ms)

Goal: mixed batches within ${CRITICAL_PATH_FACTOR}x of their critical path.

${part1}

## 2. Read-only batches (median of ${REPEATS})

Goal: wall <= ${READ_ONLY_FACTOR} x slowest call + ${READ_ONLY_SLACK_MS} ms.

${part2}

## 3. Per-call overhead of the pipeline (no-op tools)

Goal: under ${OVERHEAD_GOAL_US} µs per call.

${part3}

## 4. Gateway overhead: a cheap tool over MCP, direct vs hintgate vs mcp-proxy

${gateway.markdown}

${SHELL_HEADING}

${shell.markdown}
`;
  // The build comparison comes from bench/compare-builds.ts, run apart: keep it.
  const previous = existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, 'utf8') : '';
  const at = previous.indexOf(BUILD_COMPARISON_HEADING);
  const composed = at < 0 ? markdown : `${markdown}\n${previous.slice(at)}`;
  writeFileSync(
    RESULTS_PATH,
    replaceSection(
      replaceSection(composed, SCALING_HEADING, scalingPart.markdown),
      CATALOG_HEADING,
      catalogs.markdown,
    ),
  );
  // The scaling guard: a ratio over its goal fails the run.
  if (catalogs.failures.length > 0) process.exitCode = 1;
  process.stdout.write(`wrote ${RESULTS_PATH}\n`);
  if (scalingPart.missed.length > 0) {
    process.stdout.write(`regression guard: goals missed: ${scalingPart.missed.join('; ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
