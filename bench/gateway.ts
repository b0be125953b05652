/**
 * Paths to the cheap upstream of the gateway benches (bench/gateway-upstream.ts, one
 * read-only `ping`), each an MCP client (`@modelcontextprotocol/client`): direct stdio, a
 * `hintgate gateway` over stdio or `--http` (pinned, mode auto), the `mcp-proxy` command,
 * any stdio relay; and the driver that measures them at each concurrency level in
 * interleaved rounds, with the CPU of every process of a path but the client.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { AuditSyncPolicy } from 'hintgate/gateway';
import { percentile, QUICK, treeCpuMs, turnOrder } from './measure.js';
import { freePort, stopProcess, tail, waitForPort } from './processes.js';
import { fixed, table } from './report.js';

export { percentile } from './measure.js';

/** Calls per path and level: 2000 (8 in a `HINTGATE_BENCH_QUICK=1` trial). */
export const GATEWAY_CALLS = QUICK ? 8 : 2000;
/** Warm-up calls per path before a measurement: `calls`, or 8 in a quick trial. */
export const warmupCalls = (calls: number): number => (QUICK ? 8 : calls);
const START_TIMEOUT_MS = 20_000;

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** This build's CLI. */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
/** How the upstream is started: run with tsx from the repository root, where tsx resolves. */
export const UPSTREAM_COMMAND = [
  process.execPath,
  '--import',
  'tsx',
  fileURLToPath(new URL('./gateway-upstream.ts', import.meta.url)),
] as const;
/** mcp-proxy's `proxyServer` as a stdio relay in front of the upstream (bench/gateway-relay.ts). */
export const RELAY_COMMAND = [
  process.execPath,
  '--import',
  'tsx',
  fileURLToPath(new URL('./gateway-relay.ts', import.meta.url)),
  ...UPSTREAM_COMMAND,
] as const;

const require = createRequire(import.meta.url);

/** An installed package's version, or `unknown`. */
export function packageVersion(name: string): string {
  try {
    const manifest = join(ROOT, 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The installed mcp-proxy: its command's script and version, or why it is missing. */
export function mcpProxyPackage(): { bin: string; version: string } | { missing: string } {
  try {
    const manifest = require.resolve('mcp-proxy/package.json');
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      version: string;
      bin: Record<string, string> | string;
    };
    const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['mcp-proxy'];
    if (bin === undefined) return { missing: 'its package.json names no mcp-proxy command' };
    return { bin: join(manifest, '..', bin), version: pkg.version };
  } catch (error) {
    return { missing: `not installed (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The environment of the processes started here, without a token that would lock HTTP. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'HINTGATE_TOKEN') env[key] = value;
  }
  return { ...env, ...extra };
}

/** One way of reaching the upstream's tool. */
export interface Path {
  readonly label: string;
  readonly client: Client;
  /** The client's child process (its tree's CPU counts), if any. */
  readonly pid: () => number | undefined;
  close(): Promise<void>;
}

const newClient = (): Client => new Client({ name: 'hintgate-bench', version: '1.0.0' });

/** A client that spawns `command` and speaks stdio to it. */
export async function stdioPath(
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
  try {
    await client.connect(transport, { timeout: START_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => {});
    throw new Error(`${label}: could not connect: ${String(error)}\n${stderr()}`);
  }
  return { label, client, pid: () => transport.pid ?? undefined, close: () => client.close() };
}

/**
 * A client over Streamable HTTP to a server `child` runs at `url`. Its fetch drops the
 * transport's abort signal: undici keeps a listener on it per request until garbage
 * collection, and thousands pile up under load; the bench never cancels a call.
 */
async function httpPath(
  label: string,
  child: ChildProcess,
  url: string,
  output: () => string,
): Promise<Path> {
  const client = newClient();
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (target, init) => {
      if (init === undefined) return fetch(target);
      const { signal: _unused, ...rest } = init;
      return fetch(target, rest);
    },
  });
  try {
    await client.connect(transport, { timeout: START_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => {});
    await stopProcess(child);
    throw new Error(`${label}: could not connect to ${url}: ${String(error)}\n${output()}`);
  }
  const close = async (): Promise<void> => {
    await client.close().catch(() => {});
    await stopProcess(child);
  };
  return { label, client, pid: () => child.pid, close };
}

/** `hintgate gateway --http` of `cli` (default this build's) on a free port. */
export async function gatewayHttpPath(
  label: string,
  config: string,
  options: { cli?: string; env?: Record<string, string> } = {},
): Promise<Path> {
  const child = spawn(
    process.execPath,
    [options.cli ?? CLI, 'gateway', '--config', config, '--mode', 'auto', '--http', '--port', '0'],
    { cwd: ROOT, env: options.env ?? childEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const output = tail(child.stderr);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.stderr?.on('data', () => {
      const match = /at (http:\/\/\S+\/mcp)/.exec(output());
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with code ${code}`));
    });
  }).catch(async (error: unknown) => {
    await stopProcess(child);
    throw new Error(`${label} did not start: ${String(error)}\n${output()}`);
  });
  return httpPath(label, child, url, output);
}

