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
import type { ToolCall } from 'hintgate';
import { z } from 'zod';
import { interleave, machine, type PerCall, thousandCalls } from './measure.js';
import { type PerCallRow, perCallTable, runAlone, type SectionResult, section } from './report.js';
import { noopBatches } from './tools.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const baseline = values.baseline ?? '';
if (baseline === '')
  throw new Error('compare-builds: give --baseline <checkout of hintgate, built>');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 15;

interface ToolResultLike {
  readonly status: string;
}
/** The part of the package's API the comparison uses, in any build. */
interface Build {
  readonly createRuntime: (options: Record<string, unknown>) => {
    execute(calls: readonly ToolCall[]): Promise<readonly ToolResultLike[]>;
    turn?: () => {
      call(call: ToolCall): Promise<ToolResultLike>;
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

/** The checkout's commit, marked when its src/ has uncommitted changes. */
const commitOf = (checkout: string): string => {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', checkout, ...args], { encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src') === '' ? '' : ' + uncommitted changes'}`;
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

const check = (results: readonly ToolResultLike[]): void => {
  if (results.some((result) => result.status !== 'ok')) throw new Error('a call failed');
};

/** Measures both builds. */
async function compareBuilds(): Promise<SectionResult> {
  const started = machine();
  const [before, after] = [runtimeOf(await load(baseline)), runtimeOf(await load(ROOT))];
  const rounds = { rounds: ROUNDS, warmupRuns: 30, runsPerRound: 4 };
  const rows: PerCallRow[] = [];
  for (const [label, batch] of noopBatches) {
    const [b, a] = (await interleave(
      [before, after].map((runtime) =>
        thousandCalls(async () => check(await runtime.execute(batch)), batch.length),
      ),
      rounds,
    )) as [PerCall, PerCall];
    rows.push({ labels: [label, 'baseline build'], measured: b, baseline: b });
    rows.push({ labels: [label, 'current build'], measured: a, baseline: b });
  }
  // The reads handed over one call at a time (this build only: the baseline may lack turn()).
  const reads = noopBatches[0]?.[1] ?? [];
  const [viaExecute, viaTurn] = (await interleave(
    [
      thousandCalls(async () => check(await after.execute(reads)), reads.length),
      thousandCalls(async () => {
        const turn = (after.turn as NonNullable<typeof after.turn>)();
        for (const call of reads) void turn.call(call);
        check(await turn.end());
      }, reads.length),
    ],
    rounds,
  )) as [PerCall, PerCall];
  const label = '100 no-op reads, current build';
  rows.push({ labels: [label, '`execute`'], measured: viaExecute, baseline: viaExecute });
  rows.push({ labels: [label, 'one `turn().call` each'], measured: viaTurn, baseline: viaExecute });
  await Promise.all([before.close(), after.close()]);
  return section({
    heading: '## 6. Before/after: per-call overhead of execute, two builds in one run',
    command: 'bench/compare-builds.ts --baseline <checkout>',
    started,
    method: `baseline ${commitOf(baseline)}, current ${commitOf(ROOT)}: part 3's no-op batches (mode \`yolo\`, zod, each build's tools made by its own \`defineTool\`) through \`execute\` of both builds in one process, 30 warm-up runs of 1000 calls each, then ${ROUNDS} alternating rounds of 4000 calls; median µs per call. Last two rows: the 100 reads handed over one at a time through \`runtime.turn()\` against \`execute\`, same rounds, current build.`,
    tables: [perCallTable(['scenario', 'variant'], rows)],
  });
}

runAlone(import.meta.url, compareBuilds);
