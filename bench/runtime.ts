/**
 * The runtime in process. `strategies`: hintgate against the strategies of other harnesses on
 * the same batches of sleeping tools, and read-only batches against `Promise.allSettled`.
 * `overhead`: the pipeline's cost per call with no-op tools. `scaling`: that cost as batches
 * grow, for one capped origin, and one call against the OpenAI Agents SDK's
 * `FunctionTool.invoke`. `overhead` and `scaling` measure a `--baseline` build beside this one.
 */
import { RunContext, setTracingDisabled, tool } from '@openai/agents';
import { functionCall } from '@openai/agents/testing';
import {
  type CallResult,
  createRuntime,
  DESTRUCTIVE,
  defineTool,
  READ_ONLY,
  type Runtime,
  type Tool,
  type ToolAnnotations,
  type ToolCall,
  WRITE,
} from 'hintgate';
import { z } from 'zod';
import { type Build, builds, interleave, type PerCall, sized, type Variant } from './measure.js';
import { type Context, type Goal, goal, type Result, type Row, table } from './report.js';

type Kind = 'READ' | 'WRITE' | 'DELETE' | 'SEARCH';
type Args = { path?: string; ms: number };
interface Spec extends Args {
  readonly kind: Kind;
}
interface Batch {
  readonly title: string;
  readonly shape: string;
  readonly calls: readonly Spec[];
}

const sleeper = (name: string, annotations: ToolAnnotations, keyed: boolean): Tool<Args> =>
  defineTool({
    name,
    description: `${name} (simulated: sleeps for \`ms\`).`,
    annotations,
    inputSchema: z.object({ path: keyed ? z.string() : z.string().optional(), ms: z.number() }),
    ...(keyed ? { resources: ['file:{path}'] } : {}),
    execute: async ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(name), ms)),
  }) as Tool<Args>;
const TOOLS: Record<Kind, Tool<Args>> = {
  READ: sleeper('read_file', READ_ONLY, true),
  WRITE: sleeper('write_file', WRITE, true),
  DELETE: sleeper('delete_file', DESTRUCTIVE, true),
  SEARCH: sleeper('search', READ_ONLY, false),
};

/** Mulberry32, a seeded PRNG: the same latencies on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A batch from its shape: `READ(a)` reads `src/a.ts`, `SEARCH` has no key, `@120` fixes ms. */
function batch(title: string, shape: string, draw: () => number): Batch {
  const calls = shape.split(' ').map((word): Spec => {
    const [, kind = '', name, ms] = /^([A-Z]+)(?:\((\w+)\))?(?:@(\d+))?$/.exec(word) ?? [];
    const latency = ms === undefined ? draw() : Number(ms);
    return { kind: kind as Kind, ms: latency, ...(name ? { path: `src/${name}.ts` } : {}) };
  });
  return { title, shape: `[${shape.replace(/@\d+/g, '').replaceAll(' ', ', ')}]`, calls };
}
const drawer = (seed: number, min: number, max: number) => {
  const random = seeded(seed);
  return () => min + Math.floor(random() * (max - min + 1));
};
const MIXED: readonly (readonly [string, string])[] = [
  ['8 reads (2 key-less)', 'READ(a) READ(b) SEARCH READ(c) READ(d) READ(e) SEARCH READ(f)'],
  ['reads, 2 writes, read-after-write', 'READ(c) READ(d) WRITE(a) WRITE(b) READ(a)'],
  [
    '4 distinct writes then their reads',
    'WRITE(a) WRITE(b) WRITE(c) WRITE(d) READ(a) READ(b) READ(c) READ(d)',
  ],
  [
    'mixed 12 calls, 3 files, same-file writes',
    'READ(a) READ(b) WRITE(a) READ(c) WRITE(b) WRITE(a) READ(b) READ(c) WRITE(c) READ(a) WRITE(b) READ(c)',
  ],
  [
    'one slow write among reads of other files',
    'READ(b) READ(c) READ(d) READ(e) READ(f) WRITE(a)@120 READ(g) READ(h) READ(i) READ(j) READ(k)',
  ],
  [
    'one destructive call among reads of other files',
    'READ(b) READ(c) READ(d) DELETE(a) READ(e) READ(f) READ(g)',
  ],
  ['key-less search between writes', 'WRITE(a) SEARCH WRITE(b) READ(a)'],
  ['same-file chain (fully serial)', 'WRITE(a) WRITE(a) READ(a) WRITE(a)'],
];

