/**
 * Where the stdio gateway spends a call: `npm run build && npx tsx --tsconfig
 * bench/tsconfig.json bench/profile-gateway.ts [--calls N] [--concurrency C] [--no-profile]`.
 *
 * Starts the upstream of part 4 directly and behind `hintgate gateway` (mode auto, pinned),
 * makes the same calls on both in interleaved rounds, and prints p50 latency of each and
 * the CPU time the gateway process spent per call (from /proc, Linux only). Unless
 * `--no-profile`, the gateway runs under `node --cpu-prof` and its self time is printed by
 * function, file and package (the profiler slows it down, so the latencies of a profiled
 * run are not the benchmark's).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** User + system CPU time of a process so far, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | null): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second here).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

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
    const paths = [
      { label: 'direct', ...direct, sample: newSample(), cpu: 0 },
      { label: 'gateway', ...gateway, sample: newSample(), cpu: 0 },
      ...(baseline === undefined
        ? []
        : [{ label: 'baseline gateway', ...baseline, sample: newSample(), cpu: 0 }]),
    ];
    const idleBefore = cpuMs(gateway.transport.pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleCpu = cpuMs(gateway.transport.pid) - idleBefore;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const path of round % 2 === 0 ? paths : [...paths].reverse()) {
        const before = cpuMs(path.transport.pid);
        await drive(path.client, CONCURRENCY, CALLS / ROUNDS, path.sample);
        path.cpu += cpuMs(path.transport.pid) - before;
      }
    }
    for (const path of paths) await path.client.close();
    const p50 = (sample: Sample): number =>
      percentile(
        [...sample.latencies].sort((a, b) => a - b),
        50,
      );
    const out = (line: string): boolean => process.stdout.write(`${line}\n`);
    out(
      `${CALLS} calls each at ${CONCURRENCY} concurrent${profiling.length > 0 ? ', gateway under --cpu-prof' : ''}:`,
    );
    for (const path of paths) {
      out(
        `  ${path.label}: p50 ${fixed(p50(path.sample), 3)} ms, p95 ${fixed(
          percentile(
            [...path.sample.latencies].sort((a, b) => a - b),
            95,
          ),
          3,
        )} ms, ${fixed((CALLS * 1000) / path.sample.wallMs, 0)} calls/s, its process's CPU ${fixed((path.cpu * 1000) / CALLS, 0)} µs per call, ${path.sample.failed} failed`,
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
