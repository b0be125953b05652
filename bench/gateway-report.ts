/**
 * The report of part 4 (bench/gateway.ts): the path table and method, the latency and goal
 * tables, and the verdicts, each computed from the numbers of the run, with what the layer
 * table (bench/gateway-layers.ts) says the time goes to.
 */
import { availableParallelism } from 'node:os';
import type { AuditCounts } from './audit-counts.js';
import type { PathKey } from './gateway.js';
import { eraName, type LayerRows, layersTable } from './gateway-layers.js';
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
/** A difference with its sign; one that rounds to zero is `+0`. */
const signed = (value: number, digits: number): string => {
  const text = fixed(value, digits).replace(/^-(0(\.0*)?)$/, '$1');
  return text.startsWith('-') ? text : `+${text}`;
};
const verdict = (met: number, of: number): string =>
  met === of ? 'met' : met === 0 ? 'missed' : 'partly met';

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

  const goal1Verdict = settings
    .map((setting) => goal1Text(ofSetting(overheadRows, setting), layers, setting, method.goalMs))
    .join('\n\n');
  const goal2Verdict =
    'bin' in proxy
      ? settings
          .map((setting) => goal2Text(ofSetting(throughputRows, setting), layers, setting))
          .join('\n\n')
      : 'Goal 2 verdict: not measured.';

  const markdown = `${methodText(proxy, audits, method)}

Warm-up, before the levels below (${method.warmupCalls} calls per path at 8 concurrent requests, the paths taking turns block by block): p50 and throughput of each block of ${method.warmupBlockCalls} calls. Every process starts cold, and V8 compiles its hot functions with optimizations only after they ran some thousands of times, so the first blocks show what a freshly started process costs. The levels below measure the processes after this warm-up.

${warmupTable(warmup, method.warmupBlockCalls)}

All paths, each level:

${latency}

Goal 1: hintgate over stdio adds less than ${method.goalMs} ms at p50 over direct stdio, judged at 1 concurrent request (the other levels are shown for reference).

${overheadTable}

${goal1Verdict}

Goal 2: hintgate's throughput is no less than mcp-proxy's on the same path (Streamable HTTP downstream, stdio upstream).

${throughputTable}

${goal2Verdict}

Where the time goes, measured in the same run after the paths above were stopped (bench/gateway-layers.ts): the upstream side of the gateway rebuilt in the benchmark's own process, the same upstream program called ${method.layerCalls} times per variant, one call at a time, the variants taking turns in 8 rounds after 1000 warm-up calls each. CPU is this process's user + system time per call, the median of the 8 rounds (all its threads, so the thread pool's \`fdatasync\` counts; not the upstream's). Each variant ends with the era its connection negotiated. Row 2 puts hintgate's runtime, and its own tools/call on the transport, in place of row 1's \`client.callTool\`; from the third row to the sixth, each row adds one thing to the row above it (the two audit events, their append to a file, the background sync of \`sync: 'auto'\`, then every call waiting for its sync), so the difference between neighbours is what that thing costs; the last row is a reference, row 2 with \`era: 'auto'\`.

${layersTable(layers)}

${layerText(layers)}`;
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