const writes = (call: Spec): boolean => call.kind === 'WRITE' || call.kind === 'DELETE';
/**
 * DESIGN's lock table for these tools (one origin; a keyed call takes IS/IX up the tree and S/X
 * on its file, a key-less read S on the root): two calls conflict when one writes and they
 * share a file or one has no key.
 */
const conflicts = (a: Spec, b: Spec): boolean =>
  (writes(a) || writes(b)) && (a.path === undefined || b.path === undefined || a.path === b.path);
/** For each call, the earlier calls it conflicts with. */
const conflictSets = (of: Batch): number[][] =>
  of.calls.map((call, j) =>
    of.calls.slice(0, j).flatMap((e, i) => (conflicts(e, call) ? [i] : [])),
  );
/** finish(j) = ms(j) + the latest finish of an earlier conflicting call: no order-keeping scheduler does better. */
function criticalPath(of: Batch): number {
  const finish: number[] = [];
  for (const [j, set] of conflictSets(of).entries())
    finish.push((of.calls[j]?.ms ?? 0) + Math.max(0, ...set.map((i) => finish[i] ?? 0)));
  return Math.max(...finish);
}
const argsOf = ({ path, ms }: Spec): Args => (path === undefined ? { ms } : { path, ms });
const toCalls = (of: Batch): ToolCall[] =>
  of.calls.map((call, i) => ({
    id: `c${i}`,
    name: TOOLS[call.kind].name,
    arguments: argsOf(call),
  }));

/** A call run straight by its tool; a failure becomes its value, as `allSettled` does. */
const invoke = (call: Spec, i: number): Promise<unknown> =>
  Promise.resolve()
    .then(() =>
      TOOLS[call.kind].execute(argsOf(call), {
        signal: new AbortController().signal,
        callId: `c${i}`,
        attempt: 1,
      }),
    )
    .catch((error: unknown) => error);
/** (1) sequential. */
async function sequential(of: Batch): Promise<void> {
  for (const [i, call] of of.calls.entries()) await invoke(call, i);
}
/** (2) `Promise.allSettled` when every call is read-only, else sequential (ak-coder). */
const allReadOrSequential = async (of: Batch): Promise<unknown> =>
  of.calls.some(writes) ? sequential(of) : Promise.allSettled(of.calls.map(invoke));
/** (3) consecutive reads as one wave, every other call alone after it (Codex CLI, Gemini CLI). */
async function readWaves(of: Batch): Promise<void> {
  let wave: Promise<unknown>[] = [];
  for (const [i, call] of of.calls.entries()) {
    if (!writes(call)) wave.push(invoke(call, i));
    else {
      await Promise.all(wave);
      wave = [];
      await invoke(call, i);
    }
  }
  await Promise.all(wave);
}

/** True when every call the plan waits for conflicts with it, and its closure is the model's set. */
async function planAgrees(runtime: Runtime, of: Batch): Promise<boolean> {
  const plan = await runtime.plan(toCalls(of));
  const waits = plan.map((entry) => entry.waitsFor.map((id) => Number(id.slice(1))));
  const model = conflictSets(of);
  return plan.every((entry, j) => {
    const seen = new Set<number>();
    const stack = [...(waits[j] ?? [])];
    for (let i = stack.pop(); i !== undefined; i = stack.pop()) {
      if (!seen.has(i)) stack.push(...(waits[i] ?? []));
      seen.add(i);
    }
    const expected = model[j] ?? [];
    const kept = [...seen].filter((i) => expected.includes(i)).sort((a, b) => a - b);
    return (
      entry.runnable &&
      (waits[j] ?? []).every((i) => expected.includes(i)) &&
      `${kept}` === `${expected}`
    );
  });
}

