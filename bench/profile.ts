/**
 * CPU profile of the pipeline's per-call overhead: `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/profile.ts`. Runs the
 * no-op batches of part 3 under the V8 sampling profiler and prints the functions with the
 * most self time, and the self time per source file.
 */
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { createRuntime, type ToolCall } from 'hintgate';
import { fixed, table } from './report.js';
import { noopReadTool, noopWriteTool } from './tools.js';

/** The parts of a V8 `Profiler.Profile` this script reads. */
interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
  }>;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

const BATCH = 100;
const DURATION_MS = 2_000;

const calls = (make: (n: number) => ToolCall): ToolCall[] =>
  Array.from({ length: BATCH }, (_, n) => make(n));

const where = (url: string): string => {
  const match = /\/(src|dist|bench|node_modules\/[^/]+)\/(.*)$/.exec(url);
  if (match !== null) return `${match[1]}/${match[2]}`;
  return url === '' ? '(native / V8)' : url.replace(/^node:/, 'node:');
};

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

  const selfByNode = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, index) => {
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (deltas[index] ?? 0));
  });
  const total = [...selfByNode.values()].reduce((sum, us) => sum + us, 0);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const self = selfByNode.get(node.id) ?? 0;
    if (self === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = where(url);
    const name = `${functionName || '(anonymous)'} ${file}${url === '' ? '' : `:${lineNumber + 1}`}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + self);
    byFile.set(file, (byFile.get(file) ?? 0) + self);
  }
  const top = (map: Map<string, number>, count: number): string[][] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => [name, fixed((100 * us) / total), fixed(us / 1000, 0)]);

  process.stdout.write(
    `${executed} calls in ${fixed(elapsed, 0)} ms under the profiler: ${fixed((elapsed * 1000) / executed, 2)} µs per call (profiling adds overhead)\n\n`,
  );
  process.stdout.write(
    `Self time by function (line numbers are of the transpiled code):\n\n${table(['function', '% self', 'ms'], top(byFunction, 30))}\n\n`,
  );
  process.stdout.write(
    `Self time by file:\n\n${table(['file', '% self', 'ms'], top(byFile, 20))}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `profile crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
