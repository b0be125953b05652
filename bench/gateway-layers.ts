/**
 * Where the gateway's time goes on its upstream side, layer by layer:
 * `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/gateway-layers.ts [--calls N]`.
 *
 * In this one process, the same cheap upstream (bench/gateway-upstream.ts) is called, one
 * call at a time, through:
 *
 * - the SDK `Client` alone, with the 2025 handshake (`client.callTool`, what the mcp-proxy
 *   relay does);
 * - a hintgate runtime over `connectMcpServer` (mode auto, trusted) with its defaults for a
 *   stdio server (the 2025 handshake, tools/call straight on the transport), then with a
 *   memory audit sink, the JSONL sink without syncing, the JSONL sink with `sync: 'auto'`
 *   (the gateway's default: this read-only call waits for no sync), and with `sync: true`
 *   (as the gateway with `audit.sync: always`);
 * - for reference, the runtime with `era: 'auto'` (2026-07-28 with this server, through the
 *   SDK's request layer), no audit.
 *
 * Each variant has its own upstream process; they take turns in rounds. Reported: p50
 * latency and this process's CPU time per call (user + system, all threads, so the
 * audit's fdatasync in the thread pool counts), the median of the rounds (a major garbage
 * collection lands in one round, not always the same variant's), and the era each
 * connection negotiated. The difference between two rows is what the layer adds. No
 * downstream transport is involved: add the MCP server side for the gateway.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type AuditSink, createMemoryAuditSink, createRegistry, createRuntime } from 'hintgate';
import { connectMcpServer, type McpEraOption } from 'hintgate/mcp';
import { createJsonlAuditSink } from 'hintgate/node';
import { childEnv, percentile, ROOT, UPSTREAM_COMMAND } from './gateway.js';
import { fixed, median, table } from './report.js';

const ROUNDS = 8;
const WARMUP = 1000;
/** The upstream's program and arguments (read when called: gateway.ts imports this file). */
const upstream = (): { command: string; args: string[] } => {
  const [command = process.execPath, ...args] = UPSTREAM_COMMAND;
  return { command, args };
};

/** The protocol era a connection negotiated, as the tables name it. */
export const eraName = (era: string | undefined): string =>
  era === 'legacy' ? '2025 handshake' : era === 'modern' ? '2026-07-28' : 'era unknown';

interface Variant {
  readonly label: string;
  /** The era negotiated: `legacy` (2025) or `modern` (2026-07-28). */
  readonly era: string | undefined;
  call(n: number): Promise<unknown>;
  close(): Promise<void>;
  readonly latencies: number[];
  /** CPU time per call of each round, in microseconds. */
  readonly cpuPerRound: number[];
}

async function sdkVariant(label: string): Promise<Variant> {
  const client = new Client({ name: 'hintgate-bench', version: '1.0.0' });
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
    era: client.getProtocolEra(),
    call: () => client.callTool({ name: 'ping', arguments: {} }),
    close: () => client.close(),
    latencies: [],
    cpuPerRound: [],
  };
}

/** A runtime over `connectMcpServer`; `era` absent leaves its default for a stdio server. */
async function runtimeVariant(
  label: string,
  audit: AuditSink | undefined,
  era?: McpEraOption,
): Promise<Variant> {
  const registry = createRegistry();
  const connection = await connectMcpServer({
    name: 'bench',
    registry,
    ...upstream(),
    cwd: ROOT,
    env: childEnv(),
    trusted: true,
    ...(era === undefined ? {} : { era }),
  });
  const runtime = createRuntime({
    registry,
    mode: 'auto',
    ...(audit === undefined ? {} : { auditSinks: [audit] }),
  });
  return {
    label,
    era: connection.protocolEra,
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
  /** What the variant is, with the era its connection negotiated. */
  readonly label: string;
  /** The era negotiated: `legacy` (2025) or `modern` (2026-07-28). */
  readonly era: string | undefined;
  readonly p50: number;
  /** CPU time of this process per call, in microseconds: the median of the rounds. */
  readonly cpuUs: number;
}

/** The variants, in the order measured; see the file's description. */
export const LAYER_KEYS = [
  'sdk',
  'runtime',
  'memoryAudit',
  'jsonlNoSync',
  'jsonlAuto',
  'jsonlAlways',
  'runtimeEraAuto',
] as const;

/** The measured rows, keyed by {@link LAYER_KEYS}. */
export type LayerRows = Record<(typeof LAYER_KEYS)[number], LayerRow>;

/** Measures every variant with `calls` calls, one at a time; rows keyed by {@link LAYER_KEYS}. */
export async function gatewayLayers(calls: number): Promise<LayerRows> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-gateway-layers-'));
  const variants: Variant[] = [];
  const jsonl = (file: string, sync: false | 'auto' | true): AuditSink =>
    createJsonlAuditSink({ path: join(work, file), sync });
  try {
    variants.push(await sdkVariant('SDK Client alone (`client.callTool`)'));
    variants.push(
      await runtimeVariant(
        'runtime over `connectMcpServer`, its defaults (tools/call straight on the transport), no audit',
        undefined,
      ),
    );
    variants.push(await runtimeVariant('+ memory audit sink', createMemoryAuditSink()));
    variants.push(
      await runtimeVariant(
        'JSONL audit sink instead of memory, sync: false',
        jsonl('nosync.jsonl', false),
      ),
    );
    variants.push(
      await runtimeVariant(
        "JSONL audit sink, sync: 'auto' (the gateway's default: this read-only call waits for no sync)",
        jsonl('auto.jsonl', 'auto'),
      ),
    );
    variants.push(
      await runtimeVariant(
        'JSONL audit sink, sync: true (as audit.sync: always: every call waits for its fdatasync)',
        jsonl('always.jsonl', true),
      ),
    );
    variants.push(
      await runtimeVariant(
        "reference: runtime with era: 'auto' (through the SDK's request layer), no audit",
        undefined,
        'auto',
      ),
    );
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
        label: `${variant.label}; ${eraName(variant.era)}`,
        era: variant.era,
        p50: percentile(
          [...variant.latencies].sort((a, b) => a - b),
          50,
        ),
        cpuUs: median(variant.cpuPerRound),
      }),
    );
    return Object.fromEntries(LAYER_KEYS.map((key, index) => [key, rows[index]])) as LayerRows;
  } finally {
    for (const variant of variants) await variant.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

/** The rows as a Markdown table, with each row's difference to the first. */
export function layersTable(rows: LayerRows): string {
  const first = rows.sdk;
  return table(
    [
      'variant',
      'p50 ms',
      'CPU µs per call',
      'p50 over the first row ms',
      'CPU over the first row µs',
    ],
    LAYER_KEYS.map((key, index) => {
      const row = rows[key];
      return [
        `${index + 1}. ${row.label}`,
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
