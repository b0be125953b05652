/** Section `gateway`: the gateway hop against direct stdio, relays and mcp-proxy; its layers. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type AuditSink, createMemoryAuditSink, createRegistry, createRuntime } from 'hintgate';
import { connectMcpServer, type McpEraOption } from 'hintgate/mcp';
import { createJsonlAuditSink } from 'hintgate/node';
import * as m from './measure.js';
import { type Cell, type Context, type Goal, goal, type Result, table } from './report.js';

const UPSTREAM = m.upstream('ping');
const RELAY =
  "const c=require('node:child_process').spawn(process.argv[1],process.argv.slice(2),{stdio:['pipe','pipe','inherit']});process.stdin.pipe(c.stdin);c.stdout.pipe(process.stdout);c.on('exit',(x)=>process.exit(x??1))";
const FAST = ['on', 'off', 'http', 'stdio', 'upstream'];
const fastLabel = (v: string) =>
  v === 'on' ? 'fast paths on (default)' : v === 'off' ? 'fast paths off' : `only ${v} fast path`;

/** Node's arguments for a path: a list for stdio, a function of the port for HTTP. */
type Args = string[] | ((port: number) => string[]);
/** Calls' latencies, wall ms, failures, and CPU ms of the tree, of its first process, preemptions. */
const fresh = () => ({ ms: [] as number[], wallMs: 0, failed: 0, failure: '', cpu: [0, 0, 0] });

/** Spawns `node ...args` and connects a client over stdio, or over Streamable HTTP. */
async function open(label: string, args: Args, env = m.childEnv()) {
  const client = new Client({ name: 'hintgate-bench', version: '1.0.0' });
  const port = typeof args === 'function' ? await m.freePort() : 0;
  const http = typeof args === 'function';
  const child = http ? await m.spawnServing(port, process.execPath, args(port), env) : undefined;
  const options = { command: process.execPath, args: args as string[], cwd: m.ROOT, env };
  const stdio = child ? undefined : new StdioClientTransport({ ...options, stderr: 'pipe' });
  let output = '';
  stdio?.stderr?.on('data', (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-4000);
  });
  const close = async () => {
    await client.close().catch(() => {});
    if (child) await m.stopProcess(child);
  };
  // The fetch drops the abort signal: undici keeps a listener on it per request until GC.
  const fetchWithout = (to: string | URL | Request, init?: RequestInit) =>
    fetch(to, { ...init, signal: null });
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const transport = stdio ?? new StreamableHTTPClientTransport(url, { fetch: fetchWithout });
  await client.connect(transport, { timeout: 20_000 }).catch(async (error: unknown) => {
    await close();
    throw new Error(`${label}: could not connect: ${String(error)}\n${output}`);
  });
  return { label, client, pid: stdio?.pid ?? child?.pid, close, s: fresh() };
}

/** Makes `calls` calls of `ping`, `concurrency` in flight, into `s`. */
async function drive(client: Client, concurrency: number, calls: number, s = fresh()) {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next += 1;
      const start = performance.now();
      const result = await client.callTool({ name: 'ping', arguments: {} }).catch(String);
      s.ms.push(performance.now() - start);
      const first = typeof result === 'string' ? undefined : result.content[0];
      if (first?.type === 'text' && first.text === 'pong') continue;
      s.failed += 1;
      s.failure ||= JSON.stringify(result).slice(0, 200);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  s.wallMs += performance.now() - start;
  return s;
}

const PROXY = m.manifest('mcp-proxy')?.bin?.['mcp-proxy'];