/** The paths, how they are set up and measured. */
function methodText(
  proxy: GatewayReportInput['proxy'],
  audits: readonly AuditCounts[],
  method: GatewayMethod,
): string {
  const byDefault = `audit.sync: ${method.defaultSync} (default)`;
  const proxyRow =
    'bin' in proxy
      ? `| mcp-proxy | Streamable HTTP | the \`mcp-proxy\` npm package ${proxy.version}, its command: \`mcp-proxy --host 127.0.0.1 --port PORT --server stream -- node --import tsx bench/gateway-upstream.ts\`, other options at their defaults; the client speaks to \`http://127.0.0.1:PORT/mcp\` |
| mcp-proxy proxyServer (reference) | stdio | not a product path, for reference only: bench/gateway-relay.ts wires mcp-proxy ${proxy.version}'s exported \`proxyServer\` to a stdio server transport as its README shows (its command has no stdio downstream); a relay with no policy, so it shows what one more SDK-based stdio hop costs |`
      : `| mcp-proxy | Streamable HTTP | not measured: mcp-proxy is ${proxy.missing} |`;
  const [stdio, stdioAlways, http, httpAlways] = audits.map(auditText);
  return `One upstream MCP server over stdio (bench/gateway-upstream.ts, \`@modelcontextprotocol/server\` ${method.serverVersion}: one tool, \`ping\`, annotated read-only, no arguments, returning the text "pong"; run with \`node --import tsx\`) is called with \`callTool\` by one \`@modelcontextprotocol/client\` ${method.clientVersion} \`Client\` per path (default options, so the 2025 \`initialize\` handshake downstream). All paths are started in this run and front the same upstream program, each its own process of it:

| path | downstream | how the client reaches the upstream |
| --- | --- | --- |
| direct | stdio | the client spawns the upstream |
| hintgate gateway, ${byDefault} | stdio | the client spawns \`node dist/cli/main.js gateway --config <temp>/hintgate.yaml --mode auto\`, which spawns the upstream (\`trusted: true\`, its tool pinned beforehand with \`hintgate pin\`); the configuration sets neither \`audit\` nor the server's \`era\`, so both are at their defaults |
| hintgate gateway, audit.sync: always | stdio | the same in its own configuration directory (also pinned), whose \`hintgate.yaml\` adds \`audit: { sync: always }\` |
| hintgate gateway --http, ${byDefault} | Streamable HTTP | the same as the default stdio gateway, in its own configuration directory (also pinned), with \`--http --port 0\`; the client speaks to \`http://127.0.0.1:PORT/mcp\` |
| hintgate gateway --http, audit.sync: always | Streamable HTTP | the same with \`audit: { sync: always }\`, in its own configuration directory |
${proxyRow}

The \`mcp-proxy\` package fronts a stdio server only with HTTP downstream (Streamable HTTP or SSE). So goal 1 compares hintgate over stdio with direct stdio, and goal 2 compares hintgate \`--http\` with the mcp-proxy command, both Streamable HTTP downstream in front of the same stdio upstream. Policy is on in hintgate for every call: a decision in mode \`auto\` from the trusted annotations, the pin check, the lock manager, and two audit events per call in \`.hintgate/audit.jsonl\`: \`call.started\` and \`call.succeeded\` (with \`always\`, \`call.started\` is appended before the call goes upstream; with \`auto\`, a read-only call's \`call.started\` is appended together with its \`call.succeeded\`, one write per call). With the default \`audit.sync: ${method.defaultSync}\`, durability follows the call's effective class, from its trusted annotations: \`ping\` is read-only, so its result returns once \`call.succeeded\` is appended to the file, without waiting for an \`fdatasync\` (a crash or kill of the gateway loses no event; a crash of the machine can lose up to the last \`maxSyncDelayMs\`, 50 ms by default), and the file is synced in the background within \`maxSyncDelayMs\`. For this read-only tool that is what \`audit.sync: batched\` does for every call, so \`batched\` is not measured apart. A call that may change something would wait for the sync of its events, as every call does with \`audit.sync: always\`: both events are synced to disk with one \`fdatasync\` (shared by the calls that end together) before the result returns. This run, warm-up included: stdio gateway, ${method.defaultSync}: ${stdio ?? 'n/a'}; stdio gateway, always: ${stdioAlways ?? 'n/a'}; HTTP gateway, ${method.defaultSync}: ${http ?? 'n/a'}; HTTP gateway, always: ${httpAlways ?? 'n/a'}. Upstream, hintgate and mcp-proxy both connect to this stdio server with the 2025 \`initialize\` handshake (for hintgate the default for a server run over stdio, the configurations setting no \`era\`; for mcp-proxy its default). hintgate sends each \`tools/call\` straight on its client's transport, past the SDK's request layer (a text result is taken as is, any other checked with the SDK's \`CallToolResult\` schema); mcp-proxy goes through the SDK \`Client\`'s \`callTool\`. Downstream, every \`tools/call\` goes through the gateway's one handler; over stdio every request goes through the SDK's dispatch, and over HTTP plain \`tools/call\` requests (no \`_meta\`) of 2025-11-25 sessions are read from the HTTP listener, past the SDK's web-standard request handling, and answered with JSON. The HTTP client transport is given a \`fetch\` that leaves out the transport's shared abort signal (undici keeps one listener on it per request until garbage collection, which piles up under load); the same for both HTTP paths.

Every path first gets the ${method.warmupCalls} warm-up calls at 8 concurrent requests shown in the next table. Then, for each level of concurrent requests, every path makes ${method.calls} calls in ${method.rounds} rounds of ${method.calls / method.rounds}, the paths taking turns within a round (in reverse order in the next round), each keeping that many calls in flight (a worker starts its next call when its last one ends). Latency is \`performance.now()\` around each \`callTool\` in the client; percentiles are nearest-rank over the ${method.calls} calls; throughput is ${method.calls} calls divided by the time the ${method.rounds} rounds took. Client, gateway or proxy and upstream are separate processes sharing the machine's ${availableParallelism()} cores, so at 8 and 32 concurrent requests latency is mostly queueing and throughput is bounded by the CPU time each path spends per call.`;
}

