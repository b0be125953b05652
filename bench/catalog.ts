/**
 * Big catalogs: part 6 of `npm run bench`, or alone with a build to compare against:
 * `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/catalog.ts [--baseline
 * <checkout, built>] [--write]` (`--write` replaces section 6 of bench/RESULTS.md).
 *
 * The upstream is bench/catalog-upstream.ts listing N tools of bench/catalog-tools.ts
 * (every tool its own schema). Measured in one run, interleaved, per build:
 * - start: from spawning to the answer of the first `tools/list`, for an MCP client
 *   (`@modelcontextprotocol/client` over stdio) spawning the upstream itself, and spawning
 *   `hintgate gateway` in front of it (trusted, pinned); the ratio gateway / upstream;
 * - pin: `hintgate pin` of the 10k catalog, wall time and the peak RSS of its process
 *   (`process.resourceUsage().maxRSS` at exit, the upstream not counted);
 * - selectTools: a query against 1k and 10k tools, after indexing: words not seen before
 *   (first query of each) and queries of words seen before.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { catalogTools } from './catalog-tools.js';
import { childEnv, ROOT } from './gateway.js';
import { fixed, loadNow, machine, median, replaceSection, table, yesNo } from './report.js';

/** Goals; a ratio over its goal fails `npm run bench`. */
export const CATALOG_GOALS = {
  /** Gateway start / upstream start at 10k tools. */
  startRatio: 1.3,
  /** Peak RSS of `hintgate pin` at 10k tools, MB. */
  pinRssMb: 200,
  /** A selectTools query at 10k tools (words seen before), ms. */
  selectMs: 1,
  /** selectTools at 10k / at 1k: sublinear. */
  selectScaling: 10,
} as const;

export const CATALOG_HEADING = '## 8. Big catalogs: gateway start, pin, selectTools';

const UPSTREAM = fileURLToPath(new URL('./catalog-upstream.ts', import.meta.url));
const TIMEOUT_MS = 600_000;
/** Prints the process's CPU time (user + system, µs) to stderr at exit. */
const CPU_HOOK =
  'data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\ncpu_us "+(u.userCPUTime+u.systemCPUTime)+"\\n")})';
const RSS_HOOK =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("\\nmaxrss_kb "+process.resourceUsage().maxRSS+"\\n"))';
const QUERIES = [
  'refund the last payment',
  'list open tickets in support',
  'deploy the release build',
  'what is on my calendar',
  'export the payroll report',
  'delete a webhook',
  'search wiki pages about onboarding',
  'archive old invoices',
];

/** A build of hintgate: this checkout's or a baseline's. */
interface Build {
  readonly label: string;
  readonly root: string;
}

const upstreamCommand = (): string[] => [process.execPath, '--import', 'tsx', UPSTREAM];

/**
 * Spawn to first `tools/list` answer, ms; checks the count. With `cpu`, the command runs
 * under {@link CPU_HOOK} and its CPU time to exit (ms) is returned too.
 */
async function startMs(
  command: readonly string[],
  env: Record<string, string>,
  tools: number,
  cpu = false,
): Promise<{ ms: number; cpuMs: number }> {
  const [program = process.execPath, ...rest] = command;
  const args = cpu ? ['--import', CPU_HOOK, ...rest] : rest;
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: program,
    args,
    cwd: ROOT,
    env,
    stderr: 'pipe',
    maxBufferSize: 512 * 1024 * 1024,
  });
  const client = new Client({ name: 'hintgate-bench', version: '1.0.0' });
  let stderr = '';
  const ended = new Promise<void>((resolve) => {
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    transport.stderr?.on('end', resolve);
    transport.stderr?.on('error', () => resolve());
  });
  let ms: number;
  try {
    await client.connect(transport, { timeout: TIMEOUT_MS });
    let listed = 0;
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, {
        timeout: TIMEOUT_MS,
      });
      listed += page.tools.length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    if (listed !== tools) throw new Error(`${command.join(' ')} listed ${listed} of ${tools}`);
    ms = performance.now() - started;
  } finally {
    await client.close();
  }
  if (!cpu) return { ms, cpuMs: Number.NaN };
  await ended;
  const used = /cpu_us (\d+)/.exec(stderr);
  return { ms, cpuMs: used === null ? Number.NaN : Number(used[1]) / 1000 };
}

/** A configuration fronting the catalog upstream, pinned by `build`: its path, pin figures. */
function pinnedConfig(build: Build, dir: string, tools: number) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'hintgate.yaml');
  const [command, ...args] = upstreamCommand();
  const server = { command, args, cwd: ROOT, env: { CATALOG_TOOLS: String(tools) }, trusted: true };
  writeFileSync(file, `${JSON.stringify({ servers: { catalog: server }, mode: 'auto' })}\n`);
  const cli = join(build.root, 'dist', 'cli', 'main.js');
  const started = performance.now();
  return new Promise<{ file: string; ms: number; rssMb: number }>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', RSS_HOOK, cli, 'pin', '--config', file],
      { cwd: ROOT, env: childEnv(), timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        const rss = /maxrss_kb (\d+)/.exec(stderr);
        if (error !== null || rss === null) reject(new Error(`pin (${build.label}): ${stderr}`));
        else resolve({ file, ms: performance.now() - started, rssMb: Number(rss[1]) / 1024 });
      },
    );
  });
}

