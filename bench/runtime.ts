/** Sections `overhead` (the pipeline's cost per call) and `scaling` (that cost as batches grow). */
import { RunContext, setTracingDisabled, tool } from '@openai/agents';
import { functionCall } from '@openai/agents/testing';
import type { Runtime, Tool, ToolCall } from 'hintgate';
import { z } from 'zod';
import {
  at,
  type Build,
  builds,
  interleave,
  type PerCall,
  seeded,
  sized,
  type Variant,
} from './measure.js';
import { type Cell, type Context, type Goal, goal, type Result, table } from './report.js';

/** The no-op tools of `build`, made by its own `defineTool`: `noop_read`, `noop_item_read`, `noop_write`. */
const noopTools = (build: Build) =>
  (['noop_read', 'noop_item_read', 'noop_write'] as const).map((name) => {
    const item = name !== 'noop_read';
    return build.defineTool({
      name,
      description: item ? 'No-op on an item.' : 'No-op.',
      annotations: name === 'noop_write' ? build.WRITE : build.READ_ONLY,
      inputSchema: z.object(item ? { n: z.number(), key: z.string() } : { n: z.number() }),
      ...(item ? { resources: ['item:{key}'] } : {}),
      execute: ({ n }) => `ok ${n}`,
    });
  });
const runtimeOf = (build: Build, options: { concurrency?: { local: number } } = {}): Runtime =>
  build.createRuntime({ tools: noopTools(build), mode: 'yolo', ...options });
const callsOf = (size: number, name: string, key?: (n: number) => string): ToolCall[] =>
  Array.from({ length: size }, (_, n) => ({
    id: `c${n}`,
    name,
    arguments: { n, ...(key ? { key: key(n) } : {}) },
  }));
const checked = (runtime: Runtime, calls: readonly ToolCall[]) => async () => {
  const failed = (await runtime.execute(calls)).find((r) => r.status !== 'ok');
  if (failed !== undefined) throw new Error(`${failed.id} ended ${failed.status}`);
};

/** Section `overhead`. */
export async function overhead(context: Context): Promise<Result> {
  const measured = await builds(context.baseline);
  const runtimes = measured.map(({ api }) => runtimeOf(api));
  const [mine] = runtimes as [Runtime];
  const reads = callsOf(100, 'noop_read');
  const scenarios: [string, ToolCall[]][] = [
    ['100 no-op reads', reads],
    ['100 no-op writes, distinct keys', callsOf(100, 'noop_write', (n) => `k${n}`)],
    ['100 no-op writes, one key', callsOf(100, 'noop_write', () => 'shared')],
    ['1000 no-op writes, one key', callsOf(1000, 'noop_write', () => 'shared')],
  ];
  const read = noopTools(measured[0]?.api as Build)[0] as Tool<{ n: number }>;
  const ctx = { signal: new AbortController().signal, callId: 'x', attempt: 1 };
  const oneByOne = async () => {
    const turn = mine.turn();
    for (const call of reads) void turn.call(call);
    await turn.end();
  };
  const floor = async () => {
    for (const call of reads) {
      const valid = read.inputSchema.validate(call.arguments);
      if (!(valid instanceof Promise) && valid.ok) read.execute(valid.value, ctx);
    }
  };
  const variants: (readonly [string, string, () => Promise<unknown>, number])[] = [
    ...scenarios.flatMap(([scenario, calls]) =>
      runtimes.map(
        (rt, b) => [scenario, `${measured[b]?.label}`, checked(rt, calls), calls.length] as const,
      ),
    ),
    ['100 no-op reads, one `turn().call` each', 'this build', oneByOne, 100],
    ['reference: zod validate + execute, no pipeline', '', floor, 100],
  ];
  // Runs of a batch until 1000 calls, so batches of every size weigh alike.
  const thousand =
    ([, , run, size]: (typeof variants)[0]) =>
    async () => {
      for (let i = 0; i < 1000 / size; i += 1) await run();
    };
  const options = { calls: 1000, rounds: 15, runsPerRound: 4, warmupRuns: 30 };
  const f = await interleave(variants.map(thousand), options);
  for (const rt of runtimes) await rt.close();
  const base = (f.at(-1) as PerCall).wallUs;
  const goals: Goal[] = [];
  const rows = variants.map(([scenario, build], i): Cell[] => {
    const { wallUs, bestWallUs, cpuUs } = f[i] as PerCall;
    const mineCpu = f[variants.findIndex((v) => v[0] === scenario)]?.cpuUs ?? Number.NaN;
    const name = `${scenario}: wall added over the reference`;
    if (build === 'this build') goals.push(goal(name, wallUs - base, 20, 'µs'));
    return [scenario, build, wallUs, bestWallUs, cpuUs, cpuUs / mineCpu, wallUs - base];
  });
  const head = 'scenario|build|wall µs/call|best round wall µs/call|CPU µs/call|CPU / this build';
  return {
    method: `batches of no-op calls (zod schemas, each build's tools made by its own \`defineTool\`) through one runtime per build, mode \`yolo\`; every variant runs 1000 calls a run, 4 runs a round, in 15 rotating rounds after 30 warm-up runs; median per call. The reference validates and executes the 100 reads with no pipeline.`,
    tables: [table(`${head}|wall added over reference µs`, rows)],
    goals,
  };
}