/** Ms per run of each variant: median of 5 rotating rounds after a warm-up; ids not ok into `failed`. */
async function msOf(works: (() => Promise<unknown>)[], failed: Set<string>): Promise<number[]> {
  const variants = works.map((work) => ({
    calls: 1,
    run: async () => {
      const results = await work();
      for (const r of Array.isArray(results) ? (results as CallResult[]) : [])
        if (r.status !== undefined && r.status !== 'ok') failed.add(r.id);
    },
  }));
  return (await interleave(variants, { rounds: 5, runsPerRound: 1, warmupRuns: 1 })).map(
    (m) => m.wallUs / 1000,
  );
}

/** Section `strategies`. */
export async function strategies(): Promise<Result> {
  const runtime = createRuntime({ tools: Object.values(TOOLS), mode: 'yolo' });
  const goals: Goal[] = [];
  const mixed: Row[] = [];
  const draw = drawer(0x5eed, 20, 120);
  for (const [n, [title, shape]] of MIXED.entries()) {
    const of = batch(title, shape, draw);
    const failed = new Set<string>();
    const works = [sequential, allReadOrSequential, readWaves].map((s) => () => s(of));
    const [seq = 0, all = 0, waves = 0, hg = 0] = await msOf(
      [...works, () => runtime.execute(toCalls(of))],
      failed,
    );
    const critical = criticalPath(of);
    if (of.calls.some(writes))
      goals.push(goal(`batch ${n + 1}: hintgate / critical path`, hg / critical, 1.05));
    mixed.push({
      '#': n + 1,
      'batch (shape)': `${title}: \`${of.shape}\``,
      'sum ms': of.calls.reduce((sum, c) => sum + c.ms, 0),
      'critical path ms': critical,
      '(1) ms': seq,
      '(2) ms': all,
      '(3) ms': waves,
      'hintgate ms': hg,
      'hintgate / critical': hg / critical,
      '(1) / hintgate': seq / hg,
      'best of (2),(3) / hintgate': Math.min(all, waves) / hg,
      'plan agrees': (await planAgrees(runtime, of)) ? 'yes' : 'no',
      'calls not ok': [...failed].join(', ') || 'none',
    });
  }
  const reads: Row[] = [];
  for (const size of sized([1, 2, 4, 8, 16, 32, 64], [1, 8])) {
    const shape = Array.from({ length: size }, (_, i) => `READ(r${i})`).join(' ');
    const of = batch(`${size} reads`, shape, drawer(0xbee5 + size, 20, 100));
    const failed = new Set<string>();
    const [plain = 0, hg = 0] = await msOf(
      [() => allReadOrSequential(of), () => runtime.execute(toCalls(of))],
      failed,
    );
    const slowest = Math.max(...of.calls.map((c) => c.ms));
    goals.push(goal(`${size} reads: hintgate / Promise.allSettled`, hg / plain, 1.05));
    const calls = {
      calls: size,
      'sum ms': of.calls.reduce((sum, c) => sum + c.ms, 0),
      'slowest call ms': slowest,
      'Promise.allSettled ms': plain,
      'hintgate ms': hg,
    };
    reads.push({
      ...calls,
      'hintgate / allSettled': hg / plain,
      'hintgate / slowest': hg / slowest,
      'calls not ok': [...failed].join(', ') || 'none',
    });
  }
  await runtime.close();
  return {
    method:
      'tools sleep on a real timer for their latency (seeded: 20-120 ms in the first table, 20-100 in the second). (1) sequential; (2) `Promise.allSettled` if every call is read-only, else sequential; (3) consecutive reads as one wave; hintgate `execute`, mode `yolo`. Critical path from DESIGN\'s lock table (a model independent of src/). Median of 5 rotating rounds after a warm-up run. "plan agrees": `runtime.plan` waits only for conflicting calls and its closure is the model\'s conflict set.',
    tables: [table(mixed), table(reads)],
    goals,
  };
}

