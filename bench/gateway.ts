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

/** The last 4000 characters a stream wrote, for error messages. */
const tail = (stream: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null) => {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    text = (text + String(chunk)).slice(-4000);
  });
  return () => text.trim();
};

/** One way of reaching the upstream's `ping`. */
interface Path {
  readonly label: string;
  readonly client: Client;
  /** The client's child process, whose process tree's CPU counts. */
  readonly pid: number | undefined;
  close(): Promise<void>;
  /** Figures at the level being measured. */
  sample: {
    latencies: number[];
    wallMs: number;
    failed: number;
    cpuMs: number;
    ownMs: number;
    preempted: number;
    failure?: string;
  };
}

const newSample = (): Path['sample'] => ({
  latencies: [],
  wallMs: 0,
  failed: 0,
  cpuMs: 0,
  ownMs: 0,
  preempted: 0,
});
const newClient = (): Client => new Client({ name: 'hintgate-bench', version: '1.0.0' });

async function stdioPath(
  label: string,
  command: readonly string[],
  env = childEnv(),
): Promise<Path> {
  const [program = process.execPath, ...args] = command;
  const transport = new StdioClientTransport({
    command: program,
    args,
    cwd: ROOT,
    env,
    stderr: 'pipe',
  });
  const stderr = tail(transport.stderr);
  const client = newClient();
  await client.connect(transport, { timeout: TIMEOUT_MS }).catch((error: unknown) => {
    throw new Error(`${label}: could not connect: ${String(error)}\n${stderr()}`);
  });
  return {
    label,
    client,
    pid: transport.pid ?? undefined,
    close: () => client.close(),
    sample: newSample(),
  };
}

/** A Streamable HTTP client of the server `child` starts; `url` resolves once it listens. */
async function httpPath(
  label: string,
  child: ChildProcess,
  url: (output: () => string) => Promise<string>,
): Promise<Path> {
  const output = tail(child.stderr);
  const client = newClient();
  try {
    // The fetch drops the abort signal: undici keeps a listener on it per request until GC.
    const fetchWithout = (target: string | URL | Request, init?: RequestInit) =>
      fetch(target, { ...init, signal: null });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(await url(output)), { fetch: fetchWithout }),
      { timeout: TIMEOUT_MS },
    );
  } catch (error) {
    await stopProcess(child);
    throw new Error(`${label}: could not start or connect: ${String(error)}\n${output()}`);
  }
  const close = async () => {
    await client.close().catch(() => {});
    await stopProcess(child);
  };
  return { label, client, pid: child.pid, close, sample: newSample() };
}

const spawnQuiet = (args: string[], env = childEnv()): ChildProcess =>
  spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });

const gatewayHttp = (label: string, cli: string, config: string, env?: Record<string, string>) =>
  httpPath(
    label,
    spawnQuiet(
      [cli, 'gateway', '--config', config, '--mode', 'auto', '--http', '--port', '0'],
      env,
    ),
    async (output) => {
      for (
        const deadline = Date.now() + TIMEOUT_MS;
        Date.now() < deadline;
        await new Promise((r) => setTimeout(r, 50))
      ) {
        const url = /at (http:\/\/\S+\/mcp)/.exec(output())?.[1];
        if (url !== undefined) return url;
      }
      throw new Error('printed no URL');
    },
  );

/** The mcp-proxy command (`--server stream`) in front of the upstream, when installed. */
async function mcpProxyHttp(): Promise<Path | undefined> {
  let bin: string;
  try {
    const manifest = createRequire(import.meta.url).resolve('mcp-proxy/package.json');
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
    bin = join(manifest, '..', pkg.bin['mcp-proxy'] ?? '');
  } catch {
    return undefined;
  }
  const port = await freePort();
  const child = spawnQuiet([
    bin,
    '--host',
    '127.0.0.1',
    '--port',
    `${port}`,
    '--server',
    'stream',
    '--',
    ...UPSTREAM,
  ]);
  return httpPath('mcp-proxy (HTTP)', child, async () => {
    await waitForPort(port, child);
    return `http://127.0.0.1:${port}/mcp`;
  });
}

