/**
 * Part 4 of `npm run bench`: what the gateway adds to a call. One cheap upstream MCP server
 * (bench/gateway-upstream.ts, one read-only tool returning "pong") is called by one MCP
 * client (`@modelcontextprotocol/client`) along these paths, all set up and measured in the
 * same run:
 *
 * - direct: the client spawns the upstream and speaks stdio to it;
 * - hintgate, stdio: the client spawns `hintgate gateway` (dist/cli/main.js, mode auto,
 *   upstream trusted and pinned with `hintgate pin`, the default configuration otherwise,
 *   so `audit.sync: auto`), which spawns the upstream;
 * - hintgate, stdio, `audit.sync: always`: the same, every call waiting for the fdatasync
 *   of its audit events;
 * - hintgate, HTTP: both gateway configurations again with `--http`, the client over
 *   Streamable HTTP;
 * - mcp-proxy, HTTP: the `mcp-proxy` npm package's command fronting the same upstream,
 *   the client over Streamable HTTP (mcp-proxy serves only HTTP and SSE downstream);
 * - for reference, mcp-proxy's `proxyServer` as a stdio relay (bench/gateway-relay.ts).
 *
 * Every path is warmed up with 10000 calls, reported block by block. Then, for every
 * concurrency level, every path gets the same number of calls, in interleaved rounds; per-call
 * latency and throughput are reported. Then
 * bench/gateway-layers.ts measures the gateway's upstream side layer by layer.
 *
 * `HINTGATE_BENCH_GATEWAY_CALLS=N` (a positive multiple of 2) makes N calls per path and
 * level instead of 2000, for a quick trial; the warm-up and the layer table keep their size.
 * The report is rendered by bench/gateway-report.ts.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  Client,
  type FetchLike,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type AuditSyncPolicy, loadGatewayConfig } from 'hintgate/gateway';
import { auditCounts } from './audit-counts.js';
import { gatewayLayers } from './gateway-layers.js';
import {
  type GatewayReport,
  type GatewayRow,
  renderGatewayReport,
  type WarmupRow,
} from './gateway-report.js';
import { freePort, stopProcess, tail, waitForPort } from './processes.js';
import { fixed } from './report.js';

/** Concurrent requests measured. */
export const GATEWAY_CONCURRENCY = [1, 8, 32] as const;
/** Rounds per level; the paths take turns in each round, so drift hits them alike. */
const ROUNDS = 2;

/** Calls per path and level: 2000, or `HINTGATE_BENCH_GATEWAY_CALLS` for a quick trial. */
function gatewayCalls(value: string | undefined): number {
  if (value === undefined || value === '') return 2000;
  const calls = Number(value);
  if (!Number.isInteger(calls) || calls <= 0 || calls % ROUNDS !== 0) {
    throw new Error(
      `HINTGATE_BENCH_GATEWAY_CALLS must be a positive multiple of ${ROUNDS}, not ${JSON.stringify(value)}.`,
    );
  }
  return calls;
}

/** Measured calls per path and concurrency level, split over {@link ROUNDS} rounds. */
export const GATEWAY_CALLS = gatewayCalls(process.env.HINTGATE_BENCH_GATEWAY_CALLS);
/**
 * Calls per path before the first level, at concurrency 8, in blocks of
 * {@link WARMUP_BLOCK_CALLS}. Every process starts cold: V8 compiles its hot functions with
 * optimizations only after they ran some thousands of times, and until then a relayed call
 * costs up to twice the CPU. The levels measure processes past that; the report shows each
 * warm-up block, so the cold start stays visible.
 */
const WARMUP_CALLS = 10_000;
/** Calls per block of the warm-up, each reported apart. */
const WARMUP_BLOCK_CALLS = 2000;
/** Goal: hintgate over stdio adds less than this at p50 over direct stdio. */
export const P50_OVERHEAD_GOAL_MS = 0.3;
/** Calls per variant of the layer measurement (bench/gateway-layers.ts), one at a time. */
const LAYER_CALLS = 4000;
/** The `audit.sync` the gateway's default configuration has, as the report describes it. */
const DEFAULT_AUDIT_SYNC = 'auto';
/** Time allowed for a process to start and be ready. */
const START_TIMEOUT_MS = 20_000;

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const UPSTREAM = fileURLToPath(new URL('./gateway-upstream.ts', import.meta.url));
const RELAY = fileURLToPath(new URL('./gateway-relay.ts', import.meta.url));
/** How the upstream is started: run with tsx from the repository root, where tsx resolves. */
export const UPSTREAM_COMMAND = [process.execPath, '--import', 'tsx', UPSTREAM] as const;
const TOOL = 'ping';