/** `execute` against `FunctionTool.invoke` of the same function, N calls awaited together. */
async function againstInvoke(measured: readonly { label: string; api: Build }[], goals: Goal[]) {
  setTracingDisabled(true);
  const properties = { n: { type: 'number' } };
  const parameters = { type: 'object' as const, properties, required: ['n'] };
  const schema = { ...parameters, additionalProperties: false as const };
  const execute = (input: unknown) => `ok ${(input as { n: number }).n}`;
  const plain = tool({ name: 'noop_read', description: 'No-op.', parameters: schema, execute });
  const runtimes = measured.map(({ api }) => runtimeOf(api));
  const rows: Cell[][] = [];
  for (const count of [1, 10, 100]) {
    const calls = callsOf(count, 'noop_read');
    const items = calls.map(({ id }, n) => functionCall('noop_read', { n }, { callId: id }));
    const invokeAll = () => {
      const context = new RunContext();
      return Promise.all(
        items.map((item) => plain.invoke(context, item.arguments, { toolCall: item })),
      );
    };
    const runs = sized(Math.round(20_000 / count), 10);
    const variants = [invokeAll, ...runtimes.map((rt) => checked(rt, calls))];
    const options = { calls: count, rounds: 11, runsPerRound: runs, warmupRuns: runs * 5 };
    const f = await interleave(variants, options);
    const [invoked, ...cpus] = f.map((x) => x.cpuUs) as [number, ...number[]];
    for (const [b, build] of measured.entries())
      rows.push([count, build.label, at(cpus, b), invoked, at(cpus, b) / invoked]);
    if (count === 1)
      goals.push(goal('one call: execute / `FunctionTool.invoke` (CPU)', at(cpus, 0) / invoked, 1));
    if (count === 100)
      goals.push(goal('batch of 100: execute CPU per call (absolute)', at(cpus, 0), 5, 'µs'));
  }
  for (const rt of runtimes) await rt.close();
  const head = 'calls per batch|build|execute CPU µs/call|`FunctionTool.invoke` CPU µs/call';
  return table(`${head}|execute / invoke`, rows);
}

/** Calls in each timed round of the scaling rows. */
const BLOCK = 100_000;

/**
 * Batches of reads that conflict with nothing, all ready at once: on 50 keys, and on a new
 * key per call (no key seen before, as an agent reading thousands of files). Each build's
 * calls on new keys come from a pool of batches it goes through in turn, over 20,000 keys
 * or more: more than its memory of keys holds, so none is remembered when it comes back.
 */