/** A configuration fronting the upstream in `dir`, pinned by `cli`; `audit.sync` when given. */
function pinnedConfig(dir: string, cli: string, sync?: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'hintgate.yaml');
  const [command, ...args] = UPSTREAM;
  const server = { command, args, cwd: ROOT, trusted: true };
  writeFileSync(
    file,
    JSON.stringify({
      servers: { bench: server },
      mode: 'auto',
      ...(sync ? { audit: { sync } } : {}),
    }),
  );
  execFileSync(process.execPath, [cli, 'pin', '--config', file], {
    cwd: ROOT,
    env: childEnv(),
    stdio: 'pipe',
    timeout: TIMEOUT_MS,
  });
  return file;
}

/** Makes `calls` calls of `ping`, `concurrency` in flight, into `sample`. */
async function drive(
  client: Client,
  concurrency: number,
  calls: number,
  sample = newSample(),
): Promise<Path['sample']> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next += 1;
      const start = performance.now();
      let failure: string | undefined;
      try {
        const result = await client.callTool({ name: 'ping', arguments: {} });
        const first = (result.content as { text?: string }[])[0];
        if (result.isError === true || first?.text !== 'pong')
          failure = JSON.stringify(result).slice(0, 200);
      } catch (error) {
        failure = String(error);
      }
      sample.latencies.push(performance.now() - start);
      if (failure !== undefined)
        [sample.failed, sample.failure] = [sample.failed + 1, sample.failure ?? failure];
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  sample.wallMs += performance.now() - start;
  return sample;
}

const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
const FAST = [
  ['on', 'fast paths on (default)'],
  ['off', 'fast paths off'],
  ['http', 'only the http fast path'],
  ['upstream', 'only the upstream fast path'],
] as const;
const RELAY =
  "const c=require('node:child_process').spawn(process.argv[1],process.argv.slice(2),{stdio:['pipe','pipe','inherit']});process.stdin.pipe(c.stdin);c.stdout.pipe(process.stdout);c.on('exit',(x)=>process.exit(x??1))";