/** The mcp-proxy command (`--server stream`) in front of the upstream on a free port. */
export async function mcpProxyHttpPath(bin: string, label = 'mcp-proxy'): Promise<Path> {
  const port = await freePort();
  const args = [bin, '--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--'];
  const child = spawn(process.execPath, [...args, ...UPSTREAM_COMMAND], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output = tail(child.stderr);
  try {
    await waitForPort(port, child, START_TIMEOUT_MS);
  } catch (error) {
    await stopProcess(child);
    throw new Error(`mcp-proxy did not start: ${String(error)}\n${output()}`);
  }
  return httpPath(label, child, `http://127.0.0.1:${port}/mcp`, output);
}

/** The command line of `hintgate gateway` over stdio with `config`. */
export const gatewayCommand = (config: string, cli = CLI): string[] => [
  process.execPath,
  cli,
  'gateway',
  '--config',
  config,
  '--mode',
  'auto',
];

/**
 * A gateway configuration in a directory of its own (audit log, approvals and pins beside
 * it), pinned with `hintgate pin`, with `audit.sync` set when `sync` is given. Returns the
 * configuration file's path.
 */
export async function pinnedConfig(directory: string, sync?: AuditSyncPolicy): Promise<string> {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, 'hintgate.yaml');
  const [command, ...args] = UPSTREAM_COMMAND;
  const config = {
    servers: { bench: { command, args, cwd: ROOT, trusted: true } },
    mode: 'auto',
    ...(sync === undefined ? {} : { audit: { sync } }),
  };
  // JSON is YAML too.
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'pin', '--config', file],
      { cwd: ROOT, env: childEnv(), timeout: START_TIMEOUT_MS },
      (error, _out, stderr) =>
        error === null ? resolve() : reject(new Error(`hintgate pin: ${error.message}\n${stderr}`)),
    );
  });
  return file;
}

/** Calls made and how they went, for one path at one concurrency level. */
export interface Sample {
  readonly latencies: number[];
  wallMs: number;
  failed: number;
  firstFailure?: string;
}

/** An empty {@link Sample}. */
export const newSample = (): Sample => ({ latencies: [], wallMs: 0, failed: 0 });