interface StartRow {
  readonly tools: number;
  readonly upstream: number;
  readonly gateways: readonly number[];
  /** CPU time of each build's gateway process, start to exit (median), ms. */
  readonly cpu: readonly number[];
}

interface SelectRow {
  readonly tools: number;
  readonly indexMs: readonly number[];
  readonly coldMs: readonly number[];
  readonly warmMs: readonly number[];
}

type SelectTools = (query: string, options: { tools: unknown[]; maxTools: number }) => unknown[];

/** selectTools of `build` over `tools` tools: index, first queries, repeated queries. */
async function selectFigures(build: Build, tools: number) {
  const module = (await import(pathToFileURL(join(build.root, 'dist', 'index.js')).href)) as {
    selectTools: SelectTools;
  };
  const catalog = catalogTools(tools);
  const time = (work: () => void): number => {
    const started = performance.now();
    work();
    return performance.now() - started;
  };
  const indexMs = time(() => module.selectTools('', { tools: catalog, maxTools: 10 }));
  const coldMs = median(
    QUERIES.map((q) => time(() => module.selectTools(q, { tools: catalog, maxTools: 10 }))),
  );
  const rounds = 50;
  const warmMs =
    time(() => {
      for (let round = 0; round < rounds; round += 1)
        for (const q of QUERIES) module.selectTools(q, { tools: catalog, maxTools: 10 });
    }) /
    (rounds * QUERIES.length);
  return { indexMs, coldMs, warmMs };
}

