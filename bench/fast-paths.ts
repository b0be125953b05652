/**
 * The MCP fast paths on and off, in one run (`npm run build && tsx --tsconfig
 * bench/tsconfig.json bench/fast-paths.ts`): the gateway over stdio and over HTTP, each
 * started twice, once as it is and once with `HINTGATE_FAST_PATHS=off` (every request
 * through the SDK as it is, downstream and upstream), against direct stdio and the mcp-proxy
 * command, all in front of the same upstream program (bench/gateway-upstream.ts). Prints a
 * Markdown table: p50 and throughput at 1, 8 and 32 concurrent requests, and the CPU time
 * per call of every process of a path but the client (direct: the upstream; a gateway: the
 * gateway and its upstream; mcp-proxy: the proxy and its upstream), read from /proc at 1
 * concurrent request. `HINTGATE_BENCH_GATEWAY_CALLS=N` sets the calls per path and level.
 *
 * Arguments `label|cli|on-or-off` replace the default gateway variants (this build with its
 * fast paths on, then off), to compare builds in one run: `cli` is the `main.js` to run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  CLI,
  childEnv,
  drive,
  GATEWAY_CALLS,
  mcpProxyPackage,
  percentile,
  pinnedConfig,
  ROOT,
  type Sample,
  UPSTREAM_COMMAND,
} from './gateway.js';
import { freePort, stopProcess, waitForPort } from './processes.js';

const LEVELS = [1, 8, 32] as const;
const ROUNDS = 2;
const WARMUP_CALLS = 6000;
const START_TIMEOUT_MS = 20_000;
const TICK_MS = 1000 / 100;

interface BenchPath {
  readonly label: string;
  readonly client: Client;
  /** The process whose tree's CPU counts (the client's child). */
  readonly pid: () => number | undefined;
  close(): Promise<void>;
}

/** User + system CPU of a process and its descendants, in ms (Linux /proc). */
function treeCpuMs(pid: number | undefined): number {
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
      // Gone meanwhile.
    }
  };
  visit(pid);
  return total;
}

const env = (fast: string): Record<string, string> => ({
  ...childEnv(),
  HINTGATE_FAST_PATHS: fast,
});

/** A gateway build and switch to measure, over stdio and over HTTP. */
interface Variant {
  readonly label: string;
  readonly cli: string;
  readonly fast: string;
}

const variants = (args: readonly string[]): Variant[] => {
  if (args.length === 0) {
    return [
      { label: 'fast paths on', cli: CLI, fast: 'on' },
      { label: 'fast paths off', cli: CLI, fast: 'off' },
    ];
  }
  return args.map((arg) => {
    const [label = arg, cli = CLI, fast = 'on'] = arg.split('|');
    return { label, cli, fast };
  });
};

async function stdioPath(
  label: string,
  command: readonly string[],
  extraEnv: Record<string, string>,
): Promise<BenchPath> {
  const [program = process.execPath, ...args] = command;
  const transport = new StdioClientTransport({
    command: program,
    args,
    cwd: ROOT,
    env: extraEnv,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport, { timeout: START_TIMEOUT_MS });
  return {
    label,
    client,
    pid: () => transport.pid ?? undefined,
    close: () => client.close(),
  };
}

async function httpPath(label: string, child: ChildProcess, url: string): Promise<BenchPath> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      fetch: (target, init) => {
        if (init === undefined) return fetch(target);
        const { signal: _unused, ...rest } = init;
        return fetch(target, rest);
      },
    }),
    { timeout: START_TIMEOUT_MS },
  );
  return {
    label,
    client,
    pid: () => child.pid,
    async close() {
      await client.close().catch(() => {});
      await stopProcess(child);
    },
  };
}

