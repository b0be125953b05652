/**
 * The batches of the benchmark, their shape names, and an independent model of their
 * critical path under DESIGN's multi-granularity lock table.
 */
import type { Tool, ToolCall } from 'hintgate';
import {
  deleteFileTool,
  readFileTool,
  type SleepArgs,
  searchTool,
  writeFileTool,
} from './tools.js';

/** What a call does: read/write/delete one file, or a key-less search. */
export type Kind = 'READ' | 'WRITE' | 'DELETE' | 'SEARCH';

/** One call of a batch. `path` is required for every kind but `SEARCH`. */
export interface CallSpec {
  readonly kind: Kind;
  readonly path?: string;
  /** Simulated latency of the tool in milliseconds. */
  readonly ms: number;
}

/** A named batch of calls, in the model's order. */
export interface Batch {
  /** Short description, e.g. "writes then reads". */
  readonly title: string;
  readonly calls: readonly CallSpec[];
}

/** A call bound to its tool, for the baselines that call `execute` directly. */
export interface DirectCall {
  readonly tool: Tool<SleepArgs>;
  readonly args: SleepArgs;
}

const TOOL_OF: Readonly<Record<Kind, Tool<SleepArgs>>> = {
  READ: readFileTool,
  WRITE: writeFileTool,
  DELETE: deleteFileTool,
  SEARCH: searchTool,
};

/** Mulberry32: a small seeded PRNG, so latencies are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A latency drawer: integers in [min, max] from a seeded PRNG. */
export function latencies(seed: number, min: number, max: number): () => number {
  const random = seededRandom(seed);
  return () => min + Math.floor(random() * (max - min + 1));
}

const file = (name: string): string => `src/${name}.ts`;

/** Builds the batches of part 1 (latencies 20-120 ms, seeded). */
export function mixedBatches(): Batch[] {
  const ms = latencies(0x5eed, 20, 120);
  const read = (name: string): CallSpec => ({ kind: 'READ', path: file(name), ms: ms() });
  const write = (name: string): CallSpec => ({ kind: 'WRITE', path: file(name), ms: ms() });
  const del = (name: string): CallSpec => ({ kind: 'DELETE', path: file(name), ms: ms() });
  const search = (): CallSpec => ({ kind: 'SEARCH', ms: ms() });
  return [
    {
      title: '8 reads (2 key-less)',
      calls: [read('a'), read('b'), search(), read('c'), read('d'), read('e'), search(), read('f')],
    },
    {
      title: 'reads, 2 writes, read-after-write',
      calls: [read('c'), read('d'), write('a'), write('b'), read('a')],
    },
    {
      title: '4 distinct writes then their reads',
      calls: [
        write('a'),
        write('b'),
        write('c'),
        write('d'),
        read('a'),
        read('b'),
        read('c'),
        read('d'),
      ],
    },
    {
      title: 'mixed 12 calls, 3 files, same-file writes',
      calls: [
        read('a'),
        read('b'),
        write('a'),
        read('c'),
        write('b'),
        write('a'),
        read('b'),
        read('c'),
        write('c'),
        read('a'),
        write('b'),
        read('c'),
      ],
    },
    {
      title: 'one slow write among reads of other files',
      calls: [
        read('b'),
        read('c'),
        read('d'),
        read('e'),
        read('f'),
        { kind: 'WRITE', path: file('a'), ms: 120 },
        read('g'),
        read('h'),
        read('i'),
        read('j'),
        read('k'),
      ],
    },
    {
      title: 'one destructive call among reads of other files',
      calls: [read('b'), read('c'), read('d'), del('a'), read('e'), read('f'), read('g')],
    },
    {
      title: 'key-less search between writes',
      calls: [write('a'), search(), write('b'), read('a')],
    },
    {
      title: 'same-file chain (fully serial)',
      calls: [write('a'), write('a'), read('a'), write('a')],
    },
  ];
}

/** Builds `count` reads of distinct files with latencies in [min, max] ms (part 2). */
export function readOnlyBatch(count: number, min = 20, max = 100): Batch {
  const ms = latencies(0xbee5 + count, min, max);
  const calls: CallSpec[] = [];
  for (let index = 0; index < count; index += 1) {
    calls.push({ kind: 'READ', path: file(`r${index}`), ms: ms() });
  }
  return { title: `${count} reads`, calls };
}

