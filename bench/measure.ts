/**
 * The measuring half of the bench harness: the quick switch, medians and percentiles, CPU
 * time of this process and of child processes (/proc), interleaved rounds, and the builds
 * measured (this one, and an older one given with `--baseline`).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** `--quick` or `HINTGATE_BENCH_QUICK=1`: tiny sizes for a smoke run; nothing is written. */
export const QUICK = process.argv.includes('--quick') || process.env.HINTGATE_BENCH_QUICK === '1';

/** `full` in a measuring run, `quick` in a quick one. */
export const sized = <T>(full: T, quick: T): T => (QUICK ? quick : full);

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));

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

/** Median (NaN when empty). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  const high = sorted[middle] as number;
  return sorted.length % 2 === 1 ? high : ((sorted[middle - 1] as number) + high) / 2;
}

/** Nearest-rank percentile `p` (0-100) of sorted values. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] ??
      Number.NaN);

/** The 1-minute load average now. */
export const loadNow = (): number => loadavg()[0] ?? 0;

/** CPU time (user + system, all threads) of this process so far, in µs. */
export function cpuUs(): number {
  const used = process.cpuUsage();
  return used.user + used.system;
}

/** Fields of /proc/<pid>/stat after the command name (NaN-yielding empty list when gone). */
const statOf = (pid: number): string[] => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
};

/** User + system CPU ms of process `pid`, with its descendants unless `own` (Linux; else NaN). */
export function procCpuMs(pid: number | undefined, own = false): number {
  if (pid === undefined) return Number.NaN;
  const fields = statOf(pid);
  // utime and stime, fields 14 and 15 of stat(5), in ticks of 10 ms.
  let total = (Number(fields[11]) + Number(fields[12])) * 10;
  if (own || fields.length === 0) return total;
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    for (const child of children === '' ? [] : children.split(' ')) total += procCpuMs(+child);
  } catch {
    // Ended meanwhile.
  }
  return total;
}

/** Involuntary context switches of process `pid` so far: the times it was preempted. */
export function preemptions(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** One variant measured in rounds: a unit of work and the calls it makes. */
export interface Variant {
  /** One run (a batch, a call); throws when a call did not end as expected. */
  readonly run: () => Promise<unknown>;
  readonly calls: number;
}

/** A variant's medians over the rounds: wall and CPU µs per call, and one run's wall µs. */
export interface PerCall {
  readonly wallUs: number;
  readonly cpuUs: number;
  readonly bestWallUs: number;
  readonly p50RunUs: number;
}

/**
 * Measures the variants in rounds after `warmupRuns` runs of each: in each round every
 * variant does `runsPerRound` runs, in an order rotating from round to round, so drift of the
 * machine hits all alike. A quick run makes 2 rounds of 1 run after 1 warm-up run.
 */
export async function interleave(
  variants: readonly Variant[],
  options: { rounds: number; runsPerRound: number; warmupRuns: number },
): Promise<PerCall[]> {
  const { rounds, runsPerRound, warmupRuns } = sized(options, {
    rounds: 2,
    runsPerRound: 1,
    warmupRuns: 1,
  });
  for (const variant of variants) for (let i = 0; i < warmupRuns; i += 1) await variant.run();
  const [wall, cpu, runs] = [0, 1, 2].map(() => variants.map((): number[] => []));
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < variants.length; turn += 1) {
      const index = (turn + round) % variants.length;
      const variant = variants[index] as Variant;
      const [cpuStart, start] = [cpuUs(), performance.now()];
      for (let i = 0, at = start; i < runsPerRound; i += 1) {
        await variant.run();
        runs?.[index]?.push((performance.now() - at) * 1000);
        at = performance.now();
      }
      const calls = variant.calls * runsPerRound;
      wall?.[index]?.push(((performance.now() - start) * 1000) / calls);
      cpu?.[index]?.push((cpuUs() - cpuStart) / calls);
    }
  }
  return variants.map((_, i) => ({
    wallUs: median(wall?.[i] ?? []),
    cpuUs: median(cpu?.[i] ?? []),
    bestWallUs: Math.min(...(wall?.[i] ?? [])),
    p50RunUs: median(runs?.[i] ?? []),
  }));
}

/** The package's API, as built in some dist/. */
export type Build = typeof import('hintgate');

/** A build measured: this checkout's dist/, or the older one given with `--baseline`. */
export interface Measured {
  readonly label: string;
  /** Its dist/ folder. */
  readonly dist: string;
  readonly api: Build;
}

/** This build, then the baseline when one is given. */
export async function builds(baseline: string | undefined): Promise<Measured[]> {
  const dists = [join(ROOT, 'dist'), ...(baseline === undefined ? [] : [baseline])];
  return Promise.all(
    dists.map(async (dist, index) => ({
      label: index === 0 ? 'this build' : 'baseline',
      dist,
      api: (await import(pathToFileURL(join(dist, 'index.js')).href)) as Build,
    })),
  );
}
