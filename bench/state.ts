/** Section `state`: a call with the gateway's state in Redis against in its process. */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type Gateway, loadGatewayConfig } from 'hintgate/gateway';
import { waitFor } from 'hintgate/testing';
import * as m from './measure.js';
import { goal, type Result, table } from './report.js';

/** The store's (`SharedState`, src/state; no entry point exports it) `take` and its request. */
type Take = { slot?: { key: string; max: number }; windows: { key: string; limit: object }[] };
type Store = { take(request: Take): Promise<{ taken?: { slot?: { release(): void } } }> } & {
  close(): Promise<void>;
  status: string;
};
/** The upstream of section `gateway` three times, with a rate limit never reached and a slot. */
const SERVERS = { lim: 'slot and rate limit', rl: 'rate limit', plain: 'no limits' };

async function startGateway(dir: string, state?: string): Promise<Gateway> {
  mkdirSync(dir, { recursive: true });
  const [command, ...args] = m.upstream('ping');
  const server = { command, args, cwd: m.ROOT, trusted: true };
  const limited = { ...server, tools: { ping: { rateLimit: { max: 1e8, windowMs: 60_000 } } } };
  const servers = { lim: { ...limited, concurrency: 64 }, rl: limited, plain: server };
  const config = { servers, mode: 'auto', pin: { newTools: 'allow' }, ...(state && { state }) };
  writeFileSync(join(dir, 'hintgate.yaml'), JSON.stringify(config));
  const env = { ...process.env, HINTGATE_STATE_SECRET: 'bench-'.repeat(8) };
  const loaded = await loadGatewayConfig(join(dir, 'hintgate.yaml'));
  return createGateway({ config: loaded, env, onNotice: () => {} });
}

/** Section `state`. */
export async function state(): Promise<Result> {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  if (!dirs.some((dir) => existsSync(join(dir, 'redis-server')))) {
    const method =
      'skipped: `redis-server` is not on PATH (install Redis to measure this section).';
    return { method, tables: [], goals: [] };
  }
  const dir = mkdtempSync(join(tmpdir(), 'hintgate-bench-state-'));
  const port = await m.freePort();
  const flags = ['--port', `${port}`, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const url = `redis://127.0.0.1:${port}`;
  let redis: ChildProcess | undefined;
  const gateways: Gateway[] = [];
  try {
    redis = await m.spawnServing(port, 'redis-server', flags);
    gateways.push(await startGateway(join(dir, 'local')));
    gateways.push(await startGateway(join(dir, 'redis'), url));
    await waitFor(() => gateways[1]?.sharedState?.isReady(), 20_000);
    const paths = Object.keys(SERVERS).flatMap((server) =>
      gateways.map((gw, g) => ({ server, where: g === 0 ? 'in-process' : 'Redis', gw })),
    );
    const calls = m.sized(4000, 8);
    const figures = [];
    for (const inFlight of [1, 16]) {
      const batch = Array.from({ length: inFlight }, (_, i) => i);
      const run = (gw: Gateway, name: string) => async () => {
        const calls = batch.map((i) => gw.runtime.execute([{ id: `c${i}`, name, arguments: {} }]));
        if ((await Promise.all(calls)).some(([r]) => r?.status !== 'ok'))
          throw new Error(`${name}: a call failed`);
      };
      const variants = paths.map((p) => run(p.gw, `${p.server}__ping`));
      const [runsPerRound, warmupRuns] = [Math.round(calls / 4 / inFlight), 2000 / inFlight];
      const options = { calls: inFlight, rounds: 4, runsPerRound, warmupRuns };
      figures.push(await m.interleave(variants, options));
    }
    const [one, many] = [figures[0]?.map((f) => f.p50RunUs / 1000) ?? [], figures[1] ?? []];
    const added = (i: number): number => m.at(one, i + 1) - m.at(one, i);
    const rows = paths.map((p, i) => {
      const [server, rate] = [SERVERS[p.server as 'lim'], 1e6 / (many[i]?.wallUs ?? Number.NaN)];
      return [`\`${p.server}\`: ${server}`, p.where, m.at(one, i), rate, i % 2 ? added(i - 1) : ''];
    });
    const goals = [
      goal('Redis p50 - in-process p50, slot and rate limit', added(0), 0.3, 'ms'),
      goal('Redis p50 - in-process p50, rate limit', added(2), 0.3, 'ms'),
      goal('Redis p50 - in-process p50, no limits', added(4), 0.02, 'ms'),
    ];
    const dist = new URL('../dist/state/index.js', import.meta.url).href;
    const { connectRedisState } = (await import(dist)) as {
      connectRedisState(url: string, options: { prefix: string }): Promise<Store>;
    };
    const store = await connectRedisState(url, { prefix: 'bench:' });
    await waitFor(() => store.status === 'ready', 20_000);
    const slot = { key: 'bench-slot', max: 64 };
    const windows = [{ key: 'bench-window', limit: { max: 1e8, windowMs: 60_000 } }];
    const take = async (request: Take) => {
      const outcome = await store.take(request);
      if (outcome.taken === undefined) throw new Error(`refused: ${JSON.stringify(outcome)}`);
      void outcome.taken.slot?.release();
    };
    const twice = () => take({ slot, windows: [] }).then(() => take({ windows }));
    const ways: [string, () => Promise<void>][] = [
      ['slot, then window unit: two script calls', twice],
      ['slot and window unit: one script call', () => take({ slot, windows })],
      ['window unit alone: one script call', () => take({ windows })],
    ];
    const options = { rounds: 4, runsPerRound: calls / 4, warmupRuns: 2000 };
    const alone = await m.interleave(
      ways.map(([, run]) => run),
      options,
    );
    await store.close();
    const storeRows = ways.map(([what], i) => [what, (alone[i]?.p50RunUs ?? Number.NaN) / 1000]);
    const head =
      'server|state|p50 ms (1 in flight)|calls/s (16 in flight)|Redis p50 - in-process p50 ms';
    const storeHead = 'what a capped, rate-limited call asks of Redis|p50 ms';
    return {
      method: `a \`redis-server\` on 127.0.0.1 started for the run; calls through each gateway's runtime (\`runtime.execute\` of one call), the paths taking turns in 4 rounds of ${calls / 4} calls after 2000 warm-up calls; p50 at 1 call in flight, throughput at 16 (client, gateways, upstreams and Redis share the cores). Second table: the store alone (\`take\` of \`connectRedisState\` from dist/), 1 call in flight, each slot released without waiting, as a call does.`,
      tables: [table(head, rows), table(storeHead, storeRows)],
      goals,
    };
  } finally {
    for (const gw of gateways) await gw.close().catch(() => {});
    if (redis) await m.stopProcess(redis);
    rmSync(dir, { recursive: true, force: true });
  }
}