const require = createRequire(import.meta.url);

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

const packageVersion = (name: string): string => {
  try {
    const manifest = join(ROOT, 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
};

/** The environment of the processes started here, without a token that would lock HTTP. */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'HINTGATE_TOKEN') env[key] = value;
  }
  return env;
}

/** The paths measured; see the file's description. */
export type PathKey =
  | 'direct'
  | 'hintgateStdio'
  | 'hintgateStdioAlways'
  | 'mcpProxyStdio'
  | 'hintgateHttp'
  | 'hintgateHttpAlways'
  | 'mcpProxyHttp';

/** One way of reaching the upstream's tool. */
interface Path {
  readonly key: PathKey;
  readonly label: string;
  readonly client: Client;
  close(): Promise<void>;
}

const newClient = (): Client => new Client({ name: 'hintgate-bench', version: '1.0.0' });

/**
 * fetch without the transport's abort signal. The SDK's HTTP client transport gives every
 * request the same signal, and undici keeps a listener on it per request until the request
 * is garbage-collected: under load thousands pile up (Node warns past 1500) and each new
 * one costs more. The benchmark never cancels a call, so both HTTP paths go without it.
 */
const fetchWithoutSignal: FetchLike = (url, init) => {
  if (init === undefined) return fetch(url);
  const { signal: _unused, ...rest } = init;
  return fetch(url, rest);
};

async function stdioPath(key: PathKey, label: string, command: readonly string[]): Promise<Path> {
  const [program = process.execPath, ...args] = command;
  const transport = new StdioClientTransport({
    command: program,
    args,
    cwd: ROOT,
    env: childEnv(),
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
  return { key, label, client, close: () => client.close() };
}

async function httpPath(
  key: PathKey,
  label: string,
  child: ChildProcess,
  url: string,
  output: () => string,
): Promise<Path> {
  const client = newClient();
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { fetch: fetchWithoutSignal }),
      { timeout: START_TIMEOUT_MS },
    );
  } catch (error) {
    await client.close().catch(() => {});
    await stopProcess(child);
    throw new Error(`${label}: could not connect to ${url}: ${String(error)}\n${output()}`);
  }
  return {
    key,
    label,
    client,
    async close() {
      await client.close().catch(() => {});
      await stopProcess(child);
    },
  };
}

/**
 * Starts `hintgate gateway --http` on a free port and connects to the URL it prints. `cli` is
 * the CLI script to run; default this build's dist/cli/main.js.
 */
export async function hintgateHttpPath(
  config: string,
  key: 'hintgateHttp' | 'hintgateHttpAlways',
  label: string,
  cli = CLI,
): Promise<Path> {
  const child = spawn(
    process.execPath,
    [cli, 'gateway', '--config', config, '--mode', 'auto', '--http', '--port', '0'],
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const output = tail(child.stderr);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no URL within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.stderr?.on('data', (chunk: Buffer | string) => {
      seen += String(chunk);
      const match = /at (http:\/\/\S+\/mcp)/.exec(seen);
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
  return httpPath(key, label, child, url, output);
}

/** Starts the mcp-proxy command in front of the upstream on a free port of 127.0.0.1. */
export async function mcpProxyHttpPath(bin: string): Promise<Path> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      bin,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--server',
      'stream',
      '--',
      ...UPSTREAM_COMMAND,
    ],
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stdout = tail(child.stdout);
  const stderr = tail(child.stderr);
  const output = (): string => `${stdout()}\n${stderr()}`.trim();
  try {
    await waitForPort(port, child, START_TIMEOUT_MS);
  } catch (error) {
    await stopProcess(child);
    throw new Error(`mcp-proxy did not start: ${String(error)}\n${output()}`);
  }
  return httpPath('mcpProxyHttp', 'mcp-proxy', child, `http://127.0.0.1:${port}/mcp`, output);
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...args],
      { cwd: ROOT, env: childEnv(), timeout: START_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`${args.join(' ')}: ${error.message}\n${stderr}`));
        else resolve(`${stdout}${stderr}`);
      },
    );
  });
}

