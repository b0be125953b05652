/**
 * Section `gateway`: what the gateway adds to a call of a cheap upstream (bench/gateway-upstream.ts,
 * one read-only `ping`) over MCP. Paths, each one MCP client: direct stdio; `hintgate gateway`
 * over stdio and `--http` (pinned, mode auto) with its fast paths on, off and one at a time
 * (`HINTGATE_FAST_PATHS`) and with `audit.sync: always`; a `--baseline` build's gateway; and as
 * references a bare Node relay, mcp-proxy's `proxyServer` as a stdio relay
 * (bench/gateway-relay.ts) and the mcp-proxy command over HTTP. Then the gateway's upstream
 * side in process, layer by layer. Also the child-process helpers the other sections use.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type AuditSink, createMemoryAuditSink, createRegistry, createRuntime } from 'hintgate';
import { connectMcpServer, type McpEraOption } from 'hintgate/mcp';
import { createJsonlAuditSink } from 'hintgate/node';
import { builds, interleave, percentile, preemptions, procCpuMs, ROOT, sized } from './measure.js';
import { type Context, type Goal, goal, type Result, type Row, table } from './report.js';

const TIMEOUT_MS = 20_000;
/** The cheap upstream, run with tsx from the repository root. */
export const UPSTREAM = [
  process.execPath,
  '--import',
  'tsx',
  fileURLToPath(new URL('./gateway-upstream.ts', import.meta.url)),
];

/** An installed package's version, or `unknown`. */
export function version(name: string): string {
  try {
    return (
      JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'unknown';
  }
}

/** This environment with `extra`, without a token that would lock the gateway's HTTP. */
export const childEnv = (extra: Record<string, string> = {}): Record<string, string> => {
  const { HINTGATE_TOKEN: _token, ...env } = process.env;
  return { ...(env as Record<string, string>), ...extra };
};

/** A free TCP port on 127.0.0.1. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });

/** Resolves once 127.0.0.1:port accepts connections; rejects when `child` exits or in time. */
export async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (const deadline = Date.now() + TIMEOUT_MS; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`port ${port} not open within ${TIMEOUT_MS} ms`);
}

/** Stops a process started here: SIGTERM, then SIGKILL after 5 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** One way of reaching the upstream's `ping`, and its figures at the level being measured. */
interface Path {
  readonly label: string;
  readonly client: Client;
  /** The process the client spawned: its tree's CPU counts. */
  readonly pid: number | undefined;
  close(): Promise<void>;
  /** `cpu`: CPU ms of the process tree, of the first process, and its preemptions. */
  s: { latencies: number[]; wallMs: number; failed: number; failure?: string; cpu: number[] };
}
const fresh = (): Path['s'] => ({ latencies: [], wallMs: 0, failed: 0, cpu: [0, 0, 0] });

/** Spawns `node ...args` and connects over stdio, or over Streamable HTTP once `port` opens. */
async function open(label: string, args: string[], env = childEnv(), port?: number): Promise<Path> {
  const client = new Client({ name: 'hintgate-bench', version: '1.0.0' });
  const options = { command: process.execPath, args, cwd: ROOT, env, stderr: 'pipe' } as const;
  const stdio = port === undefined ? new StdioClientTransport(options) : undefined;
  const child = stdio
    ? undefined
    : spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  (stdio?.stderr ?? child?.stderr)?.on('data', (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-4000);
  });
  const stop = async () => {
    await client.close().catch(() => {});
    if (child) await stopProcess(child);
  };
  try {
    if (child) await waitForPort(port as number, child);
    // The fetch drops the abort signal: undici keeps a listener on it per request until GC.
    const fetchWithout = (to: string | URL | Request, init?: RequestInit) =>
      fetch(to, { ...init, signal: null });
    const http = () =>
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        fetch: fetchWithout,
      });
    await client.connect(stdio ?? http(), { timeout: TIMEOUT_MS });
  } catch (error) {
    await stop();
    throw new Error(`${label}: could not start or connect: ${String(error)}\n${output}`);
  }
  return { label, client, pid: stdio?.pid ?? child?.pid, close: stop, s: fresh() };
}

