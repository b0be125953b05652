/**
 * Where the stdio gateway spends a call: `npm run build && npx tsx --tsconfig
 * bench/tsconfig.json bench/profile-gateway.ts [--calls N] [--concurrency C] [--no-profile]
 * [--baseline other/dist/cli/main.js]`.
 *
 * Starts the upstream of part 4 directly, behind `hintgate gateway` (mode auto, pinned),
 * behind a bare Node relay (a process that pipes its stdin to the upstream's and the
 * upstream's stdout to its own, parsing nothing: the floor of any stdio hop written in Node
 * on this machine), behind mcp-proxy's `proxyServer` (bench/gateway-relay.ts: the SDK's
 * server and client relaying with no policy), and, with `--baseline`, behind another build's gateway; makes the same
 * calls on each in interleaved rounds, and prints a Markdown table: p50 latency and what it
 * adds to direct, and the CPU time per call of every process of the path (the gateway or
 * relay and its upstream, from /proc, Linux only) as a ratio to direct, with the context
 * switches of the path's first process. Unless `--no-profile`, the gateway runs under
 * `node --cpu-prof` and its self time is printed by function, file and package (the profiler
 * slows it down, so the latencies of a profiled run are not the benchmark's; and it samples
 * wall time, so a process preempted inside `write(2)` by the reader it woke shows that time
 * as the write's: count CPU from /proc, not from the profile).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type CpuProfile, selfTime, topTable } from './cpu-profile.js';
import {
  CLI,
  childEnv,
  drive,
  percentile,
  pinnedConfig,
  ROOT,
  type Sample,
  UPSTREAM_COMMAND,
} from './gateway.js';
import { fixed } from './report.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '4000' },
    concurrency: { type: 'string', default: '1' },
    /** Unrecorded calls per path at 8 concurrent before measuring. */
    warmup: { type: 'string', default: '500' },
    'no-profile': { type: 'boolean', default: false },
    /** Another build's dist/cli/main.js, measured in the same run, without the profiler. */
    baseline: { type: 'string' },
    /** Node.js flags for the baseline process, space-separated (e.g. `--single-threaded-gc`). */
    'baseline-node-flags': { type: 'string', default: '' },
    /** Where to copy the gateway's .cpuprofile (open it in Chrome DevTools). */
    keep: { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const WARMUP = Number(values.warmup);
const ROUNDS = 8;

/** User + system CPU time of a process and its descendants so far, in ms (Linux /proc). */
function treeCpuMs(pid: number | null): number {
  if (pid === null) return Number.NaN;
  let total = 0;
  const visit = (id: number): void => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second here).
      total += (Number(fields[11]) + Number(fields[12])) * 10;
      const children = readFileSync(`/proc/${id}/task/${id}/children`, 'utf8').trim();
      for (const child of children === '' ? [] : children.split(' ')) visit(Number(child));
    } catch {
      // Gone meanwhile.
    }
  };
  visit(pid);
  return total;
}

/** User + system CPU time of one process so far, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | null): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Involuntary context switches of a process so far: times it was preempted. */
function preemptions(pid: number | null): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** The bare relay: stdin to the child's stdin, the child's stdout to stdout, nothing parsed. */
const RELAY_SCRIPT = [
  "const { spawn } = require('node:child_process');",
  'const [command, ...args] = process.argv.slice(1);',
  "const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });",
  'process.stdin.pipe(child.stdin);',
  'child.stdout.pipe(process.stdout);',
  "child.on('exit', (code) => process.exit(code ?? 1));",
].join(' ');

