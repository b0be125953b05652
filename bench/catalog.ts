/** Section `catalog`: gateway start, `hintgate pin` and selectTools over big catalogs. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { builds, childEnv, median, ROOT, sized, upstream } from './measure.js';
import { type Cell, type Context, type Goal, goal, type Result, table } from './report.js';
import { catalogTools } from './upstream.js';

const TIMEOUT_MS = 600_000;
const run = promisify(execFile);
const UPSTREAM = upstream('catalog');
/** Prints the process's CPU ms and peak RSS KB to stderr at exit. */
const HOOK =
  'data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\nhintgate-bench "+(u.userCPUTime+u.systemCPUTime)/1000+" "+u.maxRSS+"\\n")})';
const QUERIES = `refund the last payment|list open tickets in support|deploy the release build
what is on my calendar|export the payroll report|delete a webhook
search wiki pages about onboarding|archive old invoices`.split(/[|\n]/);
/**
 * Queries run before the measured ones, none of their words in {@link QUERIES}: so that a
 * new word's time is its search, not the first compile of the search's code.
 */
const WARMUPS = `rename a folder|play a music track|book a meeting room
create a new shipment label|update the customer address|check server health`.split(/[|\n]/);

/** CPU ms and peak RSS MB a process started under {@link HOOK} printed. */
const usage = (stderr: string) => {
  const [, cpu = Number.NaN, rss = Number.NaN] = /hintgate-bench ([\d.]+) (\d+)/.exec(stderr) ?? [];
  return { cpuMs: Number(cpu), rssMb: Number(rss) / 1024 };
};

/** Spawn to first `tools/list` answer (all pages), ms; and the process's CPU ms to its exit. */
async function startMs(command: readonly string[], env: Record<string, string>, tools: number) {
  const [program = '', ...args] = command;
  const started = performance.now();
  const options = { command: program, args: ['--import', HOOK, ...args], cwd: ROOT, env };
  const transport = new StdioClientTransport({ ...options, stderr: 'pipe' });
  let stderr = '';
  const ended = new Promise((resolve) =>
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += String(chunk))).on('end', resolve),
  );
  const client = new Client({ name: 'hintgate-bench', version: '1.0.0' });
  let ms = Number.NaN;
  try {
    await client.connect(transport, { timeout: TIMEOUT_MS });
    let [listed, cursor] = [0, undefined as string | undefined];
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: TIMEOUT_MS });
      [listed, cursor] = [listed + page.tools.length, page.nextCursor];
    } while (cursor !== undefined);
    if (listed !== tools)
      throw new Error(`${command.join(' ')} listed ${listed} of ${tools} tools`);
    ms = performance.now() - started;
  } finally {
    await client.close();
  }
  await ended;
  return { ms, cpuMs: usage(stderr).cpuMs };
}

/** A configuration fronting the catalog in `dir`, pinned by `cli`: its file, pin ms and peak RSS. */
async function pin(cli: string, dir: string, tools: number) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'hintgate.yaml');
  const [command, ...upstreamArgs] = UPSTREAM;
  const env = { CATALOG_TOOLS: String(tools) };
  const server = { command, args: upstreamArgs, cwd: ROOT, env, trusted: true };
  writeFileSync(file, JSON.stringify({ servers: { catalog: server }, mode: 'auto' }));
  const started = performance.now();
  const options = { cwd: ROOT, env: childEnv(), timeout: TIMEOUT_MS, maxBuffer: 1 << 26 };
  const args = ['--import', HOOK, cli, 'pin', '--config', file];
  const { stderr } = await run(process.execPath, args, options);
  return { file, ms: performance.now() - started, rssMb: usage(stderr).rssMb };
}