async function readBatches(measured: readonly { label: string; api: Build }[], goals: Goal[]) {
  const sizes = sized([1000, 10_000, 100_000], [100, 1000]);
  const kinds = [
    ['50 keys', (size: number) => [callsOf(size, 'noop_item_read', (n) => `k${n % 50}`)]],
    [
      'new keys',
      (size: number) =>
        Array.from({ length: Math.max(1, Math.ceil(20_000 / size)) }, (_, b) =>
          callsOf(size, 'noop_item_read', (n) => `b${b}/f${n}`),
        ),
    ],
  ] as const;
  const runtimes = measured.map(({ api }) => runtimeOf(api));
  const rows: Cell[][] = [];
  const perCall = new Map<string, number>();
  for (const [kind, poolOf] of kinds) {
    // Every size in the same rounds (see `scaling`).
    const variants: Variant[] = sizes.flatMap((size) => {
      const pool = poolOf(size);
      return runtimes.map((rt) => {
        let next = 0;
        return {
          run: async () => {
            const calls = pool[next % pool.length] as ToolCall[];
            next += 1;
            await checked(rt, calls)();
          },
          calls: size,
          runsPerRound: Math.max(1, Math.round(BLOCK / size)),
          warmupRuns: Math.ceil(30_000 / size),
        };
      });
    });
    const rounds = sized(3, 2);
    const f = await interleave(variants, { rounds, runsPerRound: 1, warmupRuns: 1, fenced: true });
    for (const [s, size] of sizes.entries()) {
      for (const [b, build] of measured.entries()) {
        const figures = f[s * runtimes.length + b] as PerCall;
        perCall.set(`${kind} ${size} ${b}`, figures.cpuUs);
        const ratio = figures.cpuUs / (perCall.get(`${kind} ${sizes[0]} ${b}`) ?? Number.NaN);
        rows.push([`reads on ${kind}`, size, build.label, figures.cpuUs, figures.wallUs, ratio]);
      }
    }
  }
  for (const rt of runtimes) await rt.close();
  const s0 = sizes[0];
  const at0 = (kind: string, size = s0) => perCall.get(`${kind} ${size} 0`) ?? Number.NaN;
  for (const kind of ['50 keys', 'new keys']) {
    for (const size of sizes.slice(1)) {
      const of = `per call, ${size} / ${s0} calls (CPU)`;
      goals.push(goal(`reads on ${kind}: execute ${of}`, at0(kind, size) / at0(kind), 2));
    }
  }
  return table(
    `batch|calls|build|execute CPU µs/call|execute wall µs/call|execute / ${s0} (CPU)`,
    rows,
  );
}

