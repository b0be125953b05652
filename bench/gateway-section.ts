/**
 * Part 4 of `npm run bench`: what the gateway adds to a call of a cheap upstream over MCP,
 * against direct stdio and mcp-proxy, all in one run (paths: bench/gateway.ts), then its
 * upstream side layer by layer (bench/gateway-layers.ts). Alone: `npx tsx --tsconfig
 * bench/tsconfig.json bench/gateway-section.ts [--write]`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from 'hintgate/gateway';
import {
  GATEWAY_CALLS,
  gatewayCommand,
  gatewayHttpPath,
  mcpProxyHttpPath,
  mcpProxyPackage,
  measurePaths,
  type Path,
  type PathRow,
  packageVersion,
  pathsTable,
  pinnedConfig,
  RELAY_COMMAND,
  stdioPath,
  UPSTREAM_COMMAND,
  warmUp,
  warmupCalls,
} from './gateway.js';
import { gatewayLayers } from './gateway-layers.js';
import { machine } from './measure.js';
import { fixed, type Goal, runAlone, type SectionResult, section, table } from './report.js';

const LEVELS = [1, 8, 32] as const;
const WARMUP_CALLS = warmupCalls(10_000);
const WARMUP_BLOCK = warmupCalls(2000);
/** Goal 1: the default stdio gateway adds less than this at p50 over direct, 1 concurrent. */
const P50_GOAL_MS = 0.3;
const HEADING = '## 4. Gateway overhead: a cheap tool over MCP, direct vs hintgate vs mcp-proxy';

const DIRECT = 'direct (stdio)';
const STDIO = 'hintgate stdio, audit.sync: auto (default)';
const HTTP = 'hintgate HTTP, audit.sync: auto (default)';
const PROXY = 'mcp-proxy (HTTP)';

/** Audit events of a gateway's log by type, e.g. `16000 call.started, 1 tool.changed`. */
function auditEvents(directory: string): string {
  const counts = new Map<string, number>();
  const text = readFileSync(join(directory, '.hintgate', 'audit.jsonl'), 'utf8');
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const type = (JSON.parse(line) as { type?: string }).type ?? 'unknown';
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [...counts].map(([type, count]) => `${count} \`${type}\``).join(', ');
}

/** Measures part 4. */
export async function gatewaySection(): Promise<SectionResult> {
  const started = machine();
  const proxy = mcpProxyPackage();
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-gateway-'));
  const paths: Path[] = [];
  try {
    const dirs = ['stdio', 'stdio-always', 'http', 'http-always'].map((name) => join(work, name));
    const [stdio = '', stdioAlways = '', http = '', httpAlways = ''] = await Promise.all(
      dirs.map((dir, index) => pinnedConfig(dir, index % 2 === 1 ? 'always' : undefined)),
    );
    // The report names `auto` the default: check that the configuration still says so.
    const defaults = await loadGatewayConfig(stdio);
    if (defaults.audit.sync !== 'auto') {
      throw new Error(`the default audit.sync is now ${defaults.audit.sync}: update part 4.`);
    }
    paths.push(await stdioPath(DIRECT, UPSTREAM_COMMAND));
    paths.push(await stdioPath(STDIO, gatewayCommand(stdio)));
    paths.push(await stdioPath('hintgate stdio, audit.sync: always', gatewayCommand(stdioAlways)));
    if ('bin' in proxy)
      paths.push(await stdioPath('mcp-proxy proxyServer relay (stdio, reference)', RELAY_COMMAND));
    paths.push(await gatewayHttpPath(HTTP, http));
    paths.push(await gatewayHttpPath('hintgate HTTP, audit.sync: always', httpAlways));
    if ('bin' in proxy) paths.push(await mcpProxyHttpPath(proxy.bin, PROXY));
    const warm = await warmUp(paths, WARMUP_CALLS, WARMUP_BLOCK);
    const rows = await measurePaths(paths, LEVELS);
    for (const path of paths.splice(0)) await path.close();
    const audits = `${auditEvents(dirs[0] as string)} (stdio); ${auditEvents(dirs[2] as string)} (HTTP)`;
    const layers = await gatewayLayers();

    const find = (label: string, level: number): PathRow | undefined =>
      rows.find((row) => row.label === label && row.concurrency === level);
    const goals: Goal[] = [];
    const direct1 = find(DIRECT, 1);
    const stdio1 = find(STDIO, 1);
    if (direct1 !== undefined && stdio1 !== undefined) {
      goals.push({
        name: '4. stdio gateway p50 - direct p50, 1 concurrent',
        value: stdio1.p50 - direct1.p50,
        limit: P50_GOAL_MS,
        bound: 'most',
        unit: ' ms',
      });
    }
    for (const level of LEVELS) {
      const gateway = find(HTTP, level);
      const other = find(PROXY, level);
      if (gateway === undefined || other === undefined) continue;
      goals.push({
        name: `4. HTTP gateway calls/s / mcp-proxy's, ${level} concurrent`,
        value: gateway.throughput / other.throughput,
        limit: 1,
        bound: 'least',
        unit: 'x',
      });
    }
    const blocks = Array.from(
      { length: WARMUP_CALLS / WARMUP_BLOCK },
      (_, i) => `calls ${i * WARMUP_BLOCK + 1}-${(i + 1) * WARMUP_BLOCK}`,
    );
    const warmRows = warm.map((list) => [
      list[0]?.label ?? '',
      ...list.map((row) => `${fixed(row.p50, 3)}, ${fixed(row.throughput, 0)}`),
    ]);
    return section({
      heading: HEADING,
      command: 'bench/gateway-section.ts',
      started,
      method: `one stdio upstream (bench/gateway-upstream.ts, server ${packageVersion('@modelcontextprotocol/server')}: one read-only \`ping\`), one client ${packageVersion('@modelcontextprotocol/client')} per path; gateways in mode \`auto\`, server trusted and pinned, audit to \`.hintgate/audit.jsonl\` (default \`audit.sync\` or \`always\`); ${'bin' in proxy ? `mcp-proxy ${proxy.version} (\`--server stream\`; its \`proxyServer\` as a stdio relay for reference, bench/gateway-relay.ts)` : `mcp-proxy not measured (${proxy.missing})`}. ${WARMUP_CALLS} warm-up calls per path at 8 concurrent (first table: p50 ms, calls/s per block), then ${GATEWAY_CALLS} calls per path and level in 2 interleaved rounds; p50/p95/p99 nearest-rank of \`callTool\` in the client; CPU = user + system of the path's processes but the client, from /proc. Audit events, warm-up included: ${audits}. Goals, on the default configuration: the stdio gateway adds under ${P50_GOAL_MS} ms at p50 over direct at 1 concurrent; the HTTP gateway's calls/s at least mcp-proxy's at every level. Last table: the gateway's upstream side in process (bench/gateway-layers.ts).`,
      tables: [table(['path', ...blocks], warmRows), pathsTable(rows, DIRECT, PROXY), layers],
      goals,
    });
  } finally {
    for (const path of paths) await path.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

runAlone(import.meta.url, gatewaySection);
