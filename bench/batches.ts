/**
 * The batches of parts 1 and 2, written as shapes (`[READ(a), WRITE(b), SEARCH]`), and an
 * independent model of their critical path under DESIGN's multi-granularity lock table.
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

/** One call of a batch. `path` is set for every kind but `SEARCH`. */
export interface CallSpec {
  readonly kind: Kind;
  readonly path?: string;
  /** Simulated latency of the tool in milliseconds. */
  readonly ms: number;
}

/** A named batch of calls, in the model's order. */
export interface Batch {
  readonly title: string;
  /** The calls as written, e.g. `[READ(c), WRITE(a)]`. */
  readonly shape: string;
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

/**
 * A batch from its shape: `READ(a)` reads `src/a.ts`, `SEARCH` has no key, `WRITE(a)@120`
 * fixes the latency; the others draw theirs from `draw` in call order.
 */
function batch(title: string, shape: string, draw: () => number): Batch {
  const calls = shape.split(' ').map((word): CallSpec => {
    const [, kind = '', name, ms] = /^([A-Z]+)(?:\((\w+)\))?(?:@(\d+))?$/.exec(word) ?? [];
    if (!(kind in TOOL_OF)) throw new Error(`bench/batches.ts: bad call ${word}`);
    const latency = ms === undefined ? draw() : Number(ms);
    return name === undefined
      ? { kind: kind as Kind, ms: latency }
      : { kind: kind as Kind, path: `src/${name}.ts`, ms: latency };
  });
  return { title, shape: `[${shape.replace(/@\d+/g, '').split(' ').join(', ')}]`, calls };
}

const drawer = (seed: number, min: number, max: number): (() => number) => {
  const random = seededRandom(seed);
  return () => min + Math.floor(random() * (max - min + 1));
};

/** The batches of part 1 (latencies 20-120 ms, seeded). */
export function mixedBatches(): Batch[] {
  const ms = drawer(0x5eed, 20, 120);
  return [
    ['8 reads (2 key-less)', 'READ(a) READ(b) SEARCH READ(c) READ(d) READ(e) SEARCH READ(f)'],
    ['reads, 2 writes, read-after-write', 'READ(c) READ(d) WRITE(a) WRITE(b) READ(a)'],
    [
      '4 distinct writes then their reads',
      'WRITE(a) WRITE(b) WRITE(c) WRITE(d) READ(a) READ(b) READ(c) READ(d)',
    ],
    [
      'mixed 12 calls, 3 files, same-file writes',
      'READ(a) READ(b) WRITE(a) READ(c) WRITE(b) WRITE(a) READ(b) READ(c) WRITE(c) READ(a) WRITE(b) READ(c)',
    ],
    [
      'one slow write among reads of other files',
      'READ(b) READ(c) READ(d) READ(e) READ(f) WRITE(a)@120 READ(g) READ(h) READ(i) READ(j) READ(k)',
    ],
    [
      'one destructive call among reads of other files',
      'READ(b) READ(c) READ(d) DELETE(a) READ(e) READ(f) READ(g)',
    ],
    ['key-less search between writes', 'WRITE(a) SEARCH WRITE(b) READ(a)'],
    ['same-file chain (fully serial)', 'WRITE(a) WRITE(a) READ(a) WRITE(a)'],
  ].map(([title = '', shape = '']) => batch(title, shape, ms));
}

/** `count` reads of distinct files with latencies in 20-100 ms (part 2). */
export function readOnlyBatch(count: number): Batch {
  const shape = Array.from({ length: count }, (_, index) => `READ(r${index})`).join(' ');
  return batch(`${count} reads`, shape, drawer(0xbee5 + count, 20, 100));
}

const argsOf = (call: CallSpec): SleepArgs =>
  call.path === undefined ? { ms: call.ms } : { path: call.path, ms: call.ms };

/** The batch as the runtime takes it: ids `c0`, `c1`, ... */
export const toToolCalls = (of: Batch): ToolCall[] =>
  of.calls.map((call, index) => ({
    id: `c${index}`,
    name: TOOL_OF[call.kind].name,
    arguments: argsOf(call),
  }));

/** The batch as the baselines take it: tool and arguments. */
export const toDirectCalls = (of: Batch): DirectCall[] =>
  of.calls.map((call) => ({ tool: TOOL_OF[call.kind], args: argsOf(call) }));

type Mode = 'IS' | 'IX' | 'S' | 'X';

/** DESIGN: IS-IS, IS-IX, IS-S, IX-IX, S-S are compatible; everything with X conflicts. */
const COMPATIBLE: Readonly<Record<Mode, readonly Mode[]>> = {
  IS: ['IS', 'IX', 'S'],
  IX: ['IS', 'IX'],
  S: ['IS', 'S'],
  X: [],
};

/**
 * The locks of a call, per DESIGN: a key-less read takes S on the origin root, a key-less
 * write X; a keyed call takes IS (read) or IX (write) on the root and every ancestor of its
 * key, and S or X on the key. All bench tools share one closed-world origin.
 */
function locksOf(call: CallSpec): Map<string, Mode> {
  const write = call.kind === 'WRITE' || call.kind === 'DELETE';
  if (call.path === undefined) return new Map([['<root>', write ? 'X' : 'S']]);
  const intent: Mode = write ? 'IX' : 'IS';
  const locks = new Map<string, Mode>([
    ['<root>', intent],
    ['file:', intent],
  ]);
  const segments = call.path.split('/');
  for (let depth = 1; depth < segments.length; depth += 1) {
    locks.set(`file:${segments.slice(0, depth).join('/')}`, intent);
  }
  locks.set(`file:${call.path}`, write ? 'X' : 'S');
  return locks;
}

const conflicts = (a: CallSpec, b: CallSpec): boolean => {
  const left = locksOf(a);
  return [...locksOf(b)].some(([node, mode]) => {
    const other = left.get(node);
    return other !== undefined && !COMPATIBLE[mode].includes(other);
  });
};

/** For each call, the indices of the earlier calls it conflicts with. */
export const conflictSets = (of: Batch): number[][] =>
  of.calls.map((call, j) =>
    of.calls.slice(0, j).flatMap((earlier, i) => (conflicts(earlier, call) ? [i] : [])),
  );

/**
 * The critical path in ms: finish(j) = ms(j) + max(finish(i) of earlier conflicting i).
 * No scheduler that keeps conflicting calls in call order can do better.
 */
export function criticalPath(of: Batch): number {
  const waits = conflictSets(of);
  const finish: number[] = [];
  of.calls.forEach((call, j) => {
    finish.push(call.ms + Math.max(0, ...(waits[j] ?? []).map((i) => finish[i] ?? 0)));
  });
  return Math.max(0, ...finish);
}

/** Sum of latencies: sequential execution with perfect timers. */
export const sumOf = (of: Batch): number => of.calls.reduce((total, call) => total + call.ms, 0);

/** Largest latency of the batch. */
export const maxOf = (of: Batch): number => Math.max(0, ...of.calls.map((call) => call.ms));
