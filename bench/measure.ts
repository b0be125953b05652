/**
 * The measuring half of the bench harness: medians and percentiles, interleaved rounds with
 * wall and CPU time per call, CPU of child processes, and the machine and its load.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';

/** Median of a list (mean of the middle two for an even count; NaN when empty). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Nearest-rank percentile `p` (0-100) of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** The machine a run happened on, and when. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  /** ISO time of the call. */
  readonly date: string;
  /** 1-minute load average at the call: other work on the machine skews timings. */
  readonly load: number;
}

/** Describes this machine, the time and the load now. */
export function machine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    date: new Date().toISOString(),
    load: loadavg()[0] ?? 0,
  };
}

/** The 1-minute load average now. */
export const loadNow = (): number => loadavg()[0] ?? 0;

/** CPU time (user + system, all threads) this process has used, in µs. */
export function cpuUs(): number {
  const used = process.cpuUsage();
  return used.user + used.system;
}

const TICK_MS = 10;

/** User + system CPU of a process and its descendants, in ms (Linux /proc; NaN elsewhere). */
export function treeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  let total = 0;
  const visit = (id: number): void => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
      const children = readFileSync(`/proc/${id}/task/${id}/children`, 'utf8').trim();
      for (const child of children === '' ? [] : children.split(' ')) visit(Number(child));
    } catch {
      // The process ended meanwhile.
    }
  };
  visit(pid);
  return total;
}

/** The order of `count` variants in round `round`: rotated, so each goes first as often. */
export const turnOrder = (count: number, round: number): number[] =>
  Array.from({ length: count }, (_, i) => (i + round) % count);

/**
 * `HINTGATE_BENCH_QUICK=1`: a trial that each bench still runs end to end, with every
 * {@link interleave} cut to 2 rounds of 1 run; its figures mean nothing (do not `--write`).
 */
export const QUICK = process.env.HINTGATE_BENCH_QUICK === '1';

/** One variant measured in rounds: a unit of work and the calls it makes. */
export interface Variant {
  /** One unit of work (a batch, a run, a call); throws when a call did not end as expected. */
  readonly run: () => Promise<unknown>;
  /** Calls one run makes. */
  readonly calls: number;
}

/**
 * A variant whose run is 1000 calls: `batch` (of `size` calls, a divisor of 1000) handed
 * over until 1000 calls have run, so batches of every size weigh alike.
 */
export const thousandCalls = (batch: () => Promise<unknown>, size: number): Variant => ({
  calls: 1000,
  run: async () => {
    for (let i = 0; i < 1000 / size; i += 1) await batch();
  },
});

/** A variant's figures: median over the rounds of wall and CPU µs per call, best round, run latency. */
export interface PerCall {
  readonly wallUs: number;
  readonly cpuUs: number;
  readonly bestWallUs: number;
  /** Median wall µs of one run (all rounds' runs): a call's latency when a run is one call. */
  readonly p50RunUs: number;
}

/** How {@link interleave} measures. */
export interface RoundOptions {
  readonly rounds: number;
  /** Runs of each variant per round. */
  readonly runsPerRound: number;
  /** Unrecorded runs of each variant before the first round. */
  readonly warmupRuns: number;
}

/**
 * Measures the variants in interleaved rounds after a warm-up: in each round every variant
 * does `runsPerRound` runs, in an order that rotates from round to round, so drift of the
 * machine hits all alike. Returns per variant the median wall and CPU µs per call.
 */
export async function interleave(
  variants: readonly Variant[],
  measured: RoundOptions,
): Promise<PerCall[]> {
  const options = QUICK ? { rounds: 2, runsPerRound: 1, warmupRuns: 1 } : measured;
  for (const variant of variants) {
    for (let i = 0; i < options.warmupRuns; i += 1) await variant.run();
  }
  const wall = variants.map((): number[] => []);
  const cpu = variants.map((): number[] => []);
  const runs = variants.map((): number[] => []);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const index of turnOrder(variants.length, round)) {
      const variant = variants[index] as Variant;
      const cpuStart = cpuUs();
      const start = performance.now();
      for (let i = 0, at = start; i < options.runsPerRound; i += 1) {
        await variant.run();
        const now = performance.now();
        runs[index]?.push((now - at) * 1000);
        at = now;
      }
      const calls = variant.calls * options.runsPerRound;
      wall[index]?.push(((performance.now() - start) * 1000) / calls);
      cpu[index]?.push((cpuUs() - cpuStart) / calls);
    }
  }
  return variants.map((_, index) => ({
    wallUs: median(wall[index] ?? []),
    cpuUs: median(cpu[index] ?? []),
    bestWallUs: Math.min(...(wall[index] ?? [])),
    p50RunUs: median(runs[index] ?? []),
  }));
}