/** The no-op tools of `build`, made by its own `defineTool`: `noop_read`, `noop_item_read`, `noop_write`. */
const noopTools = (build: Build, keyed = true) => [
  build.defineTool({
    name: 'noop_read',
    description: 'No-op.',
    annotations: build.READ_ONLY,
    inputSchema: z.object({ n: z.number() }),
    execute: ({ n }) => `ok ${n}`,
  }),
  ...(['noop_item_read', 'noop_write'] as const).map((name) =>
    build.defineTool({
      name,
      description: 'No-op on an item.',
      annotations: name === 'noop_write' ? build.WRITE : build.READ_ONLY,
      inputSchema: z.object({ n: z.number(), key: z.string() }),
      ...(keyed ? { resources: ['item:{key}'] } : {}),
      execute: ({ n }) => `ok ${n}`,
    }),
  ),
];
const runtimeOf = (build: Build, options: { concurrency?: { local: number } } = {}): Runtime =>
  build.createRuntime({ tools: noopTools(build), mode: 'yolo', ...options });
const callsOf = (size: number, name: string, key?: (n: number) => string): ToolCall[] =>
  Array.from({ length: size }, (_, n) => ({
    id: `c${n}`,
    name,
    arguments: key ? { n, key: key(n) } : { n },
  }));
const checked = (runtime: Runtime, calls: readonly ToolCall[]) => async () => {
  const failed = (await runtime.execute(calls)).find((r) => r.status !== 'ok');
  if (failed !== undefined) throw new Error(`${failed.id} ended ${failed.status}`);
};
/** Runs of `batch` until 1000 calls, so batches of every size weigh alike. */
const thousand = (run: () => Promise<unknown>, size: number): Variant => ({
  calls: 1000,
  run: async () => {
    for (let i = 0; i < 1000 / size; i += 1) await run();
  },
});

/** Section `overhead`. */
export async function overhead(context: Context): Promise<Result> {
  const measured = await builds(context.baseline);
  const runtimes = measured.map(({ api }) => runtimeOf(api));
  const scenarios: [string, ToolCall[]][] = [
    ['100 no-op reads', callsOf(100, 'noop_read')],
    ['100 no-op writes, distinct keys', callsOf(100, 'noop_write', (n) => `k${n}`)],
    ['100 no-op writes, one key', callsOf(100, 'noop_write', () => 'shared')],
    ['1000 no-op writes, one key', callsOf(1000, 'noop_write', () => 'shared')],
  ];
  const reads = scenarios[0]?.[1] ?? [];
  const [mine, ...others] = runtimes as [Runtime, ...Runtime[]];
  const read = noopTools(measured[0]?.api as Build)[0] as Tool<{ n: number }>;
  const ctx = { signal: new AbortController().signal, callId: 'x', attempt: 1 };
  const variants: [string, string, Variant][] = [
    ...scenarios.flatMap(([label, calls]) =>
      [mine, ...others].map((rt, b): [string, string, Variant] => [
        label,
        measured[b]?.label ?? '',
        thousand(checked(rt, calls), calls.length),
      ]),
    ),
    [
      '100 no-op reads, one `turn().call` each',
      'this build',
      thousand(async () => {
        const turn = mine.turn();
        for (const call of reads) void turn.call(call);
        await turn.end();
      }, 100),
    ],
    [
      'reference: zod validate + execute, no pipeline',
      '',
      thousand(async () => {
        for (const call of reads) {
          const valid = read.inputSchema.validate(call.arguments);
          if (!(valid instanceof Promise) && valid.ok) read.execute(valid.value, ctx);
        }
      }, 100),
    ],
  ];
  const m = await interleave(
    variants.map(([, , v]) => v),
    { rounds: 15, runsPerRound: 4, warmupRuns: 30 },
  );
  for (const rt of runtimes) await rt.close();
  const floor = m.at(-1) as PerCall;
  const goals = variants.flatMap(([label, build], i) =>
    build === 'this build'
      ? [
          goal(
            `${label}: wall µs added over the reference`,
            (m[i]?.wallUs ?? Number.NaN) - floor.wallUs,
            20,
            'µs',
          ),
        ]
      : [],
  );
  const rows = variants.map(([scenario, build], i): Row => {
    const own = m[i] as PerCall;
    const base = build === 'this build' ? m[i + 1] : undefined;
    return {
      scenario,
      build,
      'wall µs/call': own.wallUs,
      'best round wall µs/call': own.bestWallUs,
      'CPU µs/call': own.cpuUs,
      'wall added over reference µs': own.wallUs - floor.wallUs,
      ...(others.length > 0 && i < scenarios.length * 2
        ? { 'CPU / baseline': base ? own.cpuUs / base.cpuUs : '' }
        : {}),
    };
  });
  return {
    method: `batches of no-op calls (zod schemas, each build's tools made by its own \`defineTool\`) through one runtime per build, mode \`yolo\`; every variant runs 1000 calls a run, 4 runs a round, in 15 rotating rounds after 30 warm-up runs; median per call. The reference validates and executes the 100 reads with no pipeline.`,
    tables: [table(rows)],
    goals,
  };
}

