/**
 * The report of part 4 (bench/gateway.ts): the path table and method, the latency and goal
 * tables, and the verdicts, each computed from the numbers of the run, with what the layer
 * table (bench/gateway-layers.ts) says the time goes to.
 */
import type { AuditCounts } from './audit-counts.js';
import type { PathKey } from './gateway.js';
import { type LayerRows, layersTable } from './gateway-layers.js';
import { fixed, table, yesNo } from './report.js';

/** One row of the results: a path at a concurrency level. */
export interface GatewayRow {
  readonly path: PathKey;
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

/** A path's warm-up, block by block. */
export interface WarmupRow {
  readonly path: PathKey;
  readonly label: string;
  readonly blocks: ReadonlyArray<{
    readonly p50: number;
    readonly throughput: number;
    readonly failed: number;
  }>;
}

/** How part 4 was run, for the method text. */
export interface GatewayMethod {
  /** Measured calls per path and concurrency level. */
  readonly calls: number;
  /** Rounds the calls of a level are split over. */
  readonly rounds: number;
  /** Warm-up calls per path before the first level, at concurrency 8. */
  readonly warmupCalls: number;
  /** Calls per block of the warm-up. */
  readonly warmupBlockCalls: number;
  /** Calls per variant of the layer table. */
  readonly layerCalls: number;
  /** Concurrency levels measured. */
  readonly concurrency: readonly number[];
  /** Goal 1: most a stdio gateway may add at p50 over direct stdio, in ms. */
  readonly goalMs: number;
  /** The gateway's default `audit.sync`, checked against the loaded configuration. */
  readonly defaultSync: 'auto';
  /** Versions of `@modelcontextprotocol/server` and `@modelcontextprotocol/client`. */
  readonly serverVersion: string;
  readonly clientVersion: string;
}

/** What part 4 measured. */
export interface GatewayReportInput {
  readonly rows: readonly GatewayRow[];
  readonly warmup: readonly WarmupRow[];
  /** The installed mcp-proxy, or why it is missing. */
  readonly proxy: { bin: string; version: string } | { missing: string };
  /** Audit logs of the gateways: stdio default, stdio always, HTTP default, HTTP always. */
  readonly audits: readonly AuditCounts[];
  readonly layers: LayerRows;
  readonly method: GatewayMethod;
}

/** What part 4 reports. */
export interface GatewayReport {
  /** Markdown of the section's body (tables and notes). */
  readonly markdown: string;
  /** Summary lines, each starting with `- `. */
  readonly summary: readonly string[];
}

/** The transport the client speaks on each path. */
const DOWNSTREAM: Record<PathKey, string> = {
  direct: 'stdio',
  hintgateStdio: 'stdio',
  hintgateStdioAlways: 'stdio',
  mcpProxyStdio: 'stdio',
  hintgateHttp: 'Streamable HTTP',
  hintgateHttpAlways: 'Streamable HTTP',
  mcpProxyHttp: 'Streamable HTTP',
};

/** A gateway setting measured: the default configuration, or `audit.sync: always`. */
interface Setting {
  readonly sync: 'auto' | 'always';
  /** As the tables and verdicts name it. */
  readonly name: string;
  readonly stdio: PathKey;
  readonly http: PathKey;
}

const ms = (value: number | undefined): string => fixed(value ?? Number.NaN, 3);
const perSecond = (value: number | undefined): string => fixed(value ?? Number.NaN, 0);
const auditText = (counts: AuditCounts | undefined): string => {
  if (counts === undefined) return 'n/a';
  const calls = counts.started + counts.succeeded + counts.failed;
  const other = Object.entries(counts.other)
    .map(([type, count]) => `, ${count} \`${type}\``)
    .join('');
  const read = counts.read === calls ? 'all of class read' : `${counts.read} of class read`;
  return `${counts.started} \`call.started\`, ${counts.succeeded} \`call.succeeded\`, ${counts.failed} \`call.failed\`${other} (${read})`;
};

/** Renders part 4: tables, method and verdicts, from the numbers of the run. */
export function renderGatewayReport(input: GatewayReportInput): GatewayReport {
  const { rows, warmup, proxy, audits, layers, method } = input;
  const settings: readonly Setting[] = [
    {
      sync: method.defaultSync,
      name: `${method.defaultSync} (default)`,
      stdio: 'hintgateStdio',
      http: 'hintgateHttp',
    },
    { sync: 'always', name: 'always', stdio: 'hintgateStdioAlways', http: 'hintgateHttpAlways' },
  ];
  const find = (path: PathKey, concurrency: number): GatewayRow | undefined =>
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

  const overheadRows = settings.flatMap((setting) =>
    method.concurrency.map((concurrency) => {
      const direct = find('direct', concurrency);
      const gateway = find(setting.stdio, concurrency);
      const relay = find('mcpProxyStdio', concurrency);
      const overhead =
        gateway !== undefined && direct !== undefined ? gateway.p50 - direct.p50 : Number.NaN;
      const relayOverhead =
        relay !== undefined && direct !== undefined ? relay.p50 - direct.p50 : Number.NaN;
      const met = overhead < method.goalMs;
      return { setting, concurrency, direct, gateway, relay, overhead, relayOverhead, met };
    }),
  );
  const overheadTable = table(
    [
      'audit.sync',
      'concurrent requests',
      'direct p50 ms',
      'hintgate p50 ms',
      'overhead (hintgate - direct) ms',
      `under ${method.goalMs} ms`,
      'direct calls/s',
      'hintgate calls/s',
      'reference: proxyServer relay p50 - direct p50 ms',
      'reference: proxyServer relay calls/s',
    ],
    overheadRows.map((row) => [
      row.setting.name,
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

  const throughputRows = settings.flatMap((setting) =>
    method.concurrency.map((concurrency) => {
      const gateway = find(setting.http, concurrency);
      const other = find('mcpProxyHttp', concurrency);
      const ratio =
        gateway !== undefined && other !== undefined
          ? gateway.throughput / other.throughput
          : Number.NaN;
      return { setting, concurrency, gateway, other, ratio, met: ratio >= 1 };
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
            row.setting.name,
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
  const warmupFailed = warmup.reduce(
    (sum, row) => sum + row.blocks.reduce((blocks, block) => blocks + block.failed, 0),
    0,
  );
  const ofSetting = <T extends { readonly setting: Setting }>(list: readonly T[], s: Setting) =>
    list.filter((row) => row.setting === s);
  const summary = [
    ...settings.map((setting) => {
      const rowsOf = ofSetting(overheadRows, setting);
      const [one, ...loaded] = rowsOf;
      return `- Gateway, audit.sync: ${setting.name}: hintgate over stdio adds under ${method.goalMs} ms at p50 over direct stdio, at 1 concurrent request: ${one === undefined ? 'not measured' : `${yesNo(one.met)}, ${fixed(one.overhead, 3)} ms`} (queueing included, ${loaded.map((row) => `${row.concurrency} concurrent: ${fixed(row.overhead, 3)} ms`).join('; ')}).`;
    }),
    ...settings.map((setting) => {
      const rowsOf = ofSetting(throughputRows, setting);
      return 'bin' in proxy
        ? `- Gateway, audit.sync: ${setting.name}: hintgate --http throughput no less than mcp-proxy's (both Streamable HTTP in front of the stdio upstream): ${rowsOf.filter((row) => row.met).length}/${rowsOf.length} levels (${rowsOf.map((row) => `${row.concurrency} concurrent: ${fixed(row.ratio, 2)}x, ${yesNo(row.met)}`).join('; ')}).`
        : `- Gateway, audit.sync: ${setting.name}: throughput against mcp-proxy not measured: mcp-proxy is ${proxy.missing}.`;
    }),
    `- Gateway calls not ok: ${failedCalls} of ${rows.reduce((sum, row) => sum + row.calls, 0)} measured, ${warmupFailed} of ${warmup.length * method.warmupCalls} in the warm-up.`,
  ];

  const [stdioAudit, , httpAudit] = audits.map(auditText);
  const proxyText =
    'bin' in proxy
      ? `mcp-proxy ${proxy.version} (\`--server stream\`; its \`proxyServer\` on stdio as a reference relay, bench/gateway-relay.ts)`
      : `mcp-proxy not measured (${proxy.missing})`;
  const markdown = `Method: one stdio upstream (bench/gateway-upstream.ts, server ${method.serverVersion}: one read-only \`ping\`), one client ${method.clientVersion} per path; gateways in mode \`auto\`, server trusted and pinned, audit to \`.hintgate/audit.jsonl\` (default \`audit.sync\` or \`always\`); ${proxyText}. ${method.warmupCalls} warm-up calls per path at 8 concurrent, then ${method.calls} calls per path and level in ${method.rounds} interleaved rounds; p50/p95/p99 nearest-rank of \`callTool\` in the client, throughput = calls / time. Goal 1 (stdio adds < ${method.goalMs} ms at p50) judged at 1 concurrent; goal 2 (HTTP throughput >= mcp-proxy) at every level. Audit events, warm-up included: stdio ${stdioAudit ?? 'n/a'}; HTTP ${httpAudit ?? 'n/a'}.

Warm-up blocks (p50 ms, calls/s):

${warmupTable(warmup, method.warmupBlockCalls)}

All paths, each level:

${latency}

Goal 1:

${overheadTable}

Goal 2:

${throughputTable}

Layers (bench/gateway-layers.ts: the gateway's upstream side in process, ${method.layerCalls} calls per variant one at a time, 8 interleaved rounds, CPU = this process's user + system per call; each row adds one thing to the one above, the last is a reference):

${layersTable(layers)}`;
  return { markdown, summary };
}

/** The warm-up, a path per row and a block per column. */
function warmupTable(warmup: readonly WarmupRow[], blockCalls: number): string {
  const blocks = Math.max(0, ...warmup.map((row) => row.blocks.length));
  return table(
    [
      'path',
      ...Array.from(
        { length: blocks },
        (_, index) =>
          `calls ${index * blockCalls + 1}-${(index + 1) * blockCalls}: p50 ms, calls/s`,
      ),
      'calls not ok',
    ],
    warmup.map((row) => [
      row.label,
      ...Array.from({ length: blocks }, (_, index) => {
        const block = row.blocks[index];
        return block === undefined ? 'n/a' : `${ms(block.p50)}, ${perSecond(block.throughput)}`;
      }),
      String(row.blocks.reduce((sum, block) => sum + block.failed, 0)),
    ]),
  );
}
