/**
 * Part 4 of `npm run bench`: what the gateway adds to a call. One cheap upstream MCP server
 * (bench/gateway-upstream.ts, one read-only tool returning "pong") is called by one MCP
 * client (`@modelcontextprotocol/client`) along four paths, all set up and measured in the
 * same run:
 *
 * - direct: the client spawns the upstream and speaks stdio to it;
 * - hintgate, stdio: the client spawns `hintgate gateway` (dist/cli/main.js, mode auto,
 *   upstream trusted and pinned with `hintgate pin`), which spawns the upstream;
 * - hintgate, HTTP: the same gateway with `--http`, the client over Streamable HTTP;
 * - both hintgate paths again with `audit.sync: batched` (results wait for the audit
 *   events' append to the file, not for their fdatasync);
 * - mcp-proxy, HTTP: the `mcp-proxy` npm package's command fronting the same upstream,
 *   the client over Streamable HTTP (mcp-proxy serves only HTTP and SSE downstream).
 *
 * For every concurrency level, every path gets the same number of calls, in interleaved
 * rounds, after a warm-up; per-call latency and throughput are reported.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  Client,
  type FetchLike,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { gatewayLayers, type LayerRow, layersTable } from './gateway-layers.js';
import { fixed, table, yesNo } from './report.js';

/** Concurrent requests measured. */
export const GATEWAY_CONCURRENCY = [1, 8, 32] as const;
/** Measured calls per path and concurrency level, split over {@link ROUNDS} rounds. */
export const GATEWAY_CALLS = 2000;
/** Rounds per level; the paths take turns in each round, so drift hits them alike. */
const ROUNDS = 2;
/** Unrecorded calls per path before the first level, at concurrency 8. */
const WARMUP_CALLS = 500;
/** Goal: hintgate over stdio adds less than this at p50 over direct stdio. */
export const P50_OVERHEAD_GOAL_MS = 0.3;
/** Calls per variant of the layer measurement (bench/gateway-layers.ts), one at a time. */
const LAYER_CALLS = 4000;
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
function mcpProxyPackage(): { bin: string; version: string } | { missing: string } {
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

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:port accepts connections; rejects after `timeoutMs`. */
async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} not open within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Keeps the last `limit` characters of a stream, for error messages. */
function tail(
  stream: { on(event: 'data', listener: (chunk: Buffer | string) => void): unknown } | null,
  limit = 4000,
): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer | string) => {
    text = (text + String(chunk)).slice(-limit);
  });
  return () => text.trim();
}

