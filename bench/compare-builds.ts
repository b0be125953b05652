/**
 * Per-call overhead of `execute` in two builds, measured in one run: `npm run build && npx
 * tsx --tsconfig bench/tsconfig.json bench/compare-builds.ts --baseline <checkout> [--write]`,
 * where `<checkout>` is another checkout of hintgate with its own `npm run build` done (for
 * example `git worktree add /tmp/base <commit>`, then `npm ci` or a `node_modules` link, and
 * `npm run build` there).
 *
 * Runs part 3's no-op batches through `createRuntime(...).execute` of both builds, each
 * build with tools made by its own `defineTool`, in interleaved rounds (the builds take
 * turns, in alternating order), and prints µs per call of each and their ratio. The same
 * batch handed over call by call through `runtime.turn()` is measured for this build only
 * (the baseline may not have it). With `--write`, the table replaces the section "5." of
 * bench/RESULTS.md.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  fixed,
  loadNow,
  machine,
  median,
  BUILD_COMPARISON_HEADING as SECTION,
  table,
} from './report.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '15' },
    write: { type: 'boolean', default: false },
  },
});
if (values.baseline === undefined) {
  process.stderr.write('compare-builds: give --baseline <checkout of hintgate, built>\n');
  process.exit(2);
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BATCH = 100;
const WARMUP_BATCHES = 300;
const BATCHES_PER_ROUND = 40;
const ROUNDS = Number(values.rounds);

interface ToolResultLike {
  readonly status: string;
}
interface CallLike {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}
/** The part of the package's API the comparison uses, in any build. */
interface Build {
  readonly createRuntime: (options: Record<string, unknown>) => {
    execute(calls: readonly CallLike[]): Promise<readonly ToolResultLike[]>;
    turn?: () => {
      call(call: CallLike): Promise<ToolResultLike>;
      end(): Promise<readonly ToolResultLike[]>;
    };
    close(): Promise<void>;
  };
  readonly defineTool: (options: Record<string, unknown>) => unknown;
  readonly READ_ONLY: unknown;
  readonly WRITE: unknown;
}

const load = async (checkout: string): Promise<Build> =>
  (await import(pathToFileURL(join(checkout, 'dist', 'index.js')).href)) as Build;

const commitOf = (checkout: string): string => {
  try {
    const head = execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['-C', checkout, 'status', '--porcelain', '--', 'src'], {
      encoding: 'utf8',
    }).trim();
    return dirty === '' ? head : `${head} + uncommitted changes`;
  } catch {
    return 'unknown';
  }
};

/** A runtime of `build` in mode yolo over part 3's no-op tools, made by its own defineTool. */
const runtimeOf = (build: Build) =>
  build.createRuntime({
    mode: 'yolo',
    tools: [
      build.defineTool({
        name: 'noop_read',
        description: 'Returns a short string at once.',
        annotations: build.READ_ONLY,
        inputSchema: z.object({ n: z.number() }),
        execute: ({ n }: { n: number }) => `ok ${n}`,
      }),
      build.defineTool({
        name: 'noop_write',
        description: 'Pretends to write an item and returns a short string at once.',
        annotations: build.WRITE,
        inputSchema: z.object({ n: z.number(), key: z.string() }),
        resources: ['item:{key}'],
        execute: ({ n }: { n: number }) => `ok ${n}`,
      }),
    ],
  });

const calls = (size: number, make: (n: number) => CallLike): CallLike[] =>
  Array.from({ length: size }, (_, n) => make(n));

const SCENARIOS: ReadonlyArray<readonly [string, CallLike[]]> = [
  [
    `${BATCH} no-op reads`,
    calls(BATCH, (n) => ({ id: `r${n}`, name: 'noop_read', arguments: { n } })),
  ],
  [
    `${BATCH} no-op writes, distinct keys`,
    calls(BATCH, (n) => ({ id: `w${n}`, name: 'noop_write', arguments: { n, key: `k${n}` } })),
  ],
  [
    `${BATCH} no-op writes, one key`,
    calls(BATCH, (n) => ({ id: `s${n}`, name: 'noop_write', arguments: { n, key: 'shared' } })),
  ],
  [
    `${BATCH * 10} no-op writes, one key`,
    calls(BATCH * 10, (n) => ({
      id: `s${n}`,
      name: 'noop_write',
      arguments: { n, key: 'shared' },
    })),
  ],
];

type Runner = () => Promise<readonly ToolResultLike[]>;

const HEADERS = [
  'scenario',
  'baseline wall µs/call',
  'current wall µs/call',
  'wall current / baseline',
  'baseline CPU µs/call',
  'current CPU µs/call',
  'CPU current / baseline',
];

/** One round: wall clock and CPU time (user + system, this process) per call, in µs. */
interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