/** `execute` against `FunctionTool.invoke` of the same function, N calls awaited together. */
async function againstInvoke(
  measured: readonly { label: string; api: Build }[],
  rows: Row[],
  goals: Goal[],
): Promise<void> {
  setTracingDisabled(true);
  const plain = tool({
    name: 'noop_read',
    description: 'No-op.',
    parameters: {
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
      additionalProperties: false,
    },
    execute: (input) => `ok ${(input as { n: number }).n}`,
  });
  const runtimes = measured.map(({ api }) => runtimeOf(api));
  for (const count of [1, 10, 100]) {
    const calls = callsOf(count, 'noop_read');
    const items = calls.map(
      (call, n) =>
        [JSON.stringify({ n }), functionCall('noop_read', { n }, { callId: call.id })] as const,
    );
    const invokeAll = () => {
      const context = new RunContext();
      return Promise.all(
        items.map(([json, item]) => plain.invoke(context, json, { toolCall: item })),
      );
    };
    const runs = sized(Math.round(20_000 / count), 10);
    const m = await interleave(
      [invokeAll, ...runtimes.map((rt) => checked(rt, calls))].map((run) => ({
        calls: count,
        run,
      })),
      { rounds: 11, runsPerRound: runs, warmupRuns: runs * 5 },
    );
    const invoked = m[0]?.cpuUs ?? Number.NaN;
    for (const [b, build] of measured.entries()) {
      const cpu = m[b + 1]?.cpuUs ?? Number.NaN;
      rows.push({
        'calls per batch': count,
        build: build.label,
        'execute CPU µs/call': cpu,
        '`FunctionTool.invoke` CPU µs/call': invoked,
        'execute / invoke': cpu / invoked,
      });
    }
    const cpu = m[1]?.cpuUs ?? Number.NaN;
    if (count === 1)
      goals.push(goal('one call: execute / `FunctionTool.invoke` (CPU)', cpu / invoked, 1));
    if (count === 100)
      goals.push(goal('batch of 100: execute CPU per call (absolute)', cpu, 5, 'µs'));
  }
  for (const rt of runtimes) await rt.close();
}