async function connect(command: readonly string[]): Promise<{
  client: Client;
  transport: StdioClientTransport;
}> {
  const [program = process.execPath, ...args] = command;
  const transport = new StdioClientTransport({
    command: program,
    args,
    cwd: ROOT,
    env: childEnv(),
    stderr: 'inherit',
  });
  const client = new Client({ name: 'hintgate-profile', version: '1.0.0' });
  await client.connect(transport, { timeout: 20_000 });
  return { client, transport };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hintgate-profile-gateway-'));
  const profileDir = join(work, 'profile');
  try {
    const config = await pinnedConfig(join(work, 'config'));
    const profiling = values['no-profile'] ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir];
    const direct = await connect(UPSTREAM_COMMAND);
    const gateway = await connect([
      process.execPath,
      ...profiling,
      CLI,
      'gateway',
      '--config',
      config,
      '--mode',
      'auto',
    ]);
    await drive(direct.client, 8, WARMUP);
    await drive(gateway.client, 8, WARMUP);
    const baseline =
      values.baseline === undefined
        ? undefined
        : await connect([
            process.execPath,
            ...values['baseline-node-flags'].split(' ').filter((flag) => flag !== ''),
            values.baseline,
            'gateway',
            '--config',
            await pinnedConfig(join(work, 'baseline')),
            '--mode',
            'auto',
          ]);
    if (baseline !== undefined) await drive(baseline.client, 8, WARMUP);
    const relay = await connect([process.execPath, '-e', RELAY_SCRIPT, ...UPSTREAM_COMMAND]);
    await drive(relay.client, 8, WARMUP);
    const sdkRelay = await connect([
      process.execPath,
      '--import',
      'tsx',
      fileURLToPath(new URL('./gateway-relay.ts', import.meta.url)),
      ...UPSTREAM_COMMAND,
    ]);
    await drive(sdkRelay.client, 8, WARMUP);
    const measured = (label: string, connected: Awaited<ReturnType<typeof connect>>) => ({
      label,
      ...connected,
      sample: newSample(),
      cpu: 0,
      ownCpu: 0,
      preempted: 0,
    });
    const paths = [
      measured('direct', direct),
      measured('gateway', gateway),
      ...(baseline === undefined ? [] : [measured('baseline gateway', baseline)]),
      measured('bare Node relay (reference)', relay),
      measured('mcp-proxy proxyServer, SDK on both sides (reference)', sdkRelay),
    ];
    const idleBefore = cpuMs(gateway.transport.pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleCpu = cpuMs(gateway.transport.pid) - idleBefore;
    const load = loadavg()[0] ?? Number.NaN;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const path of round % 2 === 0 ? paths : [...paths].reverse()) {
        const pid = path.transport.pid;
        const before = [treeCpuMs(pid), cpuMs(pid), preemptions(pid)] as const;
        await drive(path.client, CONCURRENCY, CALLS / ROUNDS, path.sample);
        path.cpu += treeCpuMs(pid) - before[0];
        path.ownCpu += cpuMs(pid) - before[1];
        path.preempted += preemptions(pid) - before[2];
      }
    }
    for (const path of paths) await path.client.close();
    const sorted = (sample: Sample): number[] => [...sample.latencies].sort((a, b) => a - b);
    const out = (line: string): boolean => process.stdout.write(`${line}\n`);
    const [first] = paths;
    if (first === undefined) return;
    const directP50 = percentile(sorted(first.sample), 50);
    const perCall = (ms: number): number => (ms * 1000) / CALLS;
    out(
      `${new Date().toISOString()}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}, load average ${fixed(load, 2)} at start, ${fixed(loadavg()[0] ?? Number.NaN, 2)} at end; ${CALLS} calls per path at ${CONCURRENCY} concurrent in ${ROUNDS} interleaved rounds${profiling.length > 0 ? ', gateway under --cpu-prof' : ''}:`,
    );
    out('');
    out(
      '| path | p50 ms | p50 - direct ms | p95 ms | calls/s | CPU µs per call (path processes) | CPU / direct | of which the first process | preempted per call | failed |',
    );
    out('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const path of paths) {
      const p50 = percentile(sorted(path.sample), 50);
      out(
        `| ${path.label} | ${fixed(p50, 3)} | ${fixed(p50 - directP50, 3)} | ${fixed(percentile(sorted(path.sample), 95), 3)} | ${fixed((CALLS * 1000) / path.sample.wallMs, 0)} | ${fixed(perCall(path.cpu), 0)} | ${fixed(path.cpu / first.cpu, 2)} | ${fixed(perCall(path.ownCpu), 0)} | ${fixed(path.preempted / CALLS, 2)} | ${path.sample.failed} |`,
      );
    }
    out(`  gateway CPU while idle: ${fixed(idleCpu, 0)} ms in 1 s`);
    if (profiling.length === 0) return;
    // The gateway writes its profile when it exits, after its client closed stdin.
    let files: string[] = [];
    for (let waited = 0; waited < 10_000 && files.length === 0; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
    }
    const [file] = files;
    if (file === undefined) throw new Error('the gateway wrote no profile');
    if (values.keep !== undefined) copyFileSync(join(profileDir, file), values.keep);
    const self = selfTime(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile);
    const busy = self.totalUs - self.idleUs;
    out(
      `\nGateway process: ${fixed(busy / 1000, 0)} ms busy of ${fixed(self.totalUs / 1000, 0)} ms profiled (whole life, start-up and warm-up included)\n`,
    );
    out(topTable('package / folder', self.byPackage, busy, 15));
    out('');
    out(topTable('file', self.byFile, busy, 25));
    out('');
    out(topTable('function', self.byFunction, busy, 40));
    out('');
    out(topTable('function, inclusive', self.inclusiveByFunction, busy, 70));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const newSample = (): Sample => ({ latencies: [], wallMs: 0, failed: 0 });

main().catch((error: unknown) => {
  process.stderr.write(
    `profile-gateway crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