/** µs per call of one round of `batches` runs of `run` over `size` calls. */
async function round(run: Runner, size: number, batches: number): Promise<Sample> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let batch = 0; batch < batches; batch += 1) {
    const results = await run();
    if (results.some((result) => result.status !== 'ok')) throw new Error('a call failed');
  }
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const calls = batches * size;
  return { wall: (wall * 1000) / calls, cpu: (cpu.user + cpu.system) / calls };
}

const medianOf = (samples: readonly Sample[], key: keyof Sample): number =>
  median(samples.map((sample) => sample[key]));

async function main(): Promise<void> {
  const baselineDir = values.baseline as string;
  const builds = { baseline: await load(baselineDir), current: await load(ROOT) };
  const runtimes = {
    baseline: runtimeOf(builds.baseline),
    current: runtimeOf(builds.current),
  };
  const host = machine();
  const rows: string[][] = [];
  for (const [label, batch] of SCENARIOS) {
    const scale = Math.max(1, Math.round(batch.length / BATCH));
    const perRound = Math.ceil(BATCHES_PER_ROUND / scale);
    const runners: Record<'baseline' | 'current', Runner> = {
      baseline: () => runtimes.baseline.execute(batch),
      current: () => runtimes.current.execute(batch),
    };
    for (const name of ['baseline', 'current'] as const) {
      await round(runners[name], batch.length, Math.ceil(WARMUP_BATCHES / scale));
    }
    const samples = { baseline: [] as Sample[], current: [] as Sample[] };
    for (let r = 0; r < ROUNDS; r += 1) {
      const order =
        r % 2 === 0 ? (['baseline', 'current'] as const) : (['current', 'baseline'] as const);
      for (const name of order) {
        samples[name].push(await round(runners[name], batch.length, perRound));
      }
    }
    const cells = (['wall', 'cpu'] as const).flatMap((key) => {
      const before = medianOf(samples.baseline, key);
      const after = medianOf(samples.current, key);
      return [fixed(before, 2), fixed(after, 2), fixed(after / before, 3)];
    });
    rows.push([label, ...cells]);
    process.stdout.write(`${label}: ${cells.join(' | ')}\n`);
  }
  // The same reads handed over one call at a time (this build only).
  const reads = SCENARIOS[0]?.[1] as CallLike[];
  const viaTurn: Runner = () => {
    const turn = (runtimes.current.turn as NonNullable<typeof runtimes.current.turn>)();
    for (const call of reads) void turn.call(call);
    return turn.end();
  };
  const viaExecute: Runner = () => runtimes.current.execute(reads);
  await round(viaTurn, BATCH, WARMUP_BATCHES);
  const turnSamples: Sample[] = [];
  const executeSamples: Sample[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    executeSamples.push(await round(viaExecute, BATCH, BATCHES_PER_ROUND));
    turnSamples.push(await round(viaTurn, BATCH, BATCHES_PER_ROUND));
  }
  const turnUs = medianOf(turnSamples, 'cpu');
  const executeUs = medianOf(executeSamples, 'cpu');
  await Promise.all([runtimes.baseline.close(), runtimes.current.close()]);

  const body = `${SECTION}

Generated by \`bench/compare-builds.ts --baseline <checkout>\`: part 3's no-op batches (mode \`yolo\`, zod schemas, each build with tools made by its own \`defineTool\`) through \`execute\` of two builds loaded into one process, ${WARMUP_BATCHES} warm-up batches each, then ${ROUNDS} rounds of ${BATCHES_PER_ROUND} batches per build (a tenth as many for the 1000-call batch), the builds taking turns in alternating order; median µs per call of the rounds, as wall clock and as CPU time of the process (user + system, which other processes on the machine disturb less).

- Machine: ${host.cpu}, ${host.cores} cores; Node ${host.node}; ${host.date}; load average (1 min) at the end: ${fixed(loadNow(), 2)}
- Baseline: ${commitOf(baselineDir)}; current: ${commitOf(ROOT)}

${table(HEADERS, rows)}

The same ${BATCH} reads handed over one at a time through \`runtime.turn()\` (each call its own result and audit wait, then \`end()\`), current build: ${fixed(turnUs, 2)} CPU µs per call, against ${fixed(executeUs, 2)} through \`execute\` in the same rounds (${fixed(turnUs / executeUs, 3)}x).
`;
  process.stdout.write(`\n${body}`);
  if (values.write === true) {
    const path = join(ROOT, 'bench', 'RESULTS.md');
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(SECTION);
    const kept = at < 0 ? `${text.trimEnd()}\n` : text.slice(0, at);
    // Sections after this one (written by other scripts) stay.
    const next = at < 0 ? -1 : text.indexOf('\n## ', at + SECTION.length);
    writeFileSync(path, `${kept}\n${body}${next < 0 ? '' : `\n${text.slice(next + 1)}`}`);
  }
}

await main();