interface Cost {
  /** At p50, in ms. */
  readonly p50: number;
  /** CPU per call, in µs. */
  readonly cpuUs: number;
}

/** What each layer of bench/gateway-layers.ts adds, at p50 (ms) and in CPU (µs per call). */
function layerCosts(layers: LayerRows) {
  const diff = (a: keyof LayerRows, b: keyof LayerRows): Cost => ({
    p50: layers[b].p50 - layers[a].p50,
    cpuUs: layers[b].cpuUs - layers[a].cpuUs,
  });
  return {
    /** The runtime, with its tools/call on the transport, against the SDK's `callTool`. */
    runtime: diff('sdk', 'runtime'),
    events: diff('runtime', 'memoryAudit'),
    append: diff('memoryAudit', 'jsonlNoSync'),
    /** `sync: 'auto'` against no sync: this read-only call's background sync. */
    backgroundSync: diff('jsonlNoSync', 'jsonlAuto'),
    /** `sync: true` against `'auto'`: every call waiting for its sync. */
    waitForSync: diff('jsonlAuto', 'jsonlAlways'),
    /** What syncing adds to the appended events, per setting measured. */
    sync: {
      auto: diff('jsonlNoSync', 'jsonlAuto'),
      always: diff('jsonlNoSync', 'jsonlAlways'),
    } satisfies Record<Setting['sync'], Cost>,
    /** The reference: era `auto` against the runtime's default for a stdio server. */
    era: diff('runtime', 'runtimeEraAuto'),
  };
}

function layerText(layers: LayerRows): string {
  const cost = layerCosts(layers);
  const item = (what: string, c: Cost): string =>
    `${what}: ${signed(c.p50, 3)} ms at p50, ${signed(c.cpuUs, 0)} µs of CPU per call`;
  return `Reading the table (this run): ${[
    item(
      "hintgate's runtime around the remote tool (validation, policy decision, locks, timeout and cancellation, result shaping), with its tools/call straight on the transport, against the SDK `Client`'s `callTool` of row 1",
      cost.runtime,
    ),
    item('building the two audit events (memory sink)', cost.events),
    item('appending them to the JSONL file', cost.append),
    item(
      "`sync: 'auto'` for this read-only call: the background sync, which no call waits for",
      cost.backgroundSync,
    ),
    item(
      '`sync: true` instead: every call waiting for its `fdatasync` before its result returns (one per call when calls come one at a time)',
      cost.waitForSync,
    ),
    item(
      `reference: \`era: 'auto'\` (${eraName(layers.runtimeEraAuto.era)} with this server, through the SDK's request layer) instead of the runtime's default for a stdio server (${eraName(layers.runtime.era)}, tools/call on the transport)`,
      cost.era,
    ),
  ].join(
    '; ',
  )}. Differences of a few µs or hundredths of a ms are within the noise of this machine.`;
}

function goal1Text(
  rows: ReadonlyArray<{
    concurrency: number;
    overhead: number;
    relayOverhead: number;
    met: boolean;
  }>,
  layers: LayerRows,
  setting: Setting,
  goalMs: number,
): string {
  const cost = layerCosts(layers);
  const one = rows.find((row) => row.concurrency === 1);
  const loaded = rows.filter((row) => row !== one);
  const judged =
    one === undefined
      ? 'not measured (no level of 1 concurrent request)'
      : `${one.met ? 'met' : 'missed'} (1 concurrent: ${fixed(one.overhead, 3)} ms, ${one.met ? `under the goal by ${fixed(goalMs - one.overhead, 3)} ms` : `over the goal by ${fixed(one.overhead - goalMs, 3)} ms`})`;
  const queueing =
    loaded.length === 0
      ? ''
      : ` At ${loaded.map((row) => row.concurrency).join(' and ')} concurrent requests, p50 is mostly a call's wait behind the calls ahead of it on ${availableParallelism()} cores, which grows with the CPU time all processes of a path spend per call (the measure of goal 2); there hintgate adds ${loaded.map((row) => `${fixed(row.overhead, 3)} ms`).join(' and ')}, the proxyServer relay ${loaded.map((row) => `${fixed(row.relayOverhead, 3)} ms`).join(' and ')}, for reference.`;
  let accounted = '';
  if (one !== undefined) {
    const events = cost.events.p50 + cost.append.p50;
    const sync = cost.sync[setting.sync].p50;
    const waits = setting.sync === 'always';
    const rest = one.overhead - one.relayOverhead - cost.runtime.p50 - events - sync;
    accounted = ` At 1 concurrent request, of the ${fixed(one.overhead, 3)} ms: one more SDK-based stdio hop costs ${fixed(one.relayOverhead, 3)} ms by itself (the proxyServer relay, no policy); per the layer table, hintgate's runtime with its tools/call on the transport ${signed(cost.runtime.p50, 3)} ms against the relay's SDK client, the audit events and their append ${fixed(events, 3)} ms, ${waits ? `waiting for their \`fdatasync\` ${fixed(sync, 3)} ms` : `their background sync ${signed(sync, 3)} ms (no sync waited for)`}; the remaining ${signed(rest, 3)} ms is the difference between the gateway's MCP server side (its stdio line guard, the SDK's dispatch and its one \`tools/call\` handler, result projection) and the relay's SDK server, plus noise. ${budgetText(goalMs - one.relayOverhead, waits ? sync : undefined)}`;
  }
  return `Goal 1 verdict, audit.sync: ${setting.name}: ${judged}. The goal is on the time a call takes, so it is judged at 1 concurrent request, where p50 is that time on every path.${queueing}${accounted}`;
}

