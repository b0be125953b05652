/**
 * Where the gateway's time goes on its upstream side, layer by layer, in this one process:
 * the upstream of part 4 called one call at a time through the SDK `Client` alone, then a
 * hintgate runtime over `connectMcpServer` (its stdio defaults), with a memory audit sink,
 * the JSONL sink with `sync` false, `'auto'` and true, and for reference with `era: 'auto'`.
 * Each variant has its own upstream; they take turns in rounds. p50 latency and this
 * process's CPU per call (all threads, so the audit's fdatasync counts), the median of the
 * rounds. Part of part 4; alone: `npx tsx --tsconfig bench/tsconfig.json
 * bench/gateway-layers.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuditSink, createMemoryAuditSink, createRegistry, createRuntime } from 'hintgate';
import { connectMcpServer, type McpEraOption } from 'hintgate/mcp';
import { createJsonlAuditSink } from 'hintgate/node';
import { childEnv, ROOT, stdioPath, UPSTREAM_COMMAND } from './gateway.js';
import { interleave } from './measure.js';
import { fixed, isMain, table } from './report.js';

const ROUNDS = 8;
const WARMUP = 1000;

interface Layer {
  readonly label: string;
  readonly era: string | undefined;
  call(n: number): Promise<unknown>;
  close(): Promise<void>;
}

const upstream = () => {
  const [command = process.execPath, ...args] = UPSTREAM_COMMAND;
  return { command, args, cwd: ROOT, env: childEnv() };
};

async function sdkLayer(): Promise<Layer> {
  const { label, client, close } = await stdioPath(
    'SDK Client alone (`client.callTool`)',
    UPSTREAM_COMMAND,
  );
  const call = () => client.callTool({ name: 'ping', arguments: {} });
  return { label, era: client.getProtocolEra(), call, close };
}

async function runtimeLayer(label: string, audit?: AuditSink, era?: McpEraOption): Promise<Layer> {
  const registry = createRegistry();
  const connection = await connectMcpServer({
    name: 'bench',
    registry,
    ...upstream(),
    trusted: true,
    ...(era === undefined ? {} : { era }),
  });
  const runtime = createRuntime({
    registry,
    mode: 'auto',
    ...(audit ? { auditSinks: [audit] } : {}),
  });
  return {
    label,
    era: connection.protocolEra,
    async call(n) {
      const [result] = await runtime.execute([{ id: String(n), name: 'ping', arguments: {} }]);
      if (result?.status !== 'ok') throw new Error(`${label}: ${JSON.stringify(result)}`);
    },
    async close() {
      await connection.close();
      await runtime.close();
    },
  };
}

/** Measures the layers, 4000 calls each; returns their Markdown table. */
export async function gatewayLayers(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-gateway-layers-'));
  const jsonl = (sync: false | 'auto' | true): AuditSink =>
    createJsonlAuditSink({ path: join(work, `${String(sync)}.jsonl`), sync });
  const layers: Layer[] = [];
  try {
    layers.push(await sdkLayer());
    layers.push(await runtimeLayer('runtime over `connectMcpServer`, its defaults, no audit'));
    layers.push(await runtimeLayer('+ memory audit sink', createMemoryAuditSink()));
    layers.push(await runtimeLayer('JSONL audit sink, sync: false', jsonl(false)));
    layers.push(
      await runtimeLayer("JSONL audit sink, sync: 'auto' (gateway default)", jsonl('auto')),
    );
    layers.push(
      await runtimeLayer('JSONL audit sink, sync: true (audit.sync: always)', jsonl(true)),
    );
    layers.push(
      await runtimeLayer("reference: runtime with era: 'auto', no audit", undefined, 'auto'),
    );
    let n = 0;
    const perRound = 4000 / ROUNDS;
    const measured = await interleave(
      layers.map((layer) => ({ calls: 1, run: () => layer.call(n++) })),
      { rounds: ROUNDS, runsPerRound: perRound, warmupRuns: WARMUP },
    );
    const [first] = measured;
    if (first === undefined) throw new Error('not measured');
    const era = (layer: Layer): string =>
      layer.era === 'legacy' ? '2025 handshake' : layer.era === 'modern' ? '2026-07-28' : 'unknown';
    return table(
      [
        'layer (upstream side, in process, 1 call at a time)',
        'era',
        'p50 ms',
        'CPU µs/call',
        'p50 - row 1 ms',
        'CPU / row 1',
      ],
      layers.map((layer, index) => {
        const m = measured[index] ?? first;
        return [
          `${index + 1}. ${layer.label}`,
          era(layer),
          fixed(m.p50RunUs / 1000, 3),
          fixed(m.cpuUs, 0),
          fixed((m.p50RunUs - first.p50RunUs) / 1000, 3),
          fixed(m.cpuUs / first.cpuUs, 2),
        ];
      }),
    );
  } finally {
    for (const layer of layers) await layer.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  process.stdout.write(`${await gatewayLayers()}\n`);
}