/** Makes `calls` calls of `ping` with `concurrency` in flight; adds to `sample` if given. */
export async function drive(
  client: Client,
  concurrency: number,
  calls: number,
  sample?: Sample,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next += 1;
      const start = performance.now();
      let failure: string | undefined;
      try {
        const result = await client.callTool({ name: 'ping', arguments: {} });
        const first = (result.content as ReadonlyArray<{ text?: string }>)[0];
        if (result.isError === true || first?.text !== 'pong') {
          failure = `unexpected result ${JSON.stringify(result).slice(0, 200)}`;
        }
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      if (sample === undefined) continue;
      sample.latencies.push(performance.now() - start);
      if (failure !== undefined) {
        sample.failed += 1;
        sample.firstFailure ??= failure;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (sample !== undefined) sample.wallMs += performance.now() - start;
}

/** A path's figures at one concurrency level. */
export interface PathRow {
  readonly label: string;
  readonly concurrency: number;
  readonly calls: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  /** Calls per second. */
  readonly throughput: number;
  /** CPU µs per call of the client's child process tree (NaN off Linux or without one). */
  readonly cpuUs: number;
  /** Calls not ok, with the first failure. */
  readonly notOk: string;
}

const rowOf = (label: string, concurrency: number, sample: Sample, cpuMs: number): PathRow => {
  const sorted = [...sample.latencies].sort((a, b) => a - b);
  return {
    label,
    concurrency,
    calls: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    throughput: (sorted.length * 1000) / sample.wallMs,
    cpuUs: (cpuMs * 1000) / sorted.length,
    notOk: sample.failed === 0 ? '0' : `${sample.failed} (${sample.firstFailure ?? ''})`,
  };
};

/**
 * The rows as a Markdown table: latency, calls/s and CPU per call, each against the row of
 * the same level whose label starts with `direct` (p50 and CPU) and `mcp-proxy` (calls/s).
 */
export function pathsTable(rows: readonly PathRow[], direct: string, mcpProxy: string): string {
  const find = (prefix: string, level: number) =>
    rows.find((row) => row.concurrency === level && row.label.startsWith(prefix));
  const ms = (value: number | undefined): string => (value === undefined ? 'n/a' : fixed(value, 3));
  return table(
    [
      'path',
      'concurrent',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'calls/s',
      'CPU µs/call',
      'p50 - direct ms',
      'CPU / direct',
      'calls/s / mcp-proxy',
      'not ok',
    ],
    rows.map((row) => {
      const base = find(direct, row.concurrency);
      const other = find(mcpProxy, row.concurrency);
      return [
        row.label,
        String(row.concurrency),
        ms(row.p50),
        ms(row.p95),
        ms(row.p99),
        fixed(row.throughput, 0),
        fixed(row.cpuUs, 0),
        ms(base && row.p50 - base.p50),
        base ? fixed(row.cpuUs / base.cpuUs, 2) : 'n/a',
        other ? fixed(row.throughput / other.throughput, 2) : 'n/a',
        row.notOk,
      ];
    }),
  );
}

/**
 * Measures every path at every level: `calls` calls per path and level in `rounds` rounds,
 * the paths taking turns in a rotating order, so drift of the machine hits them alike.
 */
export async function measurePaths(
  paths: readonly Path[],
  levels: readonly number[],
  calls = GATEWAY_CALLS,
  rounds = 2,
): Promise<PathRow[]> {
  const rows: PathRow[] = [];
  for (const concurrency of levels) {
    const samples = paths.map(newSample);
    const cpu = paths.map(() => 0);
    for (let round = 0; round < rounds; round += 1) {
      for (const index of turnOrder(paths.length, round)) {
        const path = paths[index] as Path;
        const before = treeCpuMs(path.pid());
        await drive(path.client, concurrency, calls / rounds, samples[index]);
        cpu[index] = (cpu[index] ?? 0) + treeCpuMs(path.pid()) - before;
      }
    }
    for (const [index, path] of paths.entries()) {
      rows.push(rowOf(path.label, concurrency, samples[index] as Sample, cpu[index] ?? 0));
    }
  }
  return rows;
}

/**
 * Warms every path up at 8 concurrent in blocks of `block` calls, the paths taking turns
 * block by block; returns each block's row, so a cold start stays visible.
 */
export async function warmUp(
  paths: readonly Path[],
  calls: number,
  block: number,
): Promise<PathRow[][]> {
  const blocks = paths.map((): PathRow[] => []);
  for (let done = 0; done < calls; done += block) {
    for (const [index, path] of paths.entries()) {
      const sample = newSample();
      await drive(path.client, 8, block, sample);
      blocks[index]?.push(rowOf(path.label, 8, sample, Number.NaN));
    }
  }
  return blocks;
}