/** The whole measurement; `builds[0]` is this checkout, others are baselines. */
export async function catalogBench(builds: readonly Build[], log: (line: string) => void) {
  const load = loadNow();
  const work = mkdtempSync(join(tmpdir(), 'hintgate-catalog-'));
  const starts: StartRow[] = [];
  const pins: { ms: number; rssMb: number }[] = [];
  try {
    for (const tools of [1000, 10_000]) {
      const configs = [];
      for (const [b, build] of builds.entries()) {
        const pinned = await pinnedConfig(build, join(work, `${tools}-${b}`), tools);
        if (tools === 10_000) pins.push({ ms: pinned.ms, rssMb: pinned.rssMb });
        configs.push(pinned.file);
        log(
          `  ${build.label}: pinned ${tools} tools in ${fixed(pinned.ms)} ms, ${fixed(pinned.rssMb)} MB`,
        );
      }
      const upstream: number[] = [];
      const gateways: number[][] = builds.map(() => []);
      const cpu: number[][] = builds.map(() => []);
      for (let round = 0; round < 2; round += 1) {
        const alone = await startMs(
          upstreamCommand(),
          { ...childEnv(), CATALOG_TOOLS: String(tools) },
          tools,
        );
        upstream.push(alone.ms);
        for (const [b, build] of builds.entries()) {
          const cli = join(build.root, 'dist', 'cli', 'main.js');
          const command = [process.execPath, cli, 'gateway', '--config', configs[b] as string];
          const gateway = await startMs(command, childEnv(), tools, true);
          gateways[b]?.push(gateway.ms);
          cpu[b]?.push(gateway.cpuMs);
        }
        log(`  start at ${tools} tools: round ${round + 1} done`);
      }
      starts.push({
        tools,
        upstream: median(upstream),
        gateways: gateways.map(median),
        cpu: cpu.map(median),
      });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const selects: SelectRow[] = [];
  for (const tools of [1000, 10_000]) {
    const figures = [];
    for (const build of builds) figures.push(await selectFigures(build, tools));
    selects.push({
      tools,
      indexMs: figures.map((f) => f.indexMs),
      coldMs: figures.map((f) => f.coldMs),
      warmMs: figures.map((f) => f.warmMs),
    });
  }
  return render(builds, { load, loadAfter: loadNow(), starts, pins, selects });
}

function render(
  builds: readonly Build[],
  run: {
    load: number;
    loadAfter: number;
    starts: readonly StartRow[];
    pins: readonly { ms: number; rssMb: number }[];
    selects: readonly SelectRow[];
  },
) {
  const labels = builds.map((build) => build.label);
  const per = (values: readonly number[], format: (v: number) => string) =>
    labels.map((_, b) => format(values[b] ?? Number.NaN));
  const ten = run.starts.find((row) => row.tools === 10_000);
  const startRatio = (ten?.gateways[0] ?? Number.NaN) / (ten?.upstream ?? Number.NaN);
  const rss = run.pins[0]?.rssMb ?? Number.NaN;
  const warm = (tools: number) => run.selects.find((row) => row.tools === tools)?.warmMs[0];
  const selectMs = warm(10_000) ?? Number.NaN;
  const scaling = selectMs / (warm(1000) ?? Number.NaN);
  const failures = [
    ...(startRatio <= CATALOG_GOALS.startRatio
      ? []
      : [
          `gateway start at 10k tools ${fixed(startRatio, 2)}x the upstream's (goal ${CATALOG_GOALS.startRatio}x)`,
        ]),
    ...(rss <= CATALOG_GOALS.pinRssMb
      ? []
      : [`pin at 10k tools peaks at ${fixed(rss)} MB (goal ${CATALOG_GOALS.pinRssMb} MB)`]),
    ...(selectMs <= CATALOG_GOALS.selectMs
      ? []
      : [`selectTools at 10k tools ${fixed(selectMs, 3)} ms (goal ${CATALOG_GOALS.selectMs} ms)`]),
    ...(scaling <= CATALOG_GOALS.selectScaling
      ? []
      : [`selectTools 10k / 1k = ${fixed(scaling, 1)}x (goal ${CATALOG_GOALS.selectScaling}x)`]),
  ];
  const start = table(
    [
      'tools',
      'upstream alone ms',
      ...labels.map((l) => `gateway (${l}) ms`),
      ...labels.map((l) => `gateway / upstream (${l})`),
      ...labels.map((l) => `gateway CPU ms (${l})`),
      `within ${CATALOG_GOALS.startRatio}x (${labels[0]})`,
    ],
    run.starts.map((row) => [
      String(row.tools),
      fixed(row.upstream, 0),
      ...per(row.gateways, (v) => fixed(v, 0)),
      ...per(row.gateways, (v) => `${fixed(v / row.upstream, 2)}x`),
      ...per(row.cpu, (v) => fixed(v, 0)),
      row.tools === 10_000 ? yesNo(startRatio <= CATALOG_GOALS.startRatio) : 'n/a',
    ]),
  );
  const upstream10k = ten?.upstream ?? Number.NaN;
  const pin = table(
    [
      'build',
      'pin ms',
      'pin / upstream start',
      'peak RSS MB',
      `under ${CATALOG_GOALS.pinRssMb} MB`,
    ],
    run.pins.map((row, b) => [
      labels[b] ?? '',
      fixed(row.ms, 0),
      `${fixed(row.ms / upstream10k, 2)}x`,
      fixed(row.rssMb, 0),
      yesNo(row.rssMb <= CATALOG_GOALS.pinRssMb),
    ]),
  );
  const select = table(
    [
      'tools',
      ...labels.flatMap((l) => [`index ms (${l})`, `new words ms (${l})`, `seen words ms (${l})`]),
    ],
    run.selects.map((row) => [
      String(row.tools),
      ...labels.flatMap((_, b) => [
        fixed(row.indexMs[b] ?? Number.NaN, 0),
        fixed(row.coldMs[b] ?? Number.NaN, 3),
        fixed(row.warmMs[b] ?? Number.NaN, 3),
      ]),
    ]),
  );
  const host = machine();
  const markdown = `${CATALOG_HEADING}

${host.date}, ${host.cpu} (${host.cores} cores, ${fixed(host.memoryGiB)} GiB), Node ${host.node}. Goals (a miss fails \`npm run bench\`): gateway start within ${CATALOG_GOALS.startRatio}x of the upstream's own start at 10k tools; \`hintgate pin\` at 10k tools under ${CATALOG_GOALS.pinRssMb} MB peak RSS; a \`selectTools\` query at 10k tools under ${CATALOG_GOALS.selectMs} ms after indexing, and at most ${CATALOG_GOALS.selectScaling}x its cost at 1k. Load average (1 min) ${fixed(run.load, 2)} before, ${fixed(run.loadAfter, 2)} after, on ${builds.length === 1 ? 'this build' : `builds ${labels.join(', ')}`}. Start: spawn to the first \`tools/list\` answer, median of 2 interleaved rounds (bench/catalog.ts); gateway CPU = user + system time of the gateway process from its start to its exit after the answer (its upstream not counted), the figure that holds under load.

${start}

${pin}

selectTools (\`maxTools: 10\`, ${QUERIES.length} queries): index = first call; new words = median of the first query of each; seen words = mean over 50 rounds of all of them.

${select}

${failures.length === 0 ? 'All goals met.' : `Missed: ${failures.join('; ')}.`}
`;
  return { markdown, failures };
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  const { values } = parseArgs({
    options: { baseline: { type: 'string' }, write: { type: 'boolean', default: false } },
  });
  const builds: Build[] = [{ label: 'after', root: ROOT }];
  if (values.baseline !== undefined) builds.push({ label: 'before', root: values.baseline });
  const { markdown, failures } = await catalogBench(builds, (line) =>
    process.stdout.write(`${line}\n`),
  );
  process.stdout.write(`${markdown}\n`);
  if (values.write) {
    const path = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
    writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), CATALOG_HEADING, markdown));
  }
  if (failures.length > 0) process.exitCode = 1;
}
