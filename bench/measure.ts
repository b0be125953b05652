/** The measuring half of the bench harness: sizes, statistics, CPU time, rounds, processes. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { nodeScriptArgs, waitFor } from 'hintgate/testing';

/** `--quick` or `HINTGATE_BENCH_QUICK=1`: tiny sizes for a smoke run; nothing is written. */
export const QUICK = process.argv.includes('--quick') || process.env.HINTGATE_BENCH_QUICK === '1';
/** `full`, or `quick` in a quick run. */
export const sized = <T>(full: T, quick: T): T => (QUICK ? quick : full);
/** The repository root. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** `list[i]`, NaN when absent. */
export const at = (list: readonly number[], i: number): number => list[i] ?? Number.NaN;
/** The 1-minute load average. */
export const loadNow = (): number => loadavg()[0] ?? 0;
/** The command of a server of bench/upstream.ts: `node <tsx loader> bench/upstream.ts <mode>`. */
export const upstream = (mode: string) => [
  process.execPath,
  ...nodeScriptArgs(join(ROOT, 'bench/upstream.ts')),
  mode,
];

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

/** The median of the values. */
export function median(values: readonly number[]): number {
  const [sorted, middle] = [[...values].sort((a, b) => a - b), Math.floor(values.length / 2)];
  return values.length % 2 ? at(sorted, middle) : (at(sorted, middle - 1) + at(sorted, middle)) / 2;
}

/** Nearest-rank percentile `p` (0-100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return at(sorted, Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1);
}

/** Calls `run(i)` for `rounds` rounds of `n` items, in an order rotating per round. */
export async function rotate(n: number, rounds: number, run: (i: number) => Promise<unknown>) {
  for (let turn = 0; turn < rounds * n; turn += 1) await run((turn + Math.floor(turn / n)) % n);
}

/** The fields of /proc/<pid>/stat after the command name (Linux); empty when it is gone. */
export function procStat(pid: number | string | undefined): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

/** User + system CPU ms of process `pid`, with its descendants unless `own` (NaN when gone). */
export function procCpuMs(pid: number | undefined, own = false): number {
  const fields = procStat(pid);
  // utime and stime, fields 14 and 15 of stat(5), in ticks of 10 ms.
  const total = (Number(fields[11]) + Number(fields[12])) * 10;
  if (own || fields.length === 0) return total;
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ');
  } catch {} // Ended meanwhile.
  return children.filter(Boolean).reduce((sum, child) => sum + procCpuMs(+child), total);
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

/** A variant's medians over the rounds: wall and CPU µs per call, best round, one run's wall µs. */
export type PerCall = Readonly<Record<'wallUs' | 'cpuUs' | 'bestWallUs' | 'p50RunUs', number>>;

/** A full garbage collection of this process, on demand (V8's `gc`, exposed once). */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** How one variant of {@link interleave} runs, where it differs from the options. */
export interface Variant {
  readonly run: () => Promise<unknown>;
  readonly calls?: number;
  readonly runsPerRound?: number;
  readonly warmupRuns?: number;
}

/**
 * Medians of runs (of `calls` calls, default 1; throwing on a call not ok) in rotating rounds.
 * A variant given as a {@link Variant} may have calls, runs per round and warm-up runs of its
 * own: batches of different sizes measured in the same rounds, so that a ratio between
 * sizes compares figures taken under the same load, not minutes apart.
 * `fenced`: each round of a variant starts on a collected heap (not timed) and ends with a
 * full collection that is timed, so each variant pays for all of its own garbage and for
 * none of the variant before it.
 */
