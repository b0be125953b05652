/**
 * Beside part 4 of `npm run bench` (bench/gateway.ts): what keeping the gateway's state in
 * Redis (`state: redis://...`) costs a call, against state in the gateway's process, in the
 * same run. Two gateways (`createGateway` from dist/, mode auto, in this process) front
 * the cheap upstream of part 4 (bench/gateway-upstream.ts, over stdio) three times: as
 * server `lim`, with `concurrency: 64` and a rate limit on `ping` far above what is
 * reached, so that every call takes a concurrency slot and a unit of the window; as `rl`,
 * with the rate limit only; and as `plain`, with neither, so that its calls need no shared
 * state. One gateway keeps its state in its
 * process, the other in a `redis-server` on 127.0.0.1 started for the run. Calls go
 * through the gateway's runtime (`runtime.execute`), the paths taking turns round by
 * round; p50 at 1 call in flight, throughput at 16. Then the store alone (its client from
 * dist/): a slot and a window unit taken in two script calls one after the other (as
 * before) against one script call (as now), and a window unit alone.
 *
 * `tsx --tsconfig bench/tsconfig.json bench/gateway-state.ts` after `npm run build`; it
 * replaces its section of bench/RESULTS.md. `HINTGATE_BENCH_STATE_CALLS=N` sets the calls
 * per path and level (default 4000).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createGateway, type Gateway, loadGatewayConfig } from 'hintgate/gateway';
import { freePort, stopProcess, waitForPort } from './processes.js';
import { fixed, loadNow, machine, replaceSection, table } from './report.js';

/**
 * The part of the shared-state store (`SharedState` of src/state) this benchmark uses. The
 * store comes from the build the gateways come from, and no package entry point exports
 * it; stating its shape here keeps both typechecks (the sources', and bench/tsconfig.json's
 * against dist/) from depending on a build being current.
 */
interface Store {
  take(request: {
    readonly slot?: { readonly key: string; readonly max: number };
    readonly windows: readonly {
      readonly key: string;
      readonly limit: { readonly max: number; readonly windowMs: number };
    }[];
  }): Promise<TakeOutcome>;
  close(): Promise<void>;
  readonly status: string;
}
type TakeOutcome =
  | { readonly taken: { readonly slot?: { release(): Promise<void> } } }
  | { readonly slotFull: true }
  | { readonly windowFull: number; readonly retryAfterMs: number };
const { connectRedisState } = (await import(
  new URL('../dist/state/index.js', import.meta.url).href
)) as { connectRedisState(url: string, options: { prefix: string }): Promise<Store> };

/** Heading of this benchmark's section of bench/RESULTS.md, which it replaces. */
const HEADING =
  '## Shared state: in-process vs Redis, through the gateway (bench/gateway-state.ts)';
const RESULTS_PATH = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
/** Goal: what Redis may add at p50 to a call that uses shared state, in ms. */
const GOAL_MS = 0.3;

const CALLS = Number(process.env.HINTGATE_BENCH_STATE_CALLS ?? '4000');
const ROUNDS = 4;
const UPSTREAM = fileURLToPath(new URL('./gateway-upstream.ts', import.meta.url));

interface Path {
  readonly label: string;
  readonly gateway: Gateway;
  readonly tool: string;
  readonly latencies: number[];
  elapsedMs: number;
}

const configText = (state: string | undefined): string =>
  [
    'servers:',
    ...['lim', 'rl', 'plain'].flatMap((name) => [
      `  ${name}:`,
      `    command: ${process.execPath}`,
      `    args: ["--import", "tsx", ${JSON.stringify(UPSTREAM)}]`,
      `    cwd: ${JSON.stringify(fileURLToPath(new URL('..', import.meta.url)))}`,
      '    trusted: true',
      ...(name === 'lim' ? ['    concurrency: 64'] : []),
      ...(name === 'plain'
        ? []
        : ['    tools:', '      ping: { rateLimit: { max: 100000000, windowMs: 60000 } }']),
    ]),
    'mode: auto',
    'pin: { newTools: allow }',
    ...(state === undefined ? [] : [`state: ${state}`]),
    '',
  ].join('\n');

