/**
 * Per-call overhead of `execute` in two builds, in one run: `npx tsx --tsconfig
 * bench/tsconfig.json bench/compare-builds.ts --baseline <checkout> [--write]`, where
 * `<checkout>` is another checkout of hintgate with its own `npm run build` done (for
 * example `git worktree add /tmp/base <commit>`, a `node_modules` link, `npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { interleave, machine, type PerCall } from './measure.js';
import { fixed, runAlone, type SectionResult, section, table } from './report.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '15' },
    write: { type: 'boolean', default: false },
  },
});
const baseline = values.baseline ?? '';
if (baseline === '')
  throw new Error('compare-builds: give --baseline <checkout of hintgate, built>');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BATCH = 100;
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

const check = (results: readonly ToolResultLike[]): void => {
  if (results.some((result) => result.status !== 'ok')) throw new Error('a call failed');
};

/** Measures both builds. */
async function compareBuilds(): Promise<SectionResult> {
  const started = machine();
  const runtimes = [runtimeOf(await load(baseline)), runtimeOf(await load(ROOT))] as const;
  const rounds = { rounds: ROUNDS, warmupRuns: 30, runsPerRound: 4 };
  const rows: string[][] = [];
  for (const [label, batch] of SCENARIOS) {
    // A run is 1000 calls: ten batches of 100 or one of 1000.
    const variants = runtimes.map((runtime) => ({
      calls: 1000,
      run: async () => {
        for (let i = 0; i < 1000 / batch.length; i += 1) check(await runtime.execute(batch));
      },
    }));
    const [before, after] = (await interleave(variants, rounds)) as [PerCall, PerCall];
    rows.push([
      label,
      ...(['wallUs', 'cpuUs'] as const).flatMap((key) => [
        fixed(before[key], 2),
        fixed(after[key], 2),
        fixed(after[key] / before[key], 3),
      ]),
    ]);
  }
  // The same reads handed over one call at a time (this build only: the baseline may lack turn()).
  const current = runtimes[1];
  const reads = SCENARIOS[0]?.[1] ?? [];
  const tenTimes = (batch: () => Promise<readonly ToolResultLike[]>) => ({
    calls: 1000,
    run: async () => {
      for (let i = 0; i < 10; i += 1) check(await batch());
    },
  });
  const [viaExecute, viaTurn] = (await interleave(
    [
      tenTimes(() => current.execute(reads)),
      tenTimes(() => {
        const turn = (current.turn as NonNullable<typeof current.turn>)();
        for (const call of reads) void turn.call(call);
        return turn.end();
      }),
    ],
    rounds,
  )) as [PerCall, PerCall];
  await Promise.all(runtimes.map((runtime) => runtime.close()));
  return section({
    heading: '## 6. Before/after: per-call overhead of execute, two builds in one run',
    command: 'bench/compare-builds.ts --baseline <checkout>',
    started,
    method: `baseline ${commitOf(baseline)}, current ${commitOf(ROOT)}: part 3's no-op batches (mode \`yolo\`, zod, each build's tools made by its own \`defineTool\`) through \`execute\` of both builds in one process, 30,000 warm-up calls each, then ${ROUNDS} alternating rounds of 4000 calls; median µs per call, wall and CPU. Last row: the 100 reads handed over one at a time through \`runtime.turn()\` against \`execute\` in the same rounds, current build.`,
    tables: [
      table(
        [
          'scenario',
          'baseline wall µs/call',
          'current wall µs/call',
          'wall current / baseline',
          'baseline CPU µs/call',
          'current CPU µs/call',
          'CPU current / baseline',
        ],
        rows,
      ),
      table(
        [
          'current build, 100 reads',
          'execute CPU µs/call',
          'turn() CPU µs/call',
          'turn() / execute',
        ],
        [
          [
            'one turn per call',
            fixed(viaExecute.cpuUs, 2),
            fixed(viaTurn.cpuUs, 2),
            fixed(viaTurn.cpuUs / viaExecute.cpuUs, 3),
          ],
        ],
      ),
    ],
  });
}

runAlone(import.meta.url, compareBuilds);