/** Section `scaling`. */
export async function scaling(context: Context): Promise<Result> {
  const measured = await builds(context.baseline);
  const goals: Goal[] = [];
  const single: Row[] = [];
  // One call first, before the big batches have grown the heap.
  await againstInvoke(measured, single, goals);
  const grown: Row[] = [];
  const capped: Row[] = [];
  for (const [kind, sizes, per] of [
    ['mixed', sized([1000, 10_000, 100_000], [100, 1000]), 300_000],
    ['capped', sized([1000, 10_000], [100, 1000]), 100_000],
  ] as const) {
    const runtimes = measured.map(({ api }) =>
      runtimeOf(api, kind === 'capped' ? { concurrency: { local: 1 } } : {}),
    );
    const callsFor = (size: number): ToolCall[] => {
      if (kind === 'capped') return callsOf(size, 'noop_read');
      const random = seeded(0x5ca1e + size);
      return callsOf(size, 'x', (n) => `k${n % 100}`).map((call) => ({
        ...call,
        name: random() < 0.25 ? 'noop_write' : 'noop_item_read',
      }));
    };
    const first: number[] = [];
    for (const size of sizes) {
      const calls = callsFor(size);
      const variants = runtimes.flatMap((rt) => [
        { calls: size, run: checked(rt, calls) },
        ...(kind === 'mixed' ? [{ calls: size, run: () => rt.plan(calls) }] : []),
      ]);
      const warm = sized(Math.ceil(30_000 / size), 1);
      const m = await interleave(variants, {
        rounds: sized(Math.max(3, Math.round(per / size)), 2),
        runsPerRound: 1,
        warmupRuns: warm,
      });
      const step = kind === 'mixed' ? 2 : 1;
      if (first.length === 0) first.push(...m.map((x) => x.cpuUs));
      for (const [b, build] of measured.entries()) {
        const [exec, plan] = [m[b * step], m[b * step + 1]] as [PerCall, PerCall | undefined];
        const ratio = exec.cpuUs / (first[b * step] ?? Number.NaN);
        const planRatio = plan ? plan.cpuUs / (first[b * step + 1] ?? Number.NaN) : Number.NaN;
        const row = {
          calls: size,
          build: build.label,
          'execute CPU µs/call': exec.cpuUs,
          'execute wall µs/call': exec.wallUs,
          [`execute / ${sizes[0]} (CPU)`]: ratio,
        };
        if (kind === 'capped')
          capped.push({ ...row, [`total / ${sizes[0]}`]: (ratio * size) / (sizes[0] ?? 1) });
        else
          grown.push({
            ...row,
            'plan() CPU µs/call': plan?.cpuUs ?? Number.NaN,
            'plan() wall µs/call': plan?.wallUs ?? Number.NaN,
            [`plan() / ${sizes[0]} (CPU)`]: planRatio,
          });
        if (b > 0 || size === sizes[0]) continue;
        goals.push(
          goal(
            `${kind === 'capped' ? 'one origin capped at 1' : 'mixed batch'}: execute per call, ${size} / ${sizes[0]} calls (CPU)`,
            ratio,
            1.5,
          ),
        );
        if (plan)
          goals.push(
            goal(`mixed batch: plan() per call, ${size} / ${sizes[0]} calls (CPU)`, planRatio, 1.5),
          );
      }
    }
    for (const rt of runtimes) await rt.close();
  }
  return {
    method: `no-op calls (zod, mode \`yolo\`), each build's tools made by its own \`defineTool\`; medians of rotating rounds, builds interleaved, CPU = this process's user + system. First table: one read through \`execute\` of N calls against N \`invoke\`s of the same function as an \`@openai/agents\` \`tool()\`, 11 rounds of about 20,000 calls. Second: mixed batches (a read S on \`item:k\`, one in four a write X, 100 keys; seeded), \`execute\` and \`plan()\`, about 300,000 calls per size. Third: N lock-free reads of one origin capped at 1 call at a time, all ready at once, about 100,000 calls per size.`,
    tables: [table(single), table(grown), table(capped)],
    goals,
  };
}