/** Every path: label, Node's arguments, environment (mcp-proxy's when installed). */
async function specs(work: string, baseline?: string) {
  const [mine = '', base] = (await m.builds(baseline)).map((b) => join(b.dist, 'cli', 'main.js'));
  // `cli gateway` over a configuration fronting the upstream, pinned by `cli`.
  const gw = (name: string, cli = mine, sync?: string): string[] => {
    const [file, [command, ...args]] = [join(work, name, 'hintgate.yaml'), UPSTREAM];
    const servers = { bench: { command, args, cwd: m.ROOT, trusted: true } };
    mkdirSync(join(work, name), { recursive: true });
    const config = { servers, mode: 'auto', ...(sync && { audit: { sync } }) };
    writeFileSync(file, JSON.stringify(config));
    const options = { cwd: m.ROOT, env: m.childEnv(), stdio: 'pipe', timeout: 20_000 } as const;
    execFileSync(process.execPath, [cli, 'pin', '--config', file], options);
    return [cli, 'gateway', '--config', file, '--mode', 'auto'];
  };
  const http = (args: string[]) => (port: number) => [...args, '--http', '--port', `${port}`];
  const fast = (v: string) => m.childEnv({ HINTGATE_FAST_PATHS: v });
  const bin = join(m.ROOT, 'node_modules', 'mcp-proxy', `${PROXY}`);
  const flags = (port: number) => `--host 127.0.0.1 --port ${port} --server stream --`.split(' ');
  const proxy = (port: number) => [bin, ...flags(port), ...UPSTREAM];
  const relay = [...m.upstream('relay').slice(1), ...UPSTREAM];
  return [
    ['direct (stdio)', UPSTREAM.slice(1)],
    ...FAST.map((v) => [`gateway stdio, ${fastLabel(v)}`, gw(`stdio-${v}`), fast(v)] as const),
    ['gateway stdio, audit.sync: always', gw('stdio-always', mine, 'always')],
    ...(base ? [['gateway stdio, baseline build', gw('stdio-base', base)] as const] : []),
    ['bare Node relay (reference)', ['-e', RELAY, ...UPSTREAM]],
    ['mcp-proxy proxyServer relay (stdio, reference)', relay],
    ...FAST.map((v) => [`gateway HTTP, ${fastLabel(v)}`, http(gw(`http-${v}`)), fast(v)] as const),
    ['gateway HTTP, audit.sync: always', http(gw('http-always', mine, 'always'))],
    ...(base ? [['gateway HTTP, baseline build', http(gw('http-base', base))] as const] : []),
    ...(PROXY ? [['mcp-proxy (HTTP)', proxy] as const] : []),
  ] as (readonly [string, Args, Record<string, string>?])[];
}

/** The audit log of the default `stdio` or `http` gateway after `made` calls: a row. */
function audited(work: string, gateway: string, made: number): Cell[] {
  const text = readFileSync(join(work, `${gateway}-on`, '.hintgate', 'audit.jsonl'), 'utf8');
  const types = new Map<string, number>();
  for (const line of text.split('\n').filter(Boolean)) {
    const { type } = JSON.parse(line) as { type: string };
    types.set(type, (types.get(type) ?? 0) + 1);
  }
  const events = [...types].map(([type, count]) => `${count} \`${type}\``).join(', ');
  return [gateway, made, events, Buffer.byteLength(text) / made];
}

const HEAD =
  'path|concurrent|p50 ms|p95 ms|p99 ms|calls/s|CPU µs/call (path processes)|' +
  'of which the first process|preempted per call|p50 - direct ms|CPU / direct|calls/s / mcp-proxy|not ok';