/** Stops a process started here: SIGTERM, then SIGKILL if it has not exited in time. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** One way of reaching the upstream's tool. */
interface Path {
  readonly key:
    | 'direct'
    | 'hintgateStdio'
    | 'hintgateStdioBatched'
    | 'mcpProxyStdio'
    | 'hintgateHttp'
    | 'hintgateHttpBatched'
    | 'mcpProxyHttp';
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

async function stdioPath(
  key: Path['key'],
  label: string,
  command: readonly string[],
): Promise<Path> {
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
  key: Path['key'],
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

/** Starts `hintgate gateway --http` on a free port and connects to the URL it prints. */
async function hintgateHttpPath(
  config: string,
  key: 'hintgateHttp' | 'hintgateHttpBatched',
  label: string,
): Promise<Path> {
  const child = spawn(
    process.execPath,
    [CLI, 'gateway', '--config', config, '--mode', 'auto', '--http', '--port', '0'],
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
async function mcpProxyHttpPath(bin: string): Promise<Path> {
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

/** The gateway's `audit.sync` settings measured, the default first. */
export type AuditSync = 'always' | 'batched';

/**
 * A gateway configuration in a directory of its own (audit log, approvals and pins beside
 * it), pinned with `hintgate pin`, with `audit.sync` set when `sync` is given. Returns the
 * configuration file's path.
 */
export async function pinnedConfig(directory: string, sync?: AuditSync): Promise<string> {
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

/** One row of the results: a path at a concurrency level. */
export interface GatewayRow {
  readonly path: Path['key'];
  readonly label: string;
  readonly concurrency: number;
  readonly calls: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly throughput: number;
  readonly failed: number;
  readonly firstFailure?: string;
}

/** What part 4 reports. */
export interface GatewayReport {
  /** Markdown of the section's body (tables and notes). */
  readonly markdown: string;
  /** Summary lines, each starting with `- `. */
  readonly summary: readonly string[];
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

/** Counts the audit events of each type in a gateway's audit log. */
function auditCounts(directory: string): Map<string, number> {
  const counts = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(join(directory, '.hintgate', 'audit.jsonl'), 'utf8');
  } catch {
    return counts;
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const type = (JSON.parse(line) as { type?: string }).type ?? 'unknown';
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

/** Runs part 4 and renders it. `log` receives progress lines. */
export async function gatewayOverhead(log: (line: string) => void): Promise<GatewayReport> {
  const proxy = mcpProxyPackage();
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-gateway-'));
  const paths: Path[] = [];
  try {
    const dirs = ['stdio', 'stdio-batched', 'http', 'http-batched'].map((name) => join(work, name));
    const [stdioDir = '', stdioBatchedDir = '', httpDir = '', httpBatchedDir = ''] = dirs;
    const [stdioConfig = '', stdioBatchedConfig = '', httpConfig = '', httpBatchedConfig = ''] =
      await Promise.all([
        pinnedConfig(stdioDir),
        pinnedConfig(stdioBatchedDir, 'batched'),
        pinnedConfig(httpDir),
        pinnedConfig(httpBatchedDir, 'batched'),
      ]);
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
    paths.push(await stdioPath('hintgateStdio', 'hintgate gateway', gatewayCommand(stdioConfig)));
    paths.push(
      await stdioPath(
        'hintgateStdioBatched',
        'hintgate gateway, audit.sync: batched',
        gatewayCommand(stdioBatchedConfig),
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
    paths.push(await hintgateHttpPath(httpConfig, 'hintgateHttp', 'hintgate gateway --http'));
    paths.push(
      await hintgateHttpPath(
        httpBatchedConfig,
        'hintgateHttpBatched',
        'hintgate gateway --http, audit.sync: batched',
      ),
    );
    if ('bin' in proxy) paths.push(await mcpProxyHttpPath(proxy.bin));
    for (const path of paths) {
      const { tools } = await path.client.listTools();
      if (!tools.some((tool) => tool.name === TOOL)) {
        throw new Error(`${path.label} does not list the tool "${TOOL}"`);
      }
      await drive(path.client, 8, WARMUP_CALLS);
    }
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
    return render(rows, proxy, audits, layers);
  } finally {
    for (const path of paths) await path.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

/** The transport the client speaks on each path. */
const DOWNSTREAM: Record<Path['key'], string> = {
  direct: 'stdio',
  hintgateStdio: 'stdio',
  hintgateStdioBatched: 'stdio',
  mcpProxyStdio: 'stdio',
  hintgateHttp: 'Streamable HTTP',
  hintgateHttpBatched: 'Streamable HTTP',
  mcpProxyHttp: 'Streamable HTTP',
};

/** The gateway paths of each `audit.sync` setting. */
const SETTINGS = [
  { sync: 'always', stdio: 'hintgateStdio', http: 'hintgateHttp' },
  { sync: 'batched', stdio: 'hintgateStdioBatched', http: 'hintgateHttpBatched' },
] as const satisfies ReadonlyArray<{
  sync: AuditSync;
  stdio: Path['key'];
  http: Path['key'];
}>;

const ms = (value: number | undefined): string => fixed(value ?? Number.NaN, 3);
const perSecond = (value: number | undefined): string => fixed(value ?? Number.NaN, 0);

function render(
  rows: readonly GatewayRow[],
  proxy: ReturnType<typeof mcpProxyPackage>,
  audits: readonly Map<string, number>[],
  layers: Awaited<ReturnType<typeof gatewayLayers>>,
): GatewayReport {
  const find = (path: Path['key'], concurrency: number): GatewayRow | undefined =>
    rows.find((row) => row.path === path && row.concurrency === concurrency);
  const latency = table(
    [
      'path',
      'downstream',
      'concurrent requests',
      'calls',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'throughput calls/s',
      'calls not ok',
    ],
    rows.map((row) => [
      row.label,
      DOWNSTREAM[row.path],
      String(row.concurrency),
      String(row.calls),
      ms(row.p50),
      ms(row.p95),
      ms(row.p99),
      perSecond(row.throughput),
      row.failed === 0 ? '0' : `${row.failed} (${row.firstFailure ?? ''})`,
    ]),
  );

  const overheadRows = SETTINGS.flatMap((setting) =>
    GATEWAY_CONCURRENCY.map((concurrency) => {
      const direct = find('direct', concurrency);
      const gateway = find(setting.stdio, concurrency);
      const relay = find('mcpProxyStdio', concurrency);
      const overhead =
        gateway !== undefined && direct !== undefined ? gateway.p50 - direct.p50 : Number.NaN;
      const relayOverhead =
        relay !== undefined && direct !== undefined ? relay.p50 - direct.p50 : Number.NaN;
      return {
        sync: setting.sync,
        concurrency,
        direct,
        gateway,
        relay,
        overhead,
        relayOverhead,
        met: overhead < P50_OVERHEAD_GOAL_MS,
      };
    }),
  );
  const overheadTable = table(
    [
      'audit.sync',
      'concurrent requests',
      'direct p50 ms',
      'hintgate p50 ms',
      'overhead (hintgate - direct) ms',
      `under ${P50_OVERHEAD_GOAL_MS} ms`,
      'direct calls/s',
      'hintgate calls/s',
      'reference: proxyServer relay p50 - direct p50 ms',
      'reference: proxyServer relay calls/s',
    ],
    overheadRows.map((row) => [
      row.sync,
      String(row.concurrency),
      ms(row.direct?.p50),
      ms(row.gateway?.p50),
      ms(row.overhead),
      yesNo(row.met),
      perSecond(row.direct?.throughput),
      perSecond(row.gateway?.throughput),
      row.relay === undefined ? 'n/a' : ms(row.relayOverhead),
      row.relay === undefined ? 'n/a' : perSecond(row.relay.throughput),
    ]),
  );

  const throughputRows = SETTINGS.flatMap((setting) =>
    GATEWAY_CONCURRENCY.map((concurrency) => {
      const gateway = find(setting.http, concurrency);
      const other = find('mcpProxyHttp', concurrency);
      const ratio =
        gateway !== undefined && other !== undefined
          ? gateway.throughput / other.throughput
          : Number.NaN;
      return { sync: setting.sync, concurrency, gateway, other, ratio, met: ratio >= 1 };
    }),
  );
  const throughputTable =
    'bin' in proxy
      ? table(
          [
            'audit.sync',
            'concurrent requests',
            'hintgate --http calls/s',
            'mcp-proxy calls/s',
            'hintgate / mcp-proxy',
            'hintgate not less',
            'hintgate --http p50 ms',
            'mcp-proxy p50 ms',
          ],
          throughputRows.map((row) => [
            row.sync,
            String(row.concurrency),
            perSecond(row.gateway?.throughput),
            perSecond(row.other?.throughput),
            fixed(row.ratio, 2),
            yesNo(row.met),
            ms(row.gateway?.p50),
            ms(row.other?.p50),
          ]),
        )
      : `Not measured: mcp-proxy is ${proxy.missing}. It is a devDependency: \`npm install\`, then run again.`;

  const failedCalls = rows.reduce((sum, row) => sum + row.failed, 0);
  const audited = audits.map(
    (counts) =>
      `${counts.get('call.started') ?? 0} \`call.started\`, ${counts.get('call.succeeded') ?? 0} \`call.succeeded\`, ${counts.get('call.failed') ?? 0} \`call.failed\``,
  );
  const ofSetting = <T extends { readonly sync: AuditSync }>(list: readonly T[], sync: AuditSync) =>
    list.filter((row) => row.sync === sync);
  const summary = [
    ...SETTINGS.map(({ sync }) => {
      const rowsOf = ofSetting(overheadRows, sync);
      return `- Gateway (audit.sync: ${sync}): hintgate over stdio adds under ${P50_OVERHEAD_GOAL_MS} ms at p50 over direct stdio: ${rowsOf.filter((row) => row.met).length}/${rowsOf.length} levels (${rowsOf.map((row) => `${row.concurrency} concurrent: ${fixed(row.overhead, 3)} ms, ${yesNo(row.met)}`).join('; ')}).`;
    }),
    ...SETTINGS.map(({ sync }) => {
      const rowsOf = ofSetting(throughputRows, sync);
      return 'bin' in proxy
        ? `- Gateway (audit.sync: ${sync}): hintgate --http throughput no less than mcp-proxy's (both Streamable HTTP in front of the stdio upstream): ${rowsOf.filter((row) => row.met).length}/${rowsOf.length} levels (${rowsOf.map((row) => `${row.concurrency} concurrent: ${fixed(row.ratio, 2)}x, ${yesNo(row.met)}`).join('; ')}).`
        : `- Gateway (audit.sync: ${sync}): throughput against mcp-proxy not measured: mcp-proxy is ${proxy.missing}.`;
    }),
    `- Gateway calls not ok: ${failedCalls} of ${rows.reduce((sum, row) => sum + row.calls, 0)}.`,
  ];

  const proxyRow =
    'bin' in proxy
      ? `| mcp-proxy | Streamable HTTP | the \`mcp-proxy\` npm package ${proxy.version}, its command: \`mcp-proxy --host 127.0.0.1 --port PORT --server stream -- node --import tsx bench/gateway-upstream.ts\`, other options at their defaults; the client speaks to \`http://127.0.0.1:PORT/mcp\` |
| mcp-proxy proxyServer (reference) | stdio | not a product path, for reference only: bench/gateway-relay.ts wires mcp-proxy ${proxy.version}'s exported \`proxyServer\` to a stdio server transport as its README shows (its command has no stdio downstream); a relay with no policy, so it shows what one more SDK-based stdio hop costs |`
      : `| mcp-proxy | Streamable HTTP | not measured: mcp-proxy is ${proxy.missing} |`;
  const method = `One upstream MCP server over stdio (bench/gateway-upstream.ts, \`@modelcontextprotocol/server\` ${packageVersion('@modelcontextprotocol/server')}: one tool, \`ping\`, annotated read-only, no arguments, returning the text "pong"; run with \`node --import tsx\`) is called with \`callTool\` by one \`@modelcontextprotocol/client\` ${packageVersion('@modelcontextprotocol/client')} \`Client\` per path (default options, so the 2025 \`initialize\` handshake downstream). All paths are started in this run and front the same upstream program, each its own process of it:

| path | downstream | how the client reaches the upstream |
| --- | --- | --- |
| direct | stdio | the client spawns the upstream |
| hintgate gateway | stdio | the client spawns \`node dist/cli/main.js gateway --config <temp>/hintgate.yaml --mode auto\`, which spawns the upstream (\`trusted: true\`, its tool pinned beforehand with \`hintgate pin\`) |
| hintgate gateway, audit.sync: batched | stdio | the same in its own configuration directory (also pinned), whose \`hintgate.yaml\` adds \`audit: { sync: batched }\` |
| hintgate gateway --http | Streamable HTTP | the same as hintgate gateway, in its own configuration directory (also pinned), with \`--http --port 0\`; the client speaks to \`http://127.0.0.1:PORT/mcp\` |
| hintgate gateway --http, audit.sync: batched | Streamable HTTP | the same with \`audit: { sync: batched }\`, in its own configuration directory |
${proxyRow}

The \`mcp-proxy\` package fronts a stdio server only with HTTP downstream (Streamable HTTP or SSE). So goal 1 compares hintgate over stdio with direct stdio, and goal 2 compares hintgate \`--http\` with the mcp-proxy command, both Streamable HTTP downstream in front of the same stdio upstream. Policy is on in hintgate for every call: a decision in mode \`auto\` from the trusted annotations, the pin check, the lock manager, and two audit events per call in \`.hintgate/audit.jsonl\`: \`call.started\`, appended before the call goes upstream, and \`call.succeeded\`. With the default \`audit.sync: always\`, both are synced to disk with one \`fdatasync\` (shared by the calls that end together) before the result returns; with \`audit.sync: batched\`, the result returns once \`call.succeeded\` is appended to the file (so a crash or kill of the gateway loses no event; a crash of the machine can lose up to the last \`maxSyncDelayMs\`, 50 ms by default), and the file is synced in the background. This run, warm-up included: stdio gateway ${audited[0] ?? 'n/a'}; stdio gateway, batched ${audited[1] ?? 'n/a'}; HTTP gateway ${audited[2] ?? 'n/a'}; HTTP gateway, batched ${audited[3] ?? 'n/a'}. Upstream, hintgate negotiates the protocol era (\`auto\`: 2026-07-28 with this server) and mcp-proxy uses its default, the 2025 handshake. The HTTP client transport is given a \`fetch\` that leaves out the transport's shared abort signal (undici keeps one listener on it per request until garbage collection, which piles up under load); the same for both HTTP paths.

Every path first gets ${WARMUP_CALLS} unrecorded calls at 8 concurrent requests. Then, for each level of concurrent requests, every path makes ${GATEWAY_CALLS} calls in ${ROUNDS} rounds of ${GATEWAY_CALLS / ROUNDS}, the paths taking turns within a round (in reverse order in the next round), each keeping that many calls in flight (a worker starts its next call when its last one ends). Latency is \`performance.now()\` around each \`callTool\` in the client; percentiles are nearest-rank over the ${GATEWAY_CALLS} calls; throughput is ${GATEWAY_CALLS} calls divided by the time the ${ROUNDS} rounds took. Client, gateway or proxy and upstream are separate processes sharing the machine's ${availableParallelism()} cores, so at 8 and 32 concurrent requests latency is mostly queueing and throughput is bounded by the CPU time each path spends per call.`;

  const goal1Verdict = SETTINGS.map(({ sync }) =>
    goal1Text(ofSetting(overheadRows, sync), layers, sync),
  ).join('\n\n');
  const goal2Verdict =
    'bin' in proxy
      ? SETTINGS.map(({ sync }) => goal2Text(ofSetting(throughputRows, sync), layers, sync)).join(
          '\n\n',
        )
      : 'Goal 2 verdict: not measured.';
  const layerReading = layerText(layers);

  const markdown = `${method}

All paths, each level:

${latency}

Goal 1: hintgate over stdio adds less than ${P50_OVERHEAD_GOAL_MS} ms at p50 over direct stdio.

${overheadTable}

${goal1Verdict}

Goal 2: hintgate's throughput is no less than mcp-proxy's on the same path (Streamable HTTP downstream, stdio upstream).

${throughputTable}

${goal2Verdict}

Where the time goes, measured in the same run after the paths above were stopped (bench/gateway-layers.ts): the upstream side of the gateway rebuilt in the benchmark's own process, the same upstream program called ${LAYER_CALLS} times per variant, one call at a time, the variants taking turns in 8 rounds after 1000 warm-up calls each. CPU is this process's user + system time per call, the median of the 8 rounds (all its threads, so the thread pool's \`fdatasync\` counts; not the upstream's). From the second row to the sixth, each row adds one thing to the row above it, so the difference between neighbours is what that thing costs; the seventh is the sixth with \`sync: 'batched'\` instead of the default; the last row is a reference.

${layersTable(layers)}

${layerReading}`;
  return { markdown, summary };
}

/** What each layer of bench/gateway-layers.ts adds, at p50 (ms) and in CPU (µs per call). */
function layerCosts(layers: Record<string, LayerRow>) {
  const diff = (a: LayerRow | undefined, b: LayerRow | undefined) => ({
    p50: (b?.p50 ?? Number.NaN) - (a?.p50 ?? Number.NaN),
    cpuUs: (b?.cpuUs ?? Number.NaN) - (a?.cpuUs ?? Number.NaN),
  });
  return {
    runtime: diff(layers.sdk2025, layers.runtimeLegacy),
    era: diff(layers.runtimeLegacy, layers.runtimeAuto),
    events: diff(layers.runtimeAuto, layers.memoryAudit),
    append: diff(layers.memoryAudit, layers.jsonlNoSync),
    sync: diff(layers.jsonlNoSync, layers.jsonlDurable),
    /** Events, append and background sync together, with `sync: 'batched'`. */
    batched: diff(layers.runtimeAuto, layers.jsonlBatched),
    /** `sync: 'batched'` against the default, durable sink. */
    batchedVsDurable: diff(layers.jsonlDurable, layers.jsonlBatched),
  };
}

const signed = (value: number, digits: number): string =>
  `${value >= 0 ? '+' : ''}${fixed(value, digits)}`;

function layerText(layers: Record<string, LayerRow>): string {
  const cost = layerCosts(layers);
  const item = (what: string, c: { p50: number; cpuUs: number }): string =>
    `${what}: ${signed(c.p50, 3)} ms at p50, ${signed(c.cpuUs, 0)} µs of CPU per call`;
  return `Reading the table (this run): ${[
    item(
      "hintgate's runtime around the remote tool (validation, policy decision, locks, timeout and cancellation, result shaping; SDK client in the 2025 era as in row 1)",
      cost.runtime,
    ),
    item(
      'the 2026-07-28 era, which hintgate negotiates with this upstream (`auto`), instead of the 2025 handshake the relay and mcp-proxy use',
      cost.era,
    ),
    item('building the two audit events (memory sink)', cost.events),
    item('appending them to the JSONL file', cost.append),
    item(
      'syncing the file to disk before the result returns (one `fdatasync` per call when calls come one at a time)',
      cost.sync,
    ),
    item(
      "with `sync: 'batched'`, the two events, their append and the background sync together (against row 3)",
      cost.batched,
    ),
    item(
      "`sync: 'batched'` against the default durable sink (row 7 - row 6)",
      cost.batchedVsDurable,
    ),
  ].join(
    '; ',
  )}. Differences of a few µs or hundredths of a ms are within the noise of this machine.`;
}

const verdict = (met: number, of: number): string =>
  met === of ? 'met' : met === 0 ? 'missed' : 'partly met';

function goal1Text(
  rows: ReadonlyArray<{
    concurrency: number;
    overhead: number;
    relayOverhead: number;
    met: boolean;
  }>,
  layers: Record<string, LayerRow>,
  sync: AuditSync,
): string {
  const met = rows.filter((row) => row.met).length;
  const cost = layerCosts(layers);
  const [one] = rows;
  const levels = rows
    .map(
      (row) =>
        `${row.concurrency} concurrent: ${fixed(row.overhead, 3)} ms, ${row.met ? `under the goal by ${fixed(P50_OVERHEAD_GOAL_MS - row.overhead, 3)} ms` : `over the goal by ${fixed(row.overhead - P50_OVERHEAD_GOAL_MS, 3)} ms`}`,
    )
    .join('; ');
  let accounted = '';
  if (one !== undefined) {
    const audit =
      sync === 'always'
        ? {
            text: `syncing the audit log costs ${fixed(cost.sync.p50, 3)} ms, `,
            p50: cost.sync.p50,
          }
        : { text: '', p50: 0 };
    const events = sync === 'always' ? cost.events.p50 + cost.append.p50 : cost.batched.p50;
    const rest =
      one.overhead - one.relayOverhead - audit.p50 - cost.era.p50 - cost.runtime.p50 - events;
    accounted = ` At 1 concurrent request, of the ${fixed(one.overhead, 3)} ms: one more SDK-based stdio hop costs ${fixed(one.relayOverhead, 3)} ms by itself (the proxyServer relay, no policy); per the layer table, ${audit.text}the 2026 era ${fixed(cost.era.p50, 3)} ms, the runtime ${fixed(cost.runtime.p50, 3)} ms and the audit events and their append ${fixed(events, 3)} ms${sync === 'batched' ? ' (no sync waited for)' : ''}; the remaining ${fixed(rest, 3)} ms is the gateway's MCP server side beyond the relay's (its tools/call handler, the stdio line guard, result projection) and noise. ${budgetText(P50_OVERHEAD_GOAL_MS - one.relayOverhead, sync === 'always' ? cost.sync.p50 : undefined)}`;
  }
  return `Goal 1 verdict, audit.sync: ${sync}: ${verdict(met, rows.length)} (${met}/${rows.length} levels; ${levels}).${accounted}`;
}

/** What is left of goal 1's budget once the extra hop is paid, against one sync if waited for. */
function budgetText(left: number, syncMs: number | undefined): string {
  const hop =
    left <= 0
      ? 'The extra hop alone already takes the whole budget'
      : `The extra hop alone leaves ${fixed(left, 3)} ms of the budget`;
  return syncMs !== undefined && left < syncMs
    ? `${hop}, and one \`fdatasync\` here takes ${fixed(syncMs, 3)} ms: with the audit log synced before each result, the goal cannot be met on this machine.`
    : `${hop}.`;
}

function goal2Text(
  rows: ReadonlyArray<{ concurrency: number; ratio: number; met: boolean }>,
  layers: Record<string, LayerRow>,
  sync: AuditSync,
): string {
  const met = rows.filter((row) => row.met).length;
  const cost = layerCosts(layers);
  const levels = rows
    .map(
      (row) =>
        `${row.concurrency} concurrent: ${fixed(row.ratio, 2)}x, ${row.met ? 'met' : `${fixed((1 - row.ratio) * 100, 0)}% short`}`,
    )
    .join('; ');
  const audit =
    sync === 'always'
      ? `${fixed(cost.events.cpuUs + cost.append.cpuUs, 0)} µs for the audit events and their append, ${fixed(cost.sync.cpuUs, 0)} µs for syncing them (less per call when concurrent calls share a sync)`
      : `${fixed(cost.batched.cpuUs, 0)} µs for the audit events, their append and their share of the background sync`;
  return `Goal 2 verdict, audit.sync: ${sync}: ${verdict(met, rows.length)} (${met}/${rows.length} levels; ${levels}). Throughput here is bounded by the CPU time all processes spend per call on ${availableParallelism()} cores. Per call, one at a time, the layer table puts hintgate's own CPU at ${fixed(cost.runtime.cpuUs, 0)} µs for the runtime, ${audit} and ${fixed(cost.era.cpuUs, 0)} µs for the 2026 era, on top of what mcp-proxy pays too (the SDK client and server, JSON and zod validation of every message, the transports).`;
}