/**
 * A gateway configuration in a directory of its own (audit log, approvals and pins beside
 * it), pinned with `hintgate pin`, with `audit.sync` set when `sync` is given. Returns the
 * configuration file's path.
 */
export async function pinnedConfig(directory: string, sync?: AuditSyncPolicy): Promise<string> {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, 'hintgate.yaml');
  const [command, ...args] = UPSTREAM_COMMAND;
  // JSON is YAML too.
  const config = {
    servers: { bench: { command, args, cwd: ROOT, trusted: true } },
    mode: 'auto',
    ...(sync === undefined ? {} : { audit: { sync } }),
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  await run([CLI, 'pin', '--config', file]);
  return file;
}

/**
 * Checks that a configuration without `audit` or `era` still means what the report says:
 * `audit.sync` {@link DEFAULT_AUDIT_SYNC}, and no era set for the server, so the gateway
 * connects to it as `connectMcpServer` does by default (row 2 of the layer table).
 */
async function checkDefaults(file: string): Promise<void> {
  const config = await loadGatewayConfig(file);
  if (config.audit.sync !== DEFAULT_AUDIT_SYNC) {
    throw new Error(
      `bench/gateway.ts describes audit.sync ${DEFAULT_AUDIT_SYNC} as the gateway's default, but it is now ${config.audit.sync}: update part 4 (gateway.ts, gateway-report.ts).`,
    );
  }
  const era = config.servers[0]?.era;
  if (era !== undefined) throw new Error(`${file}: the server has era ${era}; expected none.`);
}

/** Calls made and how they went, for one path at one concurrency level. */
export interface Sample {
  readonly latencies: number[];
  wallMs: number;
  failed: number;
  firstFailure?: string;
}

