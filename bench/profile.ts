/**
 * CPU profile of the pipeline's per-call overhead: `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/profile.ts`. Runs the
 * no-op batches of part 3 under the V8 sampling profiler and prints the functions with the
 * most self time, and the self time per source file.
 */
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { createRuntime, type ToolCall } from 'hintgate';
import { type CpuProfile, selfTime, topTable } from './cpu-profile.js';
import { fixed } from './report.js';
import { noopReadTool, noopWriteTool } from './tools.js';

const BATCH = 100;
const DURATION_MS = 2_000;

const calls = (make: (n: number) => ToolCall): ToolCall[] =>
  Array.from({ length: BATCH }, (_, n) => make(n));

async function main(): Promise<void> {
  const runtime = createRuntime({ tools: [noopReadTool, noopWriteTool], mode: 'yolo' });
  const scenarios: ReadonlyArray<readonly [string, ToolCall[]]> = [
    ['reads', calls((n) => ({ id: `r${n}`, name: 'noop_read', arguments: { n } }))],
    [
      'writes, distinct keys',
      calls((n) => ({ id: `w${n}`, name: 'noop_write', arguments: { n, key: `k${n}` } })),
    ],
    [
      'writes, one key',
      calls((n) => ({ id: `s${n}`, name: 'noop_write', arguments: { n, key: 'shared' } })),
    ],
  ];
  for (const [, batch] of scenarios) for (let i = 0; i < 300; i += 1) await runtime.execute(batch);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  let executed = 0;
  const start = performance.now();
  for (const [, batch] of scenarios) {
    const until = performance.now() + DURATION_MS;
    while (performance.now() < until) {
      await runtime.execute(batch);
      executed += batch.length;
    }
  }
  const elapsed = performance.now() - start;
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  await runtime.close();

  const self = selfTime(profile);

  process.stdout.write(
    `${executed} calls in ${fixed(elapsed, 0)} ms under the profiler: ${fixed((elapsed * 1000) / executed, 2)} µs per call (profiling adds overhead)\n\n`,
  );
  process.stdout.write(
    `Self time by function (line numbers are of the transpiled code):\n\n${topTable('function', self.byFunction, self.totalUs, 30)}\n\n`,
  );
  process.stdout.write(
    `Self time by file:\n\n${topTable('file', self.byFile, self.totalUs, 20)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `profile crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