async function startGateway(dir: string, state: string | undefined): Promise<Gateway> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'hintgate.yaml');
  writeFileSync(file, configText(state));
  const config = await loadGatewayConfig(file);
  return createGateway({
    config,
    env: { ...process.env, HINTGATE_STATE_SECRET: 'bench-'.repeat(8) },
    onNotice: () => {},
  });
}

async function run(path: Path, calls: number, inFlight: number, record: boolean): Promise<void> {
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next += 1;
      const t0 = performance.now();
      const [result] = await path.gateway.runtime.execute([
        { id: `c${next}`, name: path.tool, arguments: {} },
      ]);
      if (result?.status !== 'ok') throw new Error(`${path.label}: ${JSON.stringify(result)}`);
      if (record) path.latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  if (record) path.elapsedMs += performance.now() - started;
}

/**
 * The store alone, 1 call in flight, ways taking turns round by round: what a capped and
 * rate-limited call asks of Redis before it runs, as two script calls one after the other
 * (a slot, then a window unit: how it was done before) and as the one script call it makes
 * now, and a window unit alone; each slot is released without waiting, as a call does.
 */
async function storeRows(state: Store): Promise<{ rows: string[][]; ratio: number }> {
  const limit = { max: 100_000_000, windowMs: 60_000 };
  const slot = { key: 'bench-store-slot', max: 64 };
  const windows = [{ key: 'bench-store-window', limit }];
  const release = (outcome: TakeOutcome): void => {
    if ('taken' in outcome) void outcome.taken.slot?.release();
    else throw new Error(`store refused: ${JSON.stringify(outcome)}`);
  };
  const ways: { label: string; once: () => Promise<void>; latencies: number[] }[] = [
    {
      label: 'slot, then window unit: two script calls',
      once: async () => {
        release(await state.take({ slot, windows: [] }));
        release(await state.take({ windows }));
      },
      latencies: [],
    },
    {
      label: 'slot and window unit: one script call',
      once: async () => release(await state.take({ slot, windows })),
      latencies: [],
    },
    {
      label: 'window unit alone: one script call',
      once: async () => release(await state.take({ windows })),
      latencies: [],
    },
  ];
  for (const way of ways) for (let i = 0; i < 2000; i += 1) await way.once();
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? ways : [...ways].reverse();
    for (const way of order) {
      for (let i = 0; i < CALLS / ROUNDS; i += 1) {
        const t0 = performance.now();
        await way.once();
        way.latencies.push(performance.now() - t0);
      }
    }
  }
  const [two, one] = ways.map((way) => p50(way.latencies));
  return {
    rows: ways.map((way) => [way.label, fixed(p50(way.latencies), 3)]),
    ratio: (one ?? Number.NaN) / (two ?? Number.NaN),
  };
}

const p50 = (values: readonly number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.ceil(sorted.length / 2) - 1] ?? Number.NaN;
};