/** Section `scaling`. */
export async function scaling(context: Context): Promise<Result> {
  const measured = await builds(context.baseline);
  const goals: Goal[] = [];
  // One call first, before the big batches have grown the heap.
  const tables = [await againstInvoke(measured, goals)];
  for (const [kind, sizes, per] of [
    ['mixed', sized([1000, 10_000, 100_000], [100, 1000]), 900_000],
    ['capped', sized([1000, 10_000], [100, 1000]), 500_000],
  ] as const) {
    const capped = kind === 'capped';
    const options = capped ? { concurrency: { local: 1 } } : {};
    const runtimes = measured.map(({ api }) => runtimeOf(api, options));
    const callsFor = (size: number): ToolCall[] => {
      if (capped) return callsOf(size, 'noop_read');
      const random = seeded(0x5ca1e + size);
      return callsOf(size, 'x', (n) => `k${n % 100}`).map((call) => ({
        ...call,
        name: random() < 0.25 ? 'noop_write' : 'noop_item_read',
      }));
    };
    const [rows, step, s0] = [[] as Cell[][], capped ? 1 : 2, sizes[0]];
    // Every size in the same rounds: a ratio between sizes compares figures taken under the
    // same load. Every timed round holds about BLOCK calls whatever the batch size, with its
    // garbage collected inside it (`fenced`): so the small batches' collections count as
    // much as the big ones', and no variant pays for the garbage of the one before it.
    const variants: Variant[] = sizes.flatMap((size) => {
      const calls = callsFor(size);
      const own = {
        calls: size,
        runsPerRound: Math.max(1, Math.round(BLOCK / size)),
        warmupRuns: Math.ceil(30_000 / size),
      };
      return runtimes.flatMap((rt) => [
        { run: checked(rt, calls), ...own },
        ...(capped ? [] : [{ run: async () => rt.plan(calls), ...own }]),
      ]);
    });
    const rounds = sized(Math.max(3, Math.round(per / BLOCK)), 2);
    const f = await interleave(variants, { rounds, runsPerRound: 1, warmupRuns: 1, fenced: true });
    const perSize = runtimes.length * step;
    const at0 = (v: number) => (f[v] as PerCall).cpuUs;
    for (const [s, size] of sizes.entries()) {
      for (const [b, build] of measured.entries()) {
        const v = s * perSize + b * step;
        const exec = f[v] as PerCall;
        const plan = capped ? undefined : (f[v + 1] as PerCall);
        const ratio = exec.cpuUs / at0(b * step);
        const planRatio = (plan?.cpuUs ?? Number.NaN) / at0(b * step + 1);
        const row = [size, build.label, exec.cpuUs, exec.wallUs, ratio];
        if (plan) rows.push([...row, plan.cpuUs, plan.wallUs, planRatio]);
        else rows.push([...row, (ratio * size) / (s0 ?? 1)]);
        if (b > 0 || size === s0) continue;
        const of = `per call, ${size} / ${s0} calls (CPU)`;
        const what = capped ? 'one origin capped at 1' : 'mixed batch';
        goals.push(goal(`${what}: execute ${of}`, ratio, 1.5));
        if (plan) goals.push(goal(`mixed batch: plan() ${of}`, planRatio, 1.5));
      }
    }
    for (const rt of runtimes) await rt.close();
    const head = `calls|build|execute CPU µs/call|execute wall µs/call|execute / ${s0} (CPU)`;
    const plans = `plan() CPU µs/call|plan() wall µs/call|plan() / ${s0} (CPU)`;
    tables.push(table(`${head}|${capped ? `total / ${s0}` : plans}`, rows));
  }
  tables.push(await readBatches(measured, goals));
  return {
    method: `no-op calls (zod, mode \`yolo\`), each build's tools made by its own \`defineTool\`; medians of rotating rounds, builds interleaved, CPU = this process's user + system. First table: one read through \`execute\` of N calls against N \`invoke\`s of the same function as an \`@openai/agents\` \`tool()\`, 11 rounds of about 20,000 calls. Second: mixed batches (a read S on \`item:k\`, one in four a write X, 100 keys; seeded), \`execute\` and \`plan()\`, about 900,000 calls per size. Third: N lock-free reads of one origin capped at 1 call at a time, all ready at once, about 500,000 calls per size. Fourth: N reads that conflict with nothing, all ready at once, on 50 keys and on a new key per call (each build goes through a pool of batches of 20,000 keys or more in all, more than it remembers), about 300,000 calls per size. In the second, third and fourth tables every size of a table is measured in the same rotating rounds, so a ratio between sizes compares figures taken under the same load (before 2026-11-29 19:00Z each size had rounds of its own, minutes apart); in the second and third, every timed round is about 100,000 calls (100 batches of 1000, 10 of 10,000, one of 100,000), starts on a collected heap and ends with a full collection that is timed: each variant pays for all of its own garbage, and for none of another's. (Timing one batch of 1000 per round, as before 2026-11-29, left most of the small batches' collections out of the median and charged one build the other's garbage.)`,
    tables,
    goals,
  };
}