/** Section `gateway`. */
export async function gateway(context: Context): Promise<Result> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-gateway-'));
  const paths: Awaited<ReturnType<typeof open>>[] = [];
  try {
    for (const [label, args, env] of await specs(work, context.baseline))
      paths.push(await open(label, args, env));
    // Warm-up, block by block, so a cold start stays visible.
    const [warmCalls, block] = m.sized([10_000, 2000], [16, 8]);
    const warm: Cell[][] = paths.map((path) => [path.label]);
    const warmHead = ['path'];
    for (let done = 0; done < warmCalls; done += block) {
      warmHead.push(`calls ${done + 1}-${done + block}: p50 ms, calls/s`);
      for (const [i, path] of paths.entries()) {
        const s = await drive(path.client, 8, block);
        const [p50, rate] = [m.percentile(s.ms, 50), (block * 1000) / s.wallMs];
        warm[i]?.push(`${p50.toFixed(3)}, ${rate.toFixed(0)}`);
      }
    }
    const calls = m.sized(2000, 8);
    const rows: Cell[][] = [];
    const goals: Goal[] = [];
    for (const level of [1, 8, 32]) {
      for (const path of paths) path.s = fresh();
      await m.rotate(paths.length, 2, async (i) => {
        const { pid, client, s } = paths[i] as (typeof paths)[0];
        const now = () => [m.procCpuMs(pid), m.procCpuMs(pid, true), m.preemptions(pid)];
        const before = now();
        await drive(client, level, calls / 2, s);
        s.cpu = now().map((after, i) => m.at(s.cpu, i) + after - m.at(before, i));
      });
      const f = paths.map(({ label, s }) => {
        const [p50, rate] = [m.percentile(s.ms, 50), (calls * 1000) / s.wallMs];
        return { label, s, p50, rate, cpu: (m.at(s.cpu, 0) / calls) * 1000 };
      });
      const find = (label: string) => f.find((x) => x.label === label);
      const [direct, proxied] = [find('direct (stdio)'), find('mcp-proxy (HTTP)')];
      for (const { label, s, p50, rate, cpu } of f) {
        const [p95, p99] = [95, 99].map((p) => m.percentile(s.ms, p)) as [number, number];
        const [own, preempted] = [(m.at(s.cpu, 1) / calls) * 1000, m.at(s.cpu, 2) / calls];
        const added = [p50 - (direct?.p50 ?? Number.NaN), cpu / (direct?.cpu ?? Number.NaN)];
        const failed = s.failed === 0 ? '0' : `${s.failed} (${s.failure})`;
        const ratio = rate / (proxied?.rate ?? Number.NaN);
        const cells = [p50, p95, p99, rate, cpu, own, preempted, ...added, ratio];
        rows.push([label, level, ...cells, failed]);
      }
      const [stdio, http] = ['stdio', 'HTTP'].map((k) => find(`gateway ${k}, ${fastLabel('on')}`));
      const cpuName = "stdio hop: CPU per call of the path's processes / direct's, 1 concurrent";
      if (level === 1 && stdio && direct)
        goals.push(
          goal('stdio hop: p50 - direct p50, 1 concurrent', stdio.p50 - direct.p50, 0.1, 'ms'),
          goal(cpuName, stdio.cpu / direct.cpu, 2),
        );
      const rateName = `HTTP calls/s / mcp-proxy's, ${level} concurrent`;
      if (http && proxied) goals.push(goal(rateName, http.rate / proxied.rate, 1, 'x', 'least'));
    }
    for (const path of paths.splice(0)) await path.close();
    const made = warmCalls + 3 * calls;
    const audits = ['stdio', 'http'].map((kind) => audited(work, kind, made));
    const proxy = PROXY ? `mcp-proxy ${m.version('mcp-proxy')}` : 'no mcp-proxy installed';
    return {
      method: `one stdio upstream (server ${m.version('@modelcontextprotocol/server')}, one read-only \`ping\`), one client ${m.version('@modelcontextprotocol/client')} per path; gateways in mode \`auto\`, server trusted and pinned, audit to \`.hintgate/audit.jsonl\`; fast paths on, off and one at a time (\`HINTGATE_FAST_PATHS\`); ${proxy}. ${warmCalls} warm-up calls per path at 8 concurrent in blocks (first table), then ${calls} calls per path and level in 2 rotating rounds; p50/p95/p99 nearest-rank of \`callTool\` in the client; CPU = user + system of the path's processes (all but the client) from /proc, "preempted" = involuntary context switches of its first process. Third table: the default gateways' audit logs. Which fast paths are kept, and why: docs/gateway.md. Last: the gateway's upstream side in process, one call at a time, 8 rotating rounds of 500 calls, CPU of this process.`,
      tables: [
        table(warmHead.join('|'), warm),
        table(HEAD, rows),
        table('gateway|calls made|audit events|bytes per call', audits),
        await layers(work),
      ],
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
    const upstream = { name: 'bench', registry, command, args, cwd: m.ROOT, trusted: true };
    const options = { ...upstream, env: m.childEnv(), ...(era ? { era } : {}) };
    const connection = await connectMcpServer(options);
    const runtime = createRuntime({ registry, mode: 'auto', auditSinks: audit ? [audit] : [] });
    closers.push(() => runtime.close().then(() => connection.close()));
    const call = async () => {
      const [result] = await runtime.execute([{ id: 'c', name: 'ping', arguments: {} }]);
      if (result?.status !== 'ok') throw new Error(JSON.stringify(result));
    };
    return { era: connection.protocolEra as string, call };
  };
  const jsonl = (sync: false | 'auto' | true) =>
    layer(createJsonlAuditSink({ path: join(work, `${sync}.jsonl`), sync }));
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
      ['JSONL audit sink, sync: false', await jsonl(false)],
      ["JSONL audit sink, sync: 'auto' (gateway default)", await jsonl('auto')],
      ['JSONL audit sink, sync: true (audit.sync: always)', await jsonl(true)],
      ["reference: runtime with era: 'auto', no audit", await layer(undefined, 'auto')],
    ];
    const runs = list.map(([, { call }]) => call);
    const f = await m.interleave(runs, { rounds: 8, runsPerRound: 500, warmupRuns: 1000 });
    const eras: Record<string, string> = { legacy: '2025 handshake', modern: '2026-07-28' };
    const rows = list.map(([label, { era }], i) => {
      const [{ p50RunUs: us0, cpuUs: cpu0 }, { p50RunUs, cpuUs }] = [f[0], f[i]] as [
        m.PerCall,
        m.PerCall,
      ];
      const cells = [p50RunUs / 1000, cpuUs, (p50RunUs - us0) / 1000, cpuUs / cpu0];
      return [`${i + 1}. ${label}`, eras[era] ?? era, ...cells];
    });
    const head = 'layer (upstream side, in process)|era|p50 ms|CPU µs/call|p50 - row 1 ms';
    return table(`${head}|CPU / row 1`, rows);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
  }
}
