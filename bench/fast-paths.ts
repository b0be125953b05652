/**
 * The MCP fast paths on and off, in one run: `npx tsx --tsconfig bench/tsconfig.json
 * bench/fast-paths.ts ['label|cli|HINTGATE_FAST_PATHS' ...]`. The gateway over stdio and
 * over HTTP once per variant (default: this build with `on`, then `off`), against direct
 * stdio and the mcp-proxy command, all in front of part 4's upstream; p50, calls/s and CPU
 * per call of every process of a path but the client, at 1, 8 and 32 concurrent. Prints
 * the table; the section "MCP fast paths on and off" of bench/RESULTS.md is put together
 * from such runs by hand, with the decision they support.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI,
  childEnv,
  drive,
  gatewayCommand,
  gatewayHttpPath,
  mcpProxyHttpPath,
  mcpProxyPackage,
  measurePaths,
  type Path,
  pathsTable,
  pinnedConfig,
  stdioPath,
  UPSTREAM_COMMAND,
  warmupCalls,
} from './gateway.js';
import { machine } from './measure.js';
import { section } from './report.js';

const started = machine();
const variants = (
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['all fast paths on||on', 'all fast paths off||off']
).map((arg) => {
  const [label = arg, cli = '', fast = 'on'] = arg.split('|');
  return { label, cli: cli === '' ? CLI : cli, env: childEnv({ HINTGATE_FAST_PATHS: fast }) };
});
const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-fast-'));
const paths: Path[] = [];
try {
  paths.push(await stdioPath('direct (stdio)', UPSTREAM_COMMAND));
  for (const [index, variant] of variants.entries()) {
    const config = await pinnedConfig(join(work, `stdio-${index}`));
    paths.push(
      await stdioPath(
        `gateway stdio, ${variant.label}`,
        gatewayCommand(config, variant.cli),
        variant.env,
      ),
    );
  }
  for (const [index, variant] of variants.entries()) {
    const config = await pinnedConfig(join(work, `http-${index}`));
    paths.push(await gatewayHttpPath(`gateway HTTP, ${variant.label}`, config, variant));
  }
  const proxy = mcpProxyPackage();
  if ('bin' in proxy) paths.push(await mcpProxyHttpPath(proxy.bin, 'mcp-proxy (HTTP)'));
  for (const path of paths) await drive(path.client, 8, warmupCalls(6000));
  const rows = await measurePaths(paths, [1, 8, 32]);
  const result = section({
    heading: '### Run',
    command: 'bench/fast-paths.ts',
    started,
    method: `part 4's upstream; 6000 warm-up calls per path at 8 concurrent, then ${rows[0]?.calls ?? 0} calls per path and level in 2 interleaved rounds; CPU = user + system of every process of a path but the client.`,
    tables: [pathsTable(rows, 'direct', 'mcp-proxy')],
  });
  process.stdout.write(result.markdown);
} finally {
  for (const path of paths) await path.close().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