/** `cli gateway` over a configuration fronting the upstream in `dir`, pinned by `cli`. */
function gatewayArgs(cli: string, dir: string, sync?: string): string[] {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'hintgate.yaml');
  const [command, ...args] = UPSTREAM;
  const servers = { bench: { command, args, cwd: ROOT, trusted: true } };
  writeFileSync(
    file,
    JSON.stringify({ servers, mode: 'auto', ...(sync ? { audit: { sync } } : {}) }),
  );
  const options = { cwd: ROOT, env: childEnv(), stdio: 'pipe', timeout: TIMEOUT_MS } as const;
  execFileSync(process.execPath, [cli, 'pin', '--config', file], options);
  return [cli, 'gateway', '--config', file, '--mode', 'auto'];
}

/** Makes `calls` calls of `ping`, `concurrency` in flight, into `s`. */
async function drive(client: Client, concurrency: number, calls: number, s = fresh()) {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next += 1;
      const start = performance.now();
      let failure: string | undefined;
      try {
        const result = await client.callTool({ name: 'ping', arguments: {} });
        const first = (result.content as { text?: string }[])[0];
        if (result.isError || first?.text !== 'pong')
          failure = JSON.stringify(result).slice(0, 200);
      } catch (error) {
        failure = String(error);
      }
      s.latencies.push(performance.now() - start);
      if (failure !== undefined) [s.failed, s.failure] = [s.failed + 1, s.failure ?? failure];
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  s.wallMs += performance.now() - start;
  return s;
}

const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
const FAST = ['on', 'off', 'http', 'upstream'];
const fastLabel = (v: string) =>
  v === 'on' ? 'fast paths on (default)' : v === 'off' ? 'fast paths off' : `only ${v} fast path`;
const RELAY =
  "const c=require('node:child_process').spawn(process.argv[1],process.argv.slice(2),{stdio:['pipe','pipe','inherit']});process.stdin.pipe(c.stdin);c.stdout.pipe(process.stdout);c.on('exit',(x)=>process.exit(x??1))";
const PROXY_RELAY = [
  '--import',
  'tsx',
  fileURLToPath(new URL('./gateway-relay.ts', import.meta.url)),
];

/** The mcp-proxy command's script, when installed. */
function mcpProxyBin(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('mcp-proxy/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
    return join(manifest, '..', bin['mcp-proxy'] ?? '');
  } catch {
    return undefined;
  }
}

/** Opens every path. */
async function openPaths(work: string, baseline: string | undefined): Promise<Path[]> {
  const [mine, base] = (await builds(baseline)).map((b) => join(b.dist, 'cli', 'main.js'));
  const gw = (name: string, cli = mine as string, sync?: string) =>
    gatewayArgs(cli, join(work, name), sync);
  const fast = (value: string) => childEnv({ HINTGATE_FAST_PATHS: value });
  const http = async (
    label: string,
    args: (port: number) => string[],
    env?: Record<string, string>,
  ) => {
    const port = await freePort();
    return open(label, args(port), env, port);
  };
  const on = (args: string[]) => (port: number) => [...args, '--http', '--port', `${port}`];
  const paths = [await open('direct (stdio)', UPSTREAM.slice(1))];
  for (const v of FAST)
    paths.push(await open(`gateway stdio, ${fastLabel(v)}`, gw(`stdio-${v}`), fast(v)));
  paths.push(await open('gateway stdio, audit.sync: always', gw('stdio-always', mine, 'always')));
  if (base) paths.push(await open('gateway stdio, baseline build', gw('stdio-base', base)));
  paths.push(await open('bare Node relay (reference)', ['-e', RELAY, ...UPSTREAM]));
  paths.push(
    await open('mcp-proxy proxyServer relay (stdio, reference)', [...PROXY_RELAY, ...UPSTREAM]),
  );
  for (const v of FAST)
    paths.push(await http(`gateway HTTP, ${fastLabel(v)}`, on(gw(`http-${v}`)), fast(v)));
  paths.push(await http('gateway HTTP, audit.sync: always', on(gw('http-always', mine, 'always'))));
  if (base) paths.push(await http('gateway HTTP, baseline build', on(gw('http-base', base))));
  const bin = mcpProxyBin();
  const proxy = (port: number) => [
    `${bin}`,
    '--host',
    '127.0.0.1',
    '--port',
    `${port}`,
    '--server',
    'stream',
    '--',
    ...UPSTREAM,
  ];
  if (bin) paths.push(await http('mcp-proxy (HTTP)', proxy));
  return paths;
}