/** Makes `calls` calls of the tool with `concurrency` in flight; adds to `sample` if given. */
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
        const result = await client.callTool({ name: TOOL, arguments: {} });
        const first = (result.content as ReadonlyArray<{ type: string; text?: string }>)[0];
        if (result.isError === true || first?.text !== 'pong') {
          failure = `unexpected result ${JSON.stringify(result).slice(0, 200)}`;
        }
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      const elapsed = performance.now() - start;
      if (sample !== undefined) {
        sample.latencies.push(elapsed);
        if (failure !== undefined) {
          sample.failed += 1;
          sample.firstFailure ??= failure;
        }
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (sample !== undefined) sample.wallMs += performance.now() - start;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

const rowOf = (path: Path, concurrency: number, sample: Sample): GatewayRow => {
  const sorted = [...sample.latencies].sort((a, b) => a - b);
  return {
    path: path.key,
    label: path.label,
    concurrency,
    calls: sample.latencies.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    throughput: (sample.latencies.length * 1000) / sample.wallMs,
    failed: sample.failed,
    ...(sample.firstFailure === undefined ? {} : { firstFailure: sample.firstFailure }),
  };
};

/**
 * Warms every path up with {@link WARMUP_CALLS} calls at concurrency 8, the paths taking turns
 * block by block, so each sees the machine in the same periods. Returns the blocks' figures.
 */
async function warmUp(paths: readonly Path[]): Promise<WarmupRow[]> {
  const blocks = paths.map((): Sample[] => []);
  for (let done = 0; done < WARMUP_CALLS; done += WARMUP_BLOCK_CALLS) {
    for (const [index, path] of paths.entries()) {
      const sample: Sample = { latencies: [], wallMs: 0, failed: 0 };
      await drive(path.client, 8, WARMUP_BLOCK_CALLS, sample);
      blocks[index]?.push(sample);
    }
  }
  return paths.map((path, index) => ({
    path: path.key,
    label: path.label,
    blocks: (blocks[index] ?? []).map((sample) => {
      const sorted = [...sample.latencies].sort((a, b) => a - b);
      return {
        p50: percentile(sorted, 50),
        throughput: (sample.latencies.length * 1000) / sample.wallMs,
        failed: sample.failed,
      };
    }),
  }));
}

/** Runs part 4 and renders it. `log` receives progress lines. */
export async function gatewayOverhead(log: (line: string) => void): Promise<GatewayReport> {
  const proxy = mcpProxyPackage();
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-gateway-'));
  const paths: Path[] = [];
  try {
    const dirs = ['stdio', 'stdio-always', 'http', 'http-always'].map((name) => join(work, name));
    const [stdioDir = '', stdioAlwaysDir = '', httpDir = '', httpAlwaysDir = ''] = dirs;
    const [stdioConfig = '', stdioAlwaysConfig = '', httpConfig = '', httpAlwaysConfig = ''] =
      await Promise.all([
        pinnedConfig(stdioDir),
        pinnedConfig(stdioAlwaysDir, 'always'),
        pinnedConfig(httpDir),
        pinnedConfig(httpAlwaysDir, 'always'),
      ]);
    await checkDefaults(stdioConfig);
    const byDefault = `audit.sync: ${DEFAULT_AUDIT_SYNC} (default)`;
    const gatewayCommand = (config: string) => [
      process.execPath,
      CLI,
      'gateway',
      '--config',
      config,
      '--mode',
      'auto',
    ];
    paths.push(await stdioPath('direct', 'direct', UPSTREAM_COMMAND));
    paths.push(
      await stdioPath(
        'hintgateStdio',
        `hintgate gateway, ${byDefault}`,
        gatewayCommand(stdioConfig),
      ),
    );
    paths.push(
      await stdioPath(
        'hintgateStdioAlways',
        'hintgate gateway, audit.sync: always',
        gatewayCommand(stdioAlwaysConfig),
      ),
    );
    if ('bin' in proxy) {
      paths.push(
        await stdioPath('mcpProxyStdio', 'mcp-proxy proxyServer (reference)', [
          process.execPath,
          '--import',
          'tsx',
          RELAY,
          ...UPSTREAM_COMMAND,
        ]),
      );
    }
    paths.push(
      await hintgateHttpPath(httpConfig, 'hintgateHttp', `hintgate gateway --http, ${byDefault}`),
    );
    paths.push(
      await hintgateHttpPath(
        httpAlwaysConfig,
        'hintgateHttpAlways',
        'hintgate gateway --http, audit.sync: always',
      ),
    );
    if ('bin' in proxy) paths.push(await mcpProxyHttpPath(proxy.bin));
    for (const path of paths) {
      const { tools } = await path.client.listTools();
      if (!tools.some((tool) => tool.name === TOOL)) {
        throw new Error(`${path.label} does not list the tool "${TOOL}"`);
      }
    }
    const warmup = await warmUp(paths);
    log(`  part 4: ${paths.length} paths ready, warmed up`);

    const rows: GatewayRow[] = [];
    for (const concurrency of GATEWAY_CONCURRENCY) {
      const samples = paths.map((): Sample => ({ latencies: [], wallMs: 0, failed: 0 }));
      for (let round = 0; round < ROUNDS; round += 1) {
        // Alternate the order of the paths from round to round.
        const order = round % 2 === 0 ? paths.keys() : [...paths.keys()].reverse();
        for (const index of order) {
          const path = paths[index] as Path;
          await drive(path.client, concurrency, GATEWAY_CALLS / ROUNDS, samples[index]);
        }
      }
      for (const [index, path] of paths.entries()) {
        const row = rowOf(path, concurrency, samples[index] as Sample);
        rows.push(row);
        log(
          `  part 4: ${path.label}, ${concurrency} concurrent: p50 ${fixed(row.p50, 3)} ms, ${fixed(row.throughput, 0)} calls/s`,
        );
      }
    }
    for (const path of paths.splice(0)) await path.close();
    const audits = dirs.map(auditCounts);
    log('  part 4: layers of the upstream side');
    const layers = await gatewayLayers(LAYER_CALLS);
    return renderGatewayReport({
      rows,
      warmup,
      proxy,
      audits,
      layers,
      method: {
        calls: GATEWAY_CALLS,
        rounds: ROUNDS,
        warmupCalls: WARMUP_CALLS,
        warmupBlockCalls: WARMUP_BLOCK_CALLS,
        layerCalls: LAYER_CALLS,
        concurrency: GATEWAY_CONCURRENCY,
        goalMs: P50_OVERHEAD_GOAL_MS,
        defaultSync: DEFAULT_AUDIT_SYNC,
        serverVersion: packageVersion('@modelcontextprotocol/server'),
        clientVersion: packageVersion('@modelcontextprotocol/client'),
      },
    });
  } finally {
    for (const path of paths) await path.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}