/** What is left of goal 1's budget once a relay's hop is paid, against a sync if waited for. */
function budgetText(left: number, syncMs: number | undefined): string {
  const hop =
    left <= 0
      ? "The relay's hop alone already takes the whole budget"
      : `The relay's hop alone leaves ${fixed(left, 3)} ms of the budget`;
  if (syncMs === undefined || left >= syncMs) return `${hop}.`;
  const sync = `waiting for one \`fdatasync\` takes ${fixed(syncMs, 3)} ms here`;
  return `${hop}${left <= 0 ? `, and ${sync}` : `, and ${sync}, more than that`}: with every result waiting for a sync, the goal is out of reach on this machine unless the gateway's own stdio hop costs less than the relay's.`;
}

function goal2Text(
  rows: ReadonlyArray<{ concurrency: number; ratio: number; met: boolean }>,
  layers: LayerRows,
  setting: Setting,
): string {
  const met = rows.filter((row) => row.met).length;
  const cost = layerCosts(layers);
  const levels = rows
    .map(
      (row) =>
        `${row.concurrency} concurrent: ${fixed(row.ratio, 2)}x, ${row.met ? 'met' : `${fixed((1 - row.ratio) * 100, 0)}% short`}`,
    )
    .join('; ');
  const sync = cost.sync[setting.sync].cpuUs;
  const syncText =
    setting.sync === 'always'
      ? `${signed(sync, 0)} µs for syncing them before each result (less per call when concurrent calls share a sync)`
      : `${signed(sync, 0)} µs for their share of the background sync`;
  return `Goal 2 verdict, audit.sync: ${setting.name}: ${verdict(met, rows.length)} (${met}/${rows.length} levels; ${levels}). Throughput here is bounded by the CPU time all processes spend per call on ${availableParallelism()} cores. Per call, one at a time, the layer table puts hintgate's own CPU at ${signed(cost.runtime.cpuUs, 0)} µs for the runtime (net of what its tools/call straight on the transport saves against the SDK client's \`callTool\`, which mcp-proxy goes through), ${fixed(cost.events.cpuUs + cost.append.cpuUs, 0)} µs for the audit events and their append and ${syncText}, on top of what both pay (a client upstream, JSON of every message, the transports). Downstream, hintgate answers a plain \`tools/call\` of a 2025-11-25 session with JSON straight from its HTTP listener, past the SDK's web-standard request handling and stream bookkeeping, which mcp-proxy's SDK server goes through for every call.`;
}