export async function interleave(
  variants: readonly (Variant | (() => Promise<unknown>))[],
  options: {
    calls?: number;
    rounds: number;
    runsPerRound: number;
    warmupRuns: number;
    fenced?: boolean;
  },
): Promise<PerCall[]> {
  const quick = { ...options, rounds: 2, runsPerRound: 1, warmupRuns: 1 };
  const { calls = 1, rounds, runsPerRound, warmupRuns, fenced = false } = sized(options, quick);
  const each = variants.map((v) => (typeof v === 'function' ? { run: v } : v));
  const own = (v: Variant) => ({
    calls: v.calls ?? calls,
    runs: sized(v.runsPerRound ?? runsPerRound, runsPerRound),
    warmups: sized(v.warmupRuns ?? warmupRuns, warmupRuns),
  });
  for (const v of each) for (let i = 0; i < own(v).warmups; i += 1) await v.run();
  const cpuUs = () => process.cpuUsage().user + process.cpuUsage().system;
  type Lists = Record<'wall' | 'cpu' | 'runs', number[]>;
  const figures = each.map((): Lists => ({ wall: [], cpu: [], runs: [] }));
  await rotate(each.length, rounds, async (index) => {
    const lists = figures[index] as (typeof figures)[0];
    const variant = each[index] as Variant;
    const { calls: n, runs } = own(variant);
    if (fenced) collectGarbage();
    const [cpuStart, start] = [cpuUs(), performance.now()];
    for (let i = 0, last = start; i < runs; i += 1) {
      await variant.run();
      lists.runs.push((performance.now() - last) * 1000);
      last = performance.now();
    }
    if (fenced) collectGarbage();
    lists.wall.push(((performance.now() - start) * 1000) / (n * runs));
    lists.cpu.push((cpuUs() - cpuStart) / (n * runs));
  });
  return figures.map(({ wall, cpu, runs }) => ({
    wallUs: median(wall),
    cpuUs: median(cpu),
    bestWallUs: Math.min(...wall),
    p50RunUs: median(runs),
  }));
}

/** Median wall ms of one run of each work, in `rounds` rotating rounds after a warm-up run. */
export async function msOf(works: (() => unknown)[], rounds: number): Promise<number[]> {
  const variants = works.map((work) => async () => work());
  const figures = await interleave(variants, { rounds, runsPerRound: 1, warmupRuns: 1 });
  return figures.map((f) => f.wallUs / 1000);
}

/** The package's API, as built in some dist/. */
export type Build = typeof import('hintgate');
/** This build, then the baseline (`--baseline`) when one is given. */
export async function builds(baseline: string | undefined) {
  const dists = [join(ROOT, 'dist'), ...(baseline === undefined ? [] : [baseline])];
  return Promise.all(
    dists.map(async (dist, i) => ({
      label: i === 0 ? 'this build' : 'baseline',
      dist,
      api: (await import(pathToFileURL(join(dist, 'index.js')).href)) as Build,
    })),
  );
}

/** An installed package's package.json, if installed. */
export function manifest(
  name: string,
): { version: string; bin?: Record<string, string> } | undefined {
  const file = join(ROOT, 'node_modules', name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}
/** An installed package's version, or `unknown`. */
export const version = (name: string): string => manifest(name)?.version ?? 'unknown';

/** This environment with `extra`, without a token that would lock the gateway's HTTP. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const { HINTGATE_TOKEN: _token, ...env } = process.env;
  return { ...(env as Record<string, string>), ...extra };
}

/** A free TCP port on 127.0.0.1. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Spawns a process and resolves once 127.0.0.1:port accepts connections (in 20 s). */
export async function spawnServing(port: number, cmd: string, args: string[], env = childEnv()) {
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-4000);
  });
  const connects = () =>
    new Promise<boolean>((resolve) => {
      if (child.exitCode !== null) throw new Error('exited');
      const socket = createConnection({ host: '127.0.0.1', port }, () => resolve(true));
      socket.once('connect', () => socket.destroy()).once('error', () => resolve(false));
    });
  const what = `${cmd} ${args.join(' ')}: port ${port} open`;
  await waitFor(connects, { timeoutMs: 20_000, intervalMs: 50, what }).catch(async (error) => {
    await stopProcess(child);
    throw new Error(`${error}\n${output}`);
  });
  return child;
}

/** Stops a process started here: SIGTERM, then SIGKILL after 5 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  child.kill('SIGTERM');
  await waitFor(ended, 5000).catch(() => child.kill('SIGKILL') && waitFor(ended, 5000));
}
