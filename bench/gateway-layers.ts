/**
 * Where the gateway's time goes on its upstream side, layer by layer:
 * `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/gateway-layers.ts [--calls N]`.
 *
 * In this one process, the same cheap upstream (bench/gateway-upstream.ts) is called, one
 * call at a time, through:
 *
 * - the SDK `Client` alone, with the 2025 handshake (what the mcp-proxy relay does);
 * - a hintgate runtime over `connectMcpServer` (mode auto, trusted), era `legacy`, then
 *   `auto` (2026-07-28 with this server, as the gateway), then with a memory audit sink, the
 *   JSONL sink without syncing, and the default durable JSONL sink (as the gateway); then,
 *   instead of the last, the JSONL sink with `sync: 'batched'` (as the gateway with
 *   `audit.sync: batched`);
 * - for reference, the SDK `Client` alone pinned to the 2026-07-28 era.
 *
 * Each variant has its own upstream process; they take turns in rounds. Reported: p50
 * latency and this process's CPU time per call (user + system, all threads, so the
 * audit's fdatasync in the thread pool counts), the median of the rounds (a major garbage
 * collection lands in one round, not always the same variant's). The difference between two rows is what the
 * layer adds. No downstream transport is involved: add the MCP server side for the gateway.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  type AuditSink,
  createJsonlAuditSink,
  createMemoryAuditSink,
  createRegistry,
  createRuntime,
} from 'hintgate';
import { connectMcpServer, type McpEraOption } from 'hintgate/mcp';
import { childEnv, percentile, ROOT, UPSTREAM_COMMAND } from './gateway.js';
import { fixed, median, table } from './report.js';

const ROUNDS = 8;
const WARMUP = 1000;
/** The upstream's program and arguments (read when called: gateway.ts imports this file). */
const upstream = (): { command: string; args: string[] } => {
  const [command = process.execPath, ...args] = UPSTREAM_COMMAND;
  return { command, args };
};

interface Variant {
  readonly label: string;
  call(n: number): Promise<unknown>;
  close(): Promise<void>;
  readonly latencies: number[];
  /** CPU time per call of each round, in microseconds. */
  readonly cpuPerRound: number[];
}

async function sdkVariant(label: string, pin2026: boolean): Promise<Variant> {
  const client = new Client(
    { name: 'hintgate-bench', version: '1.0.0' },
    pin2026 ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      ...upstream(),
      cwd: ROOT,
      env: childEnv(),
      stderr: 'inherit',
    }),
  );
  return {
    label,
    call: () => client.callTool({ name: 'ping', arguments: {} }),
    close: () => client.close(),
    latencies: [],
    cpuPerRound: [],
  };
}

async function runtimeVariant(
  label: string,
  era: McpEraOption,
  audit: AuditSink | undefined,
): Promise<Variant> {
  const registry = createRegistry();
  const connection = await connectMcpServer({
    name: 'bench',
    registry,
    ...upstream(),
    cwd: ROOT,
    env: childEnv(),
    trusted: true,
    era,
  });
  const runtime = createRuntime({
    registry,
    mode: 'auto',
    ...(audit === undefined ? {} : { auditSinks: [audit] }),
  });
  return {
    label,
    async call(n) {
      const [result] = await runtime.execute([{ id: String(n), name: 'ping', arguments: {} }]);
      if (result?.status !== 'ok') throw new Error(`${label}: ${JSON.stringify(result)}`);
      return result;
    },
    async close() {
      await connection.close();
      await runtime.close();
    },
    latencies: [],
    cpuPerRound: [],
  };
}

/** One variant's numbers. */
export interface LayerRow {
  readonly label: string;
  readonly p50: number;
  /** CPU time of this process per call, in microseconds: the median of the rounds. */
  readonly cpuUs: number;
}

/** The variants, in the order measured; see the file's description. */
export const LAYER_KEYS = [
  'sdk2025',
  'runtimeLegacy',
  'runtimeAuto',
  'memoryAudit',
  'jsonlNoSync',
  'jsonlDurable',
  'jsonlBatched',
  'sdk2026',
] as const;

/** Measures every variant with `calls` calls, one at a time; rows keyed by {@link LAYER_KEYS}. */
export async function gatewayLayers(
  calls: number,
): Promise<Record<(typeof LAYER_KEYS)[number], LayerRow>> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-gateway-layers-'));
  const variants: Variant[] = [];
  try {
    variants.push(await sdkVariant('SDK Client alone, 2025 handshake', false));
    variants.push(await runtimeVariant('runtime, era legacy, no audit', 'legacy', undefined));
    variants.push(await runtimeVariant('runtime, era auto, no audit', 'auto', undefined));
    variants.push(
      await runtimeVariant('runtime, era auto, memory audit sink', 'auto', createMemoryAuditSink()),
    );
    variants.push(
      await runtimeVariant(
        'runtime, era auto, JSONL audit, sync: false',
        'auto',
        createJsonlAuditSink({ path: join(work, 'nosync.jsonl'), sync: false }),
      ),
    );
    variants.push(
      await runtimeVariant(
        'runtime, era auto, JSONL audit (default: durable), as in the gateway',
        'auto',
        createJsonlAuditSink({ path: join(work, 'durable.jsonl') }),
      ),
    );
    variants.push(
      await runtimeVariant(
        "runtime, era auto, JSONL audit, sync: 'batched', as the gateway with audit.sync: batched",
        'auto',
        createJsonlAuditSink({ path: join(work, 'batched.jsonl'), sync: 'batched' }),
      ),
    );
    variants.push(await sdkVariant('reference: SDK Client alone, 2026-07-28 era', true));
    let n = 0;
    for (const variant of variants) for (let i = 0; i < WARMUP; i += 1) await variant.call(n++);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
        const before = process.cpuUsage();
        for (let i = 0; i < calls / ROUNDS; i += 1) {
          const start = performance.now();
          await variant.call(n++);
          variant.latencies.push(performance.now() - start);
        }
        const used = process.cpuUsage(before);
        variant.cpuPerRound.push((used.user + used.system) / (calls / ROUNDS));
      }
    }
    const rows = variants.map(
      (variant): LayerRow => ({
        label: variant.label,
        p50: percentile(
          [...variant.latencies].sort((a, b) => a - b),
          50,
        ),
        cpuUs: median(variant.cpuPerRound),
      }),
    );
    return Object.fromEntries(LAYER_KEYS.map((key, index) => [key, rows[index]])) as Record<
      (typeof LAYER_KEYS)[number],
      LayerRow
    >;
  } finally {
    for (const variant of variants) await variant.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

/** The rows as a Markdown table, with each row's difference to the first. */
export function layersTable(rows: Record<(typeof LAYER_KEYS)[number], LayerRow>): string {
  const first = rows.sdk2025;
  return table(
    [
      'variant',
      'p50 ms',
      'CPU µs per call',
      'p50 over the first row ms',
      'CPU over the first row µs',
    ],
    LAYER_KEYS.map((key) => {
      const row = rows[key];
      return [
        row.label,
        fixed(row.p50, 3),
        fixed(row.cpuUs, 0),
        fixed(row.p50 - first.p50, 3),
        fixed(row.cpuUs - first.cpuUs, 0),
      ];
    }),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { calls: { type: 'string', default: '4000' } } });
  const calls = Number(values.calls);
  gatewayLayers(calls).then(
    (rows) => {
      process.stdout.write(
        `${calls} calls per variant, one at a time, ${ROUNDS} interleaved rounds:\n\n${layersTable(rows)}\n`,
      );
    },
    (error: unknown) => {
      process.stderr.write(
        `gateway-layers crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
