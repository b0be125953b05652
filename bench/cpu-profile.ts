/**
 * Reading V8 CPU profiles (`Profiler.Profile`, `.cpuprofile` files): self time by function,
 * file and package. Run alone (`npx tsx --tsconfig bench/tsconfig.json bench/cpu-profile.ts`,
 * after `npm run build`), profiles part 3's no-op batches (100 reads, 100 writes of distinct
 * keys, 100 of one key; mode `yolo`) for 2 s each and prints where the self time goes.
 */
import { Session } from 'node:inspector/promises';
import { createRuntime } from 'hintgate';
import { fixed, isMain, table } from './report.js';
import { noopBatches, noopReadTool, noopWriteTool } from './tools.js';

/** The parts of a V8 `Profiler.Profile` read here. */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
    readonly children?: readonly number[];
  }>;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

/** Where a script URL belongs: `src/...`, `dist/...`, `node_modules/<package>/...`, or itself. */
const where = (url: string): string => {
  const match = /\/(src|dist|bench|node_modules\/(?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (match !== null) return `${match[1]}/${match[2]}`;
  return url === '' ? '(native / V8)' : url;
};

/** Self time of a profile, in microseconds: total, by function and by file. */
export interface SelfTime {
  readonly totalUs: number;
  /** Idle samples (`(idle)`), part of `totalUs`: the process waited for I/O. */
  readonly idleUs: number;
  readonly byFunction: ReadonlyMap<string, number>;
  readonly byFile: ReadonlyMap<string, number>;
  readonly byPackage: ReadonlyMap<string, number>;
  /**
   * Total time (self and callees) by function; a function that appears more than once on
   * one stack is counted once there.
   */
  readonly inclusiveByFunction: ReadonlyMap<string, number>;
}

/** Adds up the samples of `profile` per node, then per function, file and package. */
export function selfTime(profile: CpuProfile): SelfTime {
  const selfByNode = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, index) => {
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (deltas[index] ?? 0));
  });
  let totalUs = 0;
  let idleUs = 0;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number): void => {
    map.set(key, (map.get(key) ?? 0) + us);
  };
  for (const node of profile.nodes) {
    const self = selfByNode.get(node.id) ?? 0;
    if (self === 0) continue;
    totalUs += self;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idleUs += self;
    const file = where(url);
    add(
      byFunction,
      `${functionName || '(anonymous)'} ${file}${url === '' ? '' : `:${lineNumber + 1}`}`,
      self,
    );
    add(byFile, file, self);
    add(
      byPackage,
      file.startsWith('node_modules/')
        ? file
            .split('/')
            .slice(0, file.split('/')[1]?.startsWith('@') ? 3 : 2)
            .join('/')
        : file.startsWith('node:')
          ? 'node: (built-in JS)'
          : (file.split('/')[0] ?? file),
      self,
    );
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const nameOf = (node: CpuProfile['nodes'][number]): string => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'} ${where(url)}${url === '' ? '' : `:${lineNumber + 1}`}`;
  };
  const inclusiveByFunction = new Map<string, number>();
  const visit = (id: number, onStack: ReadonlySet<string>): number => {
    const node = byId.get(id);
    if (node === undefined) return 0;
    const name = nameOf(node);
    const stack = onStack.has(name) ? onStack : new Set([...onStack, name]);
    let total = selfByNode.get(id) ?? 0;
    for (const child of node.children ?? []) total += visit(child, stack);
    if (!onStack.has(name)) add(inclusiveByFunction, name, total);
    return total;
  };
  const [root] = profile.nodes;
  if (root !== undefined) visit(root.id, new Set());
  return { totalUs, idleUs, byFunction, byFile, byPackage, inclusiveByFunction };
}

/** The `count` largest entries of `map` as a Markdown table of % of `totalUs` and ms. */
export function topTable(
  heading: string,
  map: ReadonlyMap<string, number>,
  totalUs: number,
  count: number,
): string {
  const rows = [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => [name, fixed((100 * us) / totalUs), fixed(us / 1000, 0)]);
  return table([heading, '% self', 'ms'], rows);
}

/** Profiles the pipeline on part 3's no-op batches and prints the self time tables. */
async function profilePipeline(): Promise<void> {
  const runtime = createRuntime({ tools: [noopReadTool, noopWriteTool], mode: 'yolo' });
  const batches = noopBatches.slice(0, 3).map(([, calls]) => calls);
  for (const calls of batches) for (let i = 0; i < 300; i += 1) await runtime.execute(calls);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  let executed = 0;
  for (const calls of batches) {
    for (const until = Date.now() + 2000; Date.now() < until; executed += calls.length) {
      await runtime.execute(calls);
    }
  }
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  await runtime.close();
  const self = selfTime(profile);
  process.stdout.write(
    `${executed} calls under the profiler (line numbers are of dist/):\n\n${topTable('function', self.byFunction, self.totalUs, 30)}\n\n${topTable('file', self.byFile, self.totalUs, 20)}\n`,
  );
}

if (isMain(import.meta.url)) {
  await profilePipeline();
}