async function main(): Promise<void> {
  const host = machine();
  const dir = mkdtempSync(join(tmpdir(), 'hintgate-bench-state-'));
  const port = await freePort();
  const redis: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd: dir, stdio: 'ignore' },
  );
  try {
    await waitForPort(port, redis, 10_000);
    const local = await startGateway(join(dir, 'local'), undefined);
    const shared = await startGateway(join(dir, 'redis'), `redis://127.0.0.1:${port}`);
    while (shared.sharedState?.isReady() !== true) await new Promise((r) => setTimeout(r, 20));
    const paths = (): Path[] =>
      [
        { label: 'in-process state, limited tool', gateway: local, tool: 'lim__ping' },
        { label: 'Redis state, limited tool', gateway: shared, tool: 'lim__ping' },
        { label: 'in-process state, rate-limited tool', gateway: local, tool: 'rl__ping' },
        { label: 'Redis state, rate-limited tool', gateway: shared, tool: 'rl__ping' },
        { label: 'in-process state, tool with no limits', gateway: local, tool: 'plain__ping' },
        { label: 'Redis state, tool with no limits', gateway: shared, tool: 'plain__ping' },
      ].map((p) => ({ ...p, latencies: [], elapsedMs: 0 }));
    const rows: string[][] = [];
    const levels = [1, 16];
    const measured = new Map<number, Path[]>();
    for (const inFlight of levels) {
      const level = paths();
      for (const path of level) await run(path, 2000, inFlight, false);
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = round % 2 === 0 ? level : [...level].reverse();
        for (const path of order) await run(path, CALLS / ROUNDS, inFlight, true);
      }
      measured.set(inFlight, level);
    }
    const state = await connectRedisState(`redis://127.0.0.1:${port}`, { prefix: 'bench:' });
    while (state.status !== 'ready') await new Promise((r) => setTimeout(r, 20));
    const store = await storeRows(state).finally(() => state.close());
    const [one = [], many = []] = levels.map((l) => measured.get(l) ?? []);
    for (const [index, path] of one.entries()) {
      const busy = many[index];
      rows.push([
        path.label,
        fixed(p50(path.latencies), 3),
        fixed(((busy?.latencies.length ?? 0) / (busy?.elapsedMs ?? 1)) * 1000, 0),
      ]);
    }
    const added = (a: number, b: number): number =>
      p50(one[b]?.latencies ?? []) - p50(one[a]?.latencies ?? []);
    const limited = added(0, 1);
    const windowOnly = added(2, 3);
    const free = added(4, 5);
    const loadAtEnd = loadNow();
    const markdown = `${HEADING}

Goal: Redis adds under ${GOAL_MS} ms at p50 to a call that uses shared state, and nothing to a call that needs none.

Run ${new Date().toISOString()} on ${host.cpu} (${host.cores} cores, ${fixed(host.memoryGiB)} GiB, load average ${fixed(host.load, 2)} at start, ${fixed(loadAtEnd, 2)} at end), Node ${process.version}, with a \`redis-server\` on 127.0.0.1 on the same machine. Two gateways (\`createGateway\` from dist/, mode auto) in one process front the upstream of part 4 (bench/gateway-upstream.ts over stdio) three times: server \`lim\` states \`concurrency: 64\` and gives \`ping\` a rate limit far above what is reached, so every call takes a concurrency slot and a unit of the window; server \`rl\` gives \`ping\` the same rate limit only; server \`plain\` states neither. One gateway keeps state in its process, the other has \`state: redis://...\`. Calls go through the gateway's runtime (\`runtime.execute\`); after 2000 warm-up calls per path, ${CALLS} calls per path in ${ROUNDS} interleaved rounds; p50 at 1 call in flight, throughput at 16 in flight (client, gateways, upstreams and Redis share the cores).

${table(['path', 'p50 ms (1 in flight)', 'throughput calls/s (16 in flight)'], rows)}

- Redis adds ${fixed(windowOnly, 3)} ms at p50 to a call of the rate-limited tool (one script call before the call): goal ${windowOnly < GOAL_MS ? 'met' : 'missed'}.
- Redis adds ${fixed(limited, 3)} ms at p50 to a call that takes a slot of a capped server and a window unit (one script call takes both, atomically, before the call; the slot's release, one more script call, is not waited for): goal ${limited < GOAL_MS ? 'met' : 'missed'}.
- Redis adds ${fixed(free, 3)} ms at p50 to a call of the tool with no limits (it never touches Redis): ${free < 0.02 ? 'nothing measurable' : 'more than noise'}.

The store alone, same run and Redis, 1 call in flight (\`take\` of \`connectRedisState\` from dist/, ${CALLS} calls per way in ${ROUNDS} interleaved rounds after 2000 warm-up calls; each slot released without waiting, as a call does):

${table(['what a capped, rate-limited call asks of Redis', 'p50 ms'], store.rows)}

- Taking the slot and the window unit in one script call costs ${fixed(store.ratio, 2)} of the time of two script calls one after the other.
`;
    process.stdout.write(`${markdown}\n`);
    const previous = readFileSync(RESULTS_PATH, 'utf8');
    writeFileSync(RESULTS_PATH, replaceSection(previous, HEADING, markdown));
    await local.close();
    await shared.close();
  } finally {
    await stopProcess(redis);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