/** Section `gateway`. */
export async function gateway(context: Context): Promise<Result> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-gateway-'));
  const paths: Path[] = [];
  try {
    paths.push(...(await openPaths(work, context.baseline)));
    // Warm-up, block by block, so a cold start stays visible.
    const [warmCalls, block] = sized([10_000, 2000], [16, 8]);
    const warm: Record<string, string>[] = paths.map((path) => ({ path: path.label }));
    for (let done = 0; done < warmCalls; done += block) {
      for (const [i, path] of paths.entries()) {
        const s = await drive(path.client, 8, block);
        const p50 = percentile(sorted(s.latencies), 50).toFixed(3);
        const rate = ((block * 1000) / s.wallMs).toFixed(0);
        (warm[i] as Record<string, string>)[`calls ${done + 1}-${done + block}: p50 ms, calls/s`] =
          `${p50}, ${rate}`;
      }
    }
    const calls = sized(2000, 8);
    const rows: Row[] = [];
    const goals: Goal[] = [];
    for (const level of [1, 8, 32]) {
      for (const path of paths) path.s = fresh();
      for (let round = 0; round < 2; round += 1) {
        for (let turn = 0; turn < paths.length; turn += 1) {
          const { pid, client, s } = paths[(turn + round) % paths.length] as Path;
          const now = () => [procCpuMs(pid), procCpuMs(pid, true), preemptions(pid)];
          const before = now();
          await drive(client, level, calls / 2, s);
          s.cpu = now().map((after, i) => (s.cpu[i] ?? 0) + after - (before[i] ?? 0));
        }
      }
      const figures = paths.map(({ label, s }) => {
        const times = sorted(s.latencies);
        const [cpu = 0, own = 0, preempted = 0] = s.cpu.map((total) => total / calls);
        const rate = (calls * 1000) / s.wallMs;
        return {
          label,
          s,
          p50: percentile(times, 50),
          rate,
          cpu: cpu * 1000,
          own: own * 1000,
          preempted,
          times,
        };
      });
      const find = (label: string) => figures.find((f) => f.label === label);
      const [direct, proxied] = [find('direct (stdio)'), find('mcp-proxy (HTTP)')];
      for (const f of figures) {
        rows.push({
          path: f.label,
          concurrent: level,
          'p50 ms': f.p50,
          'p95 ms': percentile(f.times, 95),
          'p99 ms': percentile(f.times, 99),
          'calls/s': f.rate,
          'CPU µs/call (path processes)': f.cpu,
          'of which the first process': f.own,
          'preempted per call': f.preempted,
          'p50 - direct ms': f.p50 - (direct?.p50 ?? Number.NaN),
          'CPU / direct': f.cpu / (direct?.cpu ?? Number.NaN),
          'calls/s / mcp-proxy': f.rate / (proxied?.rate ?? Number.NaN),
          'not ok': f.s.failed === 0 ? '0' : `${f.s.failed} (${f.s.failure})`,
        });
      }
      const stdio = find(`gateway stdio, ${fastLabel('on')}`);
      const http = find(`gateway HTTP, ${fastLabel('on')}`);
      if (level === 1 && stdio && direct) {
        goals.push(
          goal('stdio hop: p50 - direct p50, 1 concurrent', stdio.p50 - direct.p50, 0.1, 'ms'),
        );
        goals.push(
          goal(
            "stdio hop: CPU per call of the path's processes / direct's, 1 concurrent",
            stdio.cpu / direct.cpu,
            2,
          ),
        );
      }
      if (http && proxied)
        goals.push(
          goal(
            `HTTP calls/s / mcp-proxy's, ${level} concurrent`,
            http.rate / proxied.rate,
            1,
            'x',
            'least',
          ),
        );
    }
    for (const path of paths.splice(0)) await path.close();
    const made = warmCalls + 3 * calls;
    const audits = ['stdio', 'http'].map((kind): Row => {
      const text = readFileSync(join(work, `${kind}-on`, '.hintgate', 'audit.jsonl'), 'utf8');
      const types = new Map<string, number>();
      for (const line of text.split('\n').filter(Boolean)) {
        const { type } = JSON.parse(line) as { type: string };
        types.set(type, (types.get(type) ?? 0) + 1);
      }
      const events = [...types].map(([type, count]) => `${count} \`${type}\``).join(', ');
      return {
        gateway: kind,
        'calls made': made,
        'audit events': events,
        'bytes per call': Buffer.byteLength(text) / made,
      };
    });
    const proxy = mcpProxyBin()
      ? `mcp-proxy ${version('mcp-proxy')}`
      : 'mcp-proxy not installed, not measured';
    return {
      method: `one stdio upstream (server ${version('@modelcontextprotocol/server')}, one read-only \`ping\`), one client ${version('@modelcontextprotocol/client')} per path; gateways in mode \`auto\`, server trusted and pinned, audit to \`.hintgate/audit.jsonl\`; ${proxy}. ${warmCalls} warm-up calls per path at 8 concurrent in blocks (first table), then ${calls} calls per path and level in 2 rotating rounds; p50/p95/p99 nearest-rank of \`callTool\` in the client; CPU = user + system of the path's processes (all but the client) from /proc, "preempted" = involuntary context switches of its first process. Third table: the default gateways' audit logs. Which fast paths are kept, and why: docs/gateway.md. Last: the gateway's upstream side in process, one call at a time, 8 rotating rounds of 500 calls, CPU of this process.`,
      tables: [table(warm), table(rows), table(audits), await layers(work)],
      goals,
    };
  } finally {
    for (const path of paths) await path.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

/** The gateway's upstream side in this process, one thing added per row; returns the table. */
async function layers(work: string): Promise<string> {
  const closers: (() => Promise<unknown>)[] = [];
  const [command = '', ...args] = UPSTREAM;
  const layer = async (audit?: AuditSink, era?: McpEraOption) => {
    const registry = createRegistry();
    const upstream = { name: 'bench', registry, command, args, cwd: ROOT, trusted: true };
    const connection = await connectMcpServer({
      ...upstream,
      env: childEnv(),
      ...(era ? { era } : {}),
    });
    const runtime = createRuntime({ registry, mode: 'auto', auditSinks: audit ? [audit] : [] });
    closers.push(
      () => connection.close(),
      () => runtime.close(),
    );
    const call = async () => {
      const [result] = await runtime.execute([{ id: 'c', name: 'ping', arguments: {} }]);
      if (result?.status !== 'ok') throw new Error(JSON.stringify(result));
    };
    return { era: connection.protocolEra as string, call };
  };
  const jsonl = (sync: false | 'auto' | true) =>
    createJsonlAuditSink({ path: join(work, `${sync}.jsonl`), sync });
  try {
    const { client, close } = await open('SDK client', UPSTREAM.slice(1));
    closers.push(close);
    const sdk = {
      era: client.getProtocolEra() ?? '',
      call: () => client.callTool({ name: 'ping' }),
    };
    const list: [string, { era: string; call: () => Promise<unknown> }][] = [
      ['SDK Client alone (`client.callTool`)', sdk],
      ['runtime over `connectMcpServer`, its defaults, no audit', await layer()],
      ['+ memory audit sink', await layer(createMemoryAuditSink())],
      ['JSONL audit sink, sync: false', await layer(jsonl(false))],
      ["JSONL audit sink, sync: 'auto' (gateway default)", await layer(jsonl('auto'))],
      ['JSONL audit sink, sync: true (audit.sync: always)', await layer(jsonl(true))],
      ["reference: runtime with era: 'auto', no audit", await layer(undefined, 'auto')],
    ];
    const m = await interleave(
      list.map(([, { call }]) => ({ calls: 1, run: call })),
      { rounds: 8, runsPerRound: 500, warmupRuns: 1000 },
    );
    const [p50, cpu] = [m.map((x) => x.p50RunUs / 1000), m.map((x) => x.cpuUs)];
    const eras: Record<string, string> = { legacy: '2025 handshake', modern: '2026-07-28' };
    const rows = list.map(([label, { era }], i) => ({
      'layer (upstream side, in process)': `${i + 1}. ${label}`,
      era: eras[era] ?? era,
      'p50 ms': p50[i] ?? Number.NaN,
      'CPU µs/call': cpu[i] ?? Number.NaN,
      'p50 - row 1 ms': (p50[i] ?? Number.NaN) - (p50[0] ?? Number.NaN),
      'CPU / row 1': (cpu[i] ?? Number.NaN) / (cpu[0] ?? Number.NaN),
    }));
    return table(rows);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
  }
}

/** True when `program` is on PATH. */
export const onPath = (program: string): boolean =>
  (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, program)));