/** Section `catalog`. */
export async function catalog(context: Context): Promise<Result> {
  const measured = await builds(context.baseline);
  const work = mkdtempSync(join(tmpdir(), 'hintgate-bench-catalog-'));
  const [starts, pins, selects, goals]: [Cell[][], Cell[][], Cell[][], Goal[]] = [[], [], [], []];
  const [small, big] = sized([1000, 10_000], [20, 100]);
  try {
    for (const tools of [small, big]) {
      const pinned = [];
      for (const [b, build] of measured.entries()) {
        const cli = join(build.dist, 'cli', 'main.js');
        pinned.push({ ...(await pin(cli, join(work, `${tools}-${b}`), tools)), cli });
        context.log(`  ${build.label}: pinned ${tools} tools`);
      }
      const upstream: number[] = [];
      const gateways = measured.map(() => [] as { ms: number; cpuMs: number }[]);
      for (let round = 0; round < 2; round += 1) {
        upstream.push((await startMs(UPSTREAM, childEnv({ CATALOG_TOOLS: `${tools}` }), tools)).ms);
        for (const [b, { cli, file }] of pinned.entries()) {
          const gateway = [process.execPath, cli, 'gateway', '--config', file];
          gateways[b]?.push(await startMs(gateway, childEnv(), tools));
        }
      }
      const alone = median(upstream);
      for (const [b, build] of measured.entries()) {
        const runs = gateways[b] ?? [];
        const [ms, cpu] = [median(runs.map((g) => g.ms)), median(runs.map((g) => g.cpuMs))];
        starts.push([tools, build.label, alone, ms, ms / alone, cpu]);
        const { ms: pinMs = 0, rssMb = 0 } = pinned[b] ?? {};
        if (tools === big) pins.push([tools, build.label, pinMs, pinMs / alone, rssMb]);
        if (tools !== big || b > 0) continue;
        goals.push(goal(`gateway start / upstream's own start, ${tools} tools`, ms / alone, 1.3));
        goals.push(goal(`hintgate pin at ${tools} tools: peak RSS (absolute)`, rssMb, 200, 'MB'));
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  for (const tools of [small, big]) {
    const list = catalogTools(tools);
    for (const build of measured) {
      const time = (queries: string[]): number => {
        const started = performance.now();
        for (const query of queries)
          build.api.selectTools(query, { tools: list as never, maxTools: 10 });
        return (performance.now() - started) / queries.length;
      };
      // A first index of a copy of the list (its own cache entry), untimed: the timed one is
      // the index of the list, not the first compile of the code that builds it, which would
      // fall on whichever build is measured first.
      build.api.selectTools('', { tools: [...list] as never, maxTools: 10 });
      const indexMs = time(['']);
      time(WARMUPS);
      const newMs = median(QUERIES.map((query) => time([query])));
      const seenMs = time(Array.from({ length: 50 }, () => QUERIES).flat());
      selects.push([tools, build.label, indexMs, newMs, seenMs]);
      if (tools !== big || build !== measured[0]) continue;
      goals.push(goal(`selectTools at ${tools} tools, new words (absolute)`, newMs, 1, 'ms'));
      goals.push(goal(`selectTools at ${tools} tools, seen words (absolute)`, seenMs, 1, 'ms'));
    }
  }
  const startHead = 'tools|build|upstream alone ms|gateway ms|gateway / upstream|gateway CPU ms';
  return {
    method: `start: spawn to the first \`tools/list\` answer, median of 2 rounds, upstream and builds taking turns; gateway CPU = user + system of the gateway process from start to exit after the answer (its upstream not counted), the figure that holds under load. Pin: \`hintgate pin\` of the ${big}-tool catalog, peak RSS of its process. selectTools (\`maxTools: 10\`, ${QUERIES.length} queries): index = first call on the list, after one untimed index of a copy of it (so that neither build pays the first compile of the index code); new words = median of the first query of each, after ${WARMUPS.length} queries with none of their words (the search's code compiled, none of their words searched before); seen words = mean over 50 rounds of all.`,
    tables: [
      table(startHead, starts),
      table('tools|build|pin ms|pin / upstream start|peak RSS MB', pins),
      table('tools|build|index ms|new words ms|seen words ms', selects),
    ],
    goals,
  };
}