async function gatewayHttp(label: string, config: string, variant: Variant): Promise<BenchPath> {
  const child = spawn(
    process.execPath,
    [variant.cli, 'gateway', '--config', config, '--mode', 'auto', '--http', '--port', '0'],
    { cwd: ROOT, env: env(variant.fast), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer | string) => {
      seen += String(chunk);
      const match = /at (http:\/\/\S+\/mcp)/.exec(seen);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}: ${seen}`)));
  });
  return httpPath(label, child, url);
}

async function proxyHttp(bin: string): Promise<BenchPath> {
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
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'ignore', 'ignore'] },
  );
  await waitForPort(port, child, START_TIMEOUT_MS);
  return httpPath('mcp-proxy (HTTP)', child, `http://127.0.0.1:${port}/mcp`);
}

interface Row {
  label: string;
  level: number;
  p50: number;
  throughput: number;
  cpuUs: number;
  failed: number;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-fast-'));
  const paths: BenchPath[] = [];
  try {
    const chosen = variants(process.argv.slice(2));
    paths.push(await stdioPath('direct (stdio)', UPSTREAM_COMMAND, childEnv()));
    for (const [index, variant] of chosen.entries()) {
      const config = await pinnedConfig(join(work, `stdio-${index}`));
      const command = [
        process.execPath,
        variant.cli,
        'gateway',
        '--config',
        config,
        '--mode',
        'auto',
      ];
      paths.push(await stdioPath(`gateway stdio, ${variant.label}`, command, env(variant.fast)));
    }
    for (const [index, variant] of chosen.entries()) {
      const config = await pinnedConfig(join(work, `http-${index}`));
      paths.push(await gatewayHttp(`gateway HTTP, ${variant.label}`, config, variant));
    }
    const proxy = mcpProxyPackage();
    if ('bin' in proxy) paths.push(await proxyHttp(proxy.bin));
    for (const path of paths) await drive(path.client, 8, WARMUP_CALLS);
    const rows: Row[] = [];
    for (const level of LEVELS) {
      const samples = paths.map((): Sample => ({ latencies: [], wallMs: 0, failed: 0 }));
      const cpu = paths.map(() => 0);
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = round % 2 === 0 ? [...paths.keys()] : [...paths.keys()].reverse();
        for (const index of order) {
          const path = paths[index] as BenchPath;
          const before = treeCpuMs(path.pid());
          await drive(path.client, level, GATEWAY_CALLS / ROUNDS, samples[index]);
          cpu[index] = (cpu[index] ?? 0) + treeCpuMs(path.pid()) - before;
        }
      }
      for (const [index, path] of paths.entries()) {
        const sample = samples[index] as Sample;
        const sorted = [...sample.latencies].sort((a, b) => a - b);
        rows.push({
          label: path.label,
          level,
          p50: percentile(sorted, 50),
          throughput: (sample.latencies.length * 1000) / sample.wallMs,
          cpuUs: ((cpu[index] ?? 0) * 1000) / sample.latencies.length,
          failed: sample.failed,
        });
      }
    }
    const direct = (level: number) =>
      rows.find((r) => r.level === level && r.label.startsWith('direct'));
    const proxyRow = (level: number) =>
      rows.find((r) => r.level === level && r.label.startsWith('mcp-proxy'));
    const lines = [
      `Measured ${new Date().toISOString()} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )} (bench/fast-paths.ts; ${GATEWAY_CALLS} calls per path and level after ${WARMUP_CALLS} warm-up calls).`,
      '',
      '| path | concurrent | p50 ms | p50 - direct ms | calls/s | / mcp-proxy calls/s | CPU µs per call (path processes) | CPU / direct | not ok |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map((row) => {
        const d = direct(row.level);
        const p = proxyRow(row.level);
        return `| ${row.label} | ${row.level} | ${row.p50.toFixed(3)} | ${d === undefined ? '' : (row.p50 - d.p50).toFixed(3)} | ${row.throughput.toFixed(0)} | ${p === undefined ? '' : (row.throughput / p.throughput).toFixed(2)} | ${row.cpuUs.toFixed(0)} | ${d === undefined ? '' : (row.cpuUs / d.cpuUs).toFixed(2)} | ${row.failed} |`;
      }),
    ];
    console.log(lines.join('\n'));
  } finally {
    for (const path of paths) await path.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