const short = (path: string | undefined): string =>
  (path ?? '').replace(/^src\//, '').replace(/\.ts$/, '');

/** The batch's shape, e.g. `[READ(c), READ(d), WRITE(a), WRITE(b), READ(a)]`. */
export function shapeOf(batch: Batch): string {
  const parts = batch.calls.map((call) =>
    call.kind === 'SEARCH' ? 'SEARCH' : `${call.kind}(${short(call.path)})`,
  );
  return `[${parts.join(', ')}]`;
}

/** The batch's latencies, e.g. `[31, 87, ...]` ms. */
export function latenciesOf(batch: Batch): string {
  return `[${batch.calls.map((call) => call.ms).join(', ')}]`;
}

/** The arguments a call passes to its tool. */
const argsOf = (call: CallSpec): SleepArgs =>
  call.path === undefined ? { ms: call.ms } : { path: call.path, ms: call.ms };

/** The batch as the runtime takes it: ids `c0`, `c1`, ... */
export function toToolCalls(batch: Batch): ToolCall[] {
  return batch.calls.map((call, index) => ({
    id: `c${index}`,
    name: TOOL_OF[call.kind].name,
    arguments: argsOf(call),
  }));
}

/** The batch as the baselines take it: tool and arguments. */
export function toDirectCalls(batch: Batch): DirectCall[] {
  return batch.calls.map((call) => ({ tool: TOOL_OF[call.kind], args: argsOf(call) }));
}

// ---------------------------------------------------------------------------------------
// Critical path, from DESIGN's lock table (independent of src/schedule).

type Mode = 'IS' | 'IX' | 'S' | 'X';

/** DESIGN: IS-IS, IS-IX, IS-S, IX-IX, S-S are compatible; everything with X conflicts. */
const COMPATIBLE: Readonly<Record<Mode, readonly Mode[]>> = {
  IS: ['IS', 'IX', 'S'],
  IX: ['IS', 'IX'],
  S: ['IS', 'S'],
  X: [],
};

/**
 * The locks of a call, per DESIGN: a read without keys takes S on the origin root, a
 * write without keys X; a keyed read takes IS on the root and on every ancestor of its key
 * (`file:`, `file:src`) and S on the key; a keyed write IX and X. All bench tools share one
 * origin and are closed-world, so there is no `world` lock.
 */
function locksOf(call: CallSpec): Map<string, Mode> {
  const write = call.kind === 'WRITE' || call.kind === 'DELETE';
  const locks = new Map<string, Mode>();
  if (call.kind === 'SEARCH' || call.path === undefined) {
    locks.set('<root>', write ? 'X' : 'S');
    return locks;
  }
  const intent: Mode = write ? 'IX' : 'IS';
  locks.set('<root>', intent);
  locks.set('file:', intent);
  const segments = call.path.split('/');
  for (let depth = 1; depth < segments.length; depth += 1) {
    locks.set(`file:${segments.slice(0, depth).join('/')}`, intent);
  }
  locks.set(`file:${call.path}`, write ? 'X' : 'S');
  return locks;
}

/** True when two calls hold incompatible locks on some node. */
export function conflicts(a: CallSpec, b: CallSpec): boolean {
  const left = locksOf(a);
  for (const [node, mode] of locksOf(b)) {
    const other = left.get(node);
    if (other !== undefined && !COMPATIBLE[mode].includes(other)) return true;
  }
  return false;
}

/** For each call, the indices of the earlier calls it conflicts with. */
export function conflictSets(batch: Batch): number[][] {
  return batch.calls.map((call, j) =>
    batch.calls.slice(0, j).flatMap((earlier, i) => (conflicts(earlier, call) ? [i] : [])),
  );
}

/**
 * The critical path in ms: finish(j) = ms(j) + max(finish(i) for earlier conflicting i),
 * critical path = max finish. This is the least wall clock any scheduler can reach that
 * keeps conflicting calls in call order.
 */
export function criticalPath(batch: Batch): number {
  const waits = conflictSets(batch);
  const finish: number[] = [];
  batch.calls.forEach((call, j) => {
    const start = Math.max(0, ...(waits[j] ?? []).map((i) => finish[i] ?? 0));
    finish.push(start + call.ms);
  });
  return Math.max(0, ...finish);
}

/** Sum of latencies: what sequential execution costs with perfect timers. */
export function sumOf(batch: Batch): number {
  return batch.calls.reduce((total, call) => total + call.ms, 0);
}

/** Largest latency of the batch. */
export function maxOf(batch: Batch): number {
  return Math.max(0, ...batch.calls.map((call) => call.ms));
}

/** Nominal cost of strategy (2): max if every call is read-only, else the sum. */
export function nominalAllReadOnly(batch: Batch): number {
  return batch.calls.every((call) => TOOL_OF[call.kind].annotations.readOnlyHint === true)
    ? maxOf(batch)
    : sumOf(batch);
}

/** Nominal cost of strategy (3): each run of reads costs its max, each write its own ms. */
export function nominalReadWaves(batch: Batch): number {
  let total = 0;
  let wave = 0;
  for (const call of batch.calls) {
    if (TOOL_OF[call.kind].annotations.readOnlyHint === true) {
      wave = Math.max(wave, call.ms);
    } else {
      total += wave + call.ms;
      wave = 0;
    }
  }
  return total + wave;
}