/** Section `gateway`. */
export async function gateway(context: Context): Promise<Result> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-gateway-'));
  const paths: Path[] = [];
  try {
    const gateways = (await builds(context.baseline)).map((b) => ({
      label: b.label,
      cli: join(b.dist, 'cli', 'main.js'),
    }));
    const [mine, base] = gateways as [{ cli: string }, { label: string; cli: string } | undefined];
    const config = (name: string, cli = mine.cli, sync?: string) =>
      pinnedConfig(join(work, name), cli, sync);
    const fast = (value: string) => childEnv({ HINTGATE_FAST_PATHS: value });
    paths.push(await stdioPath('direct (stdio)', UPSTREAM));
    for (const [value, label] of FAST)
      paths.push(
        await stdioPath(
          `gateway stdio, ${label}`,
          [
            process.execPath,
            mine.cli,
            'gateway',
            '--config',
            config(`stdio-${value}`),
            '--mode',
            'auto',
          ],
          fast(value),
        ),
      );
    paths.push(
      await stdioPath('gateway stdio, audit.sync: always', [
        process.execPath,
        mine.cli,
        'gateway',
        '--config',
        config('stdio-always', mine.cli, 'always'),
      ]),
    );
    if (base)
      paths.push(
        await stdioPath('gateway stdio, baseline build', [
          process.execPath,
          base.cli,
          'gateway',
          '--config',
          config('stdio-base', base.cli),
        ]),
      );
    paths.push(
      await stdioPath('bare Node relay (reference)', [process.execPath, '-e', RELAY, ...UPSTREAM]),
    );
    const proxyRelay = [
      process.execPath,
      '--import',
      'tsx',
      fileURLToPath(new URL('./gateway-relay.ts', import.meta.url)),
      ...UPSTREAM,
    ];
    paths.push(await stdioPath('mcp-proxy proxyServer relay (stdio, reference)', proxyRelay));
    for (const [value, label] of FAST)
      paths.push(
        await gatewayHttp(`gateway HTTP, ${label}`, mine.cli, config(`http-${value}`), fast(value)),
      );
    paths.push(
      await gatewayHttp(
        'gateway HTTP, audit.sync: always',
        mine.cli,
        config('http-always', mine.cli, 'always'),
      ),
    );
    if (base)
      paths.push(
        await gatewayHttp('gateway HTTP, baseline build', base.cli, config('http-base', base.cli)),
      );
    const proxy = await mcpProxyHttp();
    if (proxy) paths.push(proxy);

    // Warm-up, block by block, so a cold start stays visible.
    const [warmCalls, block] = sized([10_000, 2000], [16, 8]);
    const warm: Row[] = paths.map((path) => ({ path: path.label }));
    for (let done = 0; done < warmCalls; done += block) {
      for (const [i, path] of paths.entries()) {
        const s = await drive(path.client, 8, block);
        const row = warm[i] as Record<string, string>;
        row[`calls ${done + 1}-${done + block}: p50 ms, calls/s`] =
          `${percentile(sorted(s.latencies), 50).toFixed(3)}, ${((block * 1000) / s.wallMs).toFixed(0)}`;
      }
    }
    const calls = sized(2000, 8);
    const rows: Row[] = [];
    const goals: Goal[] = [];
    for (const level of [1, 8, 32]) {
      for (const path of paths) path.sample = newSample();
      for (let round = 0; round < 2; round += 1) {
        for (let turn = 0; turn < paths.length; turn += 1) {
          const { pid, client, sample } = paths[(turn + round) % paths.length] as Path;
          const before = [procCpuMs(pid), procCpuMs(pid, true), preemptions(pid)];
          await drive(client, level, calls / 2, sample);
          sample.cpuMs += procCpuMs(pid) - (before[0] ?? 0);
          sample.ownMs += procCpuMs(pid, true) - (before[1] ?? 0);
          sample.preempted += preemptions(pid) - (before[2] ?? 0);
        }
      }
      const figures = paths.map(({ label, sample: s }) => {
        const times = sorted(s.latencies);
        return {
          label,
          s,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
          rate: (times.length * 1000) / s.wallMs,
          cpu: (s.cpuMs * 1000) / times.length,
        };
      });
      const [direct] = figures;
      const find = (label: string) => figures.find((f) => f.label === label);
      const proxied = find('mcp-proxy (HTTP)');
      for (const f of figures) {
        rows.push({
          path: f.label,
          concurrent: level,
          'p50 ms': f.p50,
          'p95 ms': f.p95,
          'p99 ms': f.p99,
          'calls/s': f.rate,
          'CPU µs/call (path processes)': f.cpu,
          'of which the first process': (f.s.ownMs * 1000) / calls,
          'preempted per call': f.s.preempted / calls,
          'p50 - direct ms': f.p50 - (direct?.p50 ?? Number.NaN),
          'CPU / direct': f.cpu / (direct?.cpu ?? Number.NaN),
          'calls/s / mcp-proxy': f.rate / (proxied?.rate ?? Number.NaN),
          'not ok': f.s.failed === 0 ? '0' : `${f.s.failed} (${f.s.failure})`,
        });
      }
      const stdio = find(`gateway stdio, ${FAST[0][1]}`);
      if (level === 1 && stdio && direct) {
        goals.push(
          goal(
            'stdio hop: gateway p50 - direct p50, 1 concurrent',
            stdio.p50 - direct.p50,
            0.1,
            'ms',
          ),
        );
        goals.push(
          goal(
            "stdio hop: CPU per call of the gateway's processes / direct's, 1 concurrent",
            stdio.cpu / direct.cpu,
            2,
          ),
        );
      }
      const http = find(`gateway HTTP, ${FAST[0][1]}`);
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
    const audits = ['stdio-on', 'http-on'].map((name): Row => {
      const text = readFileSync(join(work, name, '.hintgate', 'audit.jsonl'), 'utf8');
      const types = new Map<string, number>();
      for (const line of text.split('\n').filter(Boolean)) {
        const type = (JSON.parse(line) as { type: string }).type;
        types.set(type, (types.get(type) ?? 0) + 1);
      }
      const made = warmCalls + 3 * calls;
      const events = [...types].map(([type, count]) => `${count} \`${type}\``).join(', ');
      return {
        'gateway (default configuration)': name.startsWith('stdio') ? 'stdio' : 'HTTP',
        'calls made': made,
        'audit events': events,
        'bytes per call': Buffer.byteLength(text) / made,
      };
    });
    const mcpProxy = proxy
      ? `mcp-proxy ${version('mcp-proxy')}`
      : 'mcp-proxy (not installed: not measured)';
    return {
      method: `one stdio upstream (server ${version('@modelcontextprotocol/server')}, one read-only \`ping\`), one client ${version('@modelcontextprotocol/client')} per path; gateways in mode \`auto\`, server trusted and pinned, audit to \`.hintgate/audit.jsonl\`; ${mcpProxy}. ${warmCalls} warm-up calls per path at 8 concurrent in blocks (first table), then ${calls} calls per path and level in 2 rotating rounds; p50/p95/p99 nearest-rank of \`callTool\` in the client; CPU = user + system of the path's processes (all but the client) from /proc, "preempted" = involuntary context switches of its first process. Last table: the gateway's upstream side in process, one call at a time, 8 rotating rounds of 500 calls, CPU of this process.`,
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
  const runtimeLayer = async (audit?: AuditSink, era?: McpEraOption) => {
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'bench',
      registry,
      command,
      args,
      cwd: ROOT,
      env: childEnv(),
      trusted: true,
      ...(era ? { era } : {}),
    });
    const runtime = createRuntime({
      registry,
      mode: 'auto',
      ...(audit ? { auditSinks: [audit] } : {}),
    });
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
    const sdk = await stdioPath('sdk', UPSTREAM);
    closers.push(() => sdk.close());
    const list: [string, { era: string; call: () => Promise<unknown> }][] = [
      [
        'SDK Client alone (`client.callTool`)',
        {
          era: sdk.client.getProtocolEra() ?? '',
          call: () => sdk.client.callTool({ name: 'ping', arguments: {} }),
        },
      ],
      ['runtime over `connectMcpServer`, its defaults, no audit', await runtimeLayer()],
      ['+ memory audit sink', await runtimeLayer(createMemoryAuditSink())],
      ['JSONL audit sink, sync: false', await runtimeLayer(jsonl(false))],
      ["JSONL audit sink, sync: 'auto' (gateway default)", await runtimeLayer(jsonl('auto'))],
      ['JSONL audit sink, sync: true (audit.sync: always)', await runtimeLayer(jsonl(true))],
      ["reference: runtime with era: 'auto', no audit", await runtimeLayer(undefined, 'auto')],
    ];
    const m = await interleave(
      list.map(([, layer]) => ({ calls: 1, run: layer.call })),
      { rounds: 8, runsPerRound: 500, warmupRuns: 1000 },
    );
    const [first] = m;
    return table(
      list.map(([label, layer], i) => ({
        'layer (upstream side, in process)': `${i + 1}. ${label}`,
        era:
          layer.era === 'legacy'
            ? '2025 handshake'
            : layer.era === 'modern'
              ? '2026-07-28'
              : layer.era,
        'p50 ms': (m[i]?.p50RunUs ?? Number.NaN) / 1000,
        'CPU µs/call': m[i]?.cpuUs ?? Number.NaN,
        'p50 - row 1 ms': ((m[i]?.p50RunUs ?? Number.NaN) - (first?.p50RunUs ?? Number.NaN)) / 1000,
        'CPU / row 1': (m[i]?.cpuUs ?? Number.NaN) / (first?.cpuUs ?? Number.NaN),
      })),
    );
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
  }
}

/** True when `program` is on PATH. */
export const onPath = (program: string): boolean =>
  (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, program)));
