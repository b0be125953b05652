/** Section `strategies`: hintgate against other harnesses' strategies on sleeping tools. */
import type { CallResult, Runtime, Tool, ToolAnnotations, ToolCall } from 'hintgate';
import { createRuntime, DESTRUCTIVE, defineTool, READ_ONLY, WRITE } from 'hintgate';
import { z } from 'zod';
import { msOf, seeded, sized } from './measure.js';
import { type Cell, type Goal, goal, type Result, table } from './report.js';

type Kind = 'READ' | 'WRITE' | 'DELETE' | 'SEARCH';
type Args = { path?: string; ms: number };
type Spec = Args & { readonly kind: Kind };
type Batch = { readonly shape: string; readonly calls: readonly Spec[] };

const sleeper = (name: string, annotations: ToolAnnotations, keyed: boolean): Tool<Args> =>
  defineTool({
    name,
    description: `${name} (simulated: sleeps for \`ms\`).`,
    annotations,
    inputSchema: z.object({ path: keyed ? z.string() : z.string().optional(), ms: z.number() }),
    ...(keyed ? { resources: ['file:{path}'] } : {}),
    execute: async ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(name), ms)),
  }) as Tool<Args>;
const TOOLS: Record<Kind, Tool<Args>> = {
  READ: sleeper('read_file', READ_ONLY, true),
  WRITE: sleeper('write_file', WRITE, true),
  DELETE: sleeper('delete_file', DESTRUCTIVE, true),
  SEARCH: sleeper('search', READ_ONLY, false),
};

/** A batch from its shape: `READ(a)` reads `src/a.ts`, `SEARCH` has no key, `@120` fixes ms. */
function batch(shape: string, draw: () => number): Batch {
  const calls = shape.split(' ').map((word): Spec => {
    const [, kind = '', name, ms] = /^([A-Z]+)(?:\((\w+)\))?(?:@(\d+))?$/.exec(word) ?? [];
    const latency = ms === undefined ? draw() : Number(ms);
    return { kind: kind as Kind, ms: latency, ...(name ? { path: `src/${name}.ts` } : {}) };
  });
  return { shape: `[${shape.replace(/@\d+/g, '').replaceAll(' ', ', ')}]`, calls };
}
const drawer = (seed: number, min: number, max: number) => {
  const random = seeded(seed);
  return () => min + Math.floor(random() * (max - min + 1));
};
const MIXED = [
  '8 reads (2 key-less): READ(a) READ(b) SEARCH READ(c) READ(d) READ(e) SEARCH READ(f)',
  'reads, 2 writes, read-after-write: READ(c) READ(d) WRITE(a) WRITE(b) READ(a)',
  '4 distinct writes then their reads: WRITE(a) WRITE(b) WRITE(c) WRITE(d) READ(a) READ(b) READ(c) READ(d)',
  'mixed 12 calls, 3 files, same-file writes: READ(a) READ(b) WRITE(a) READ(c) WRITE(b) WRITE(a) READ(b) READ(c) WRITE(c) READ(a) WRITE(b) READ(c)',
  'one slow write among reads of other files: READ(b) READ(c) READ(d) READ(e) READ(f) WRITE(a)@120 READ(g) READ(h) READ(i) READ(j) READ(k)',
  'one destructive call among reads of other files: READ(b) READ(c) READ(d) DELETE(a) READ(e) READ(f) READ(g)',
  'key-less search between writes: WRITE(a) SEARCH WRITE(b) READ(a)',
  'same-file chain (fully serial): WRITE(a) WRITE(a) READ(a) WRITE(a)',
].map((line) => line.split(': ') as [string, string]);

const writes = (call: Spec): boolean => call.kind === 'WRITE' || call.kind === 'DELETE';
// Per call, the earlier calls it conflicts with by DESIGN's lock table (one origin; keyed: IS/IX
// up, S/X on its file; key-less: S on the root): one writes and they share a file or one has no key.
const conflictSets = (of: Batch): number[][] =>
  of.calls.map((b, j) =>
    of.calls.slice(0, j).flatMap((a, i) => {
      const shared = a.path === undefined || b.path === undefined || a.path === b.path;
      return (writes(a) || writes(b)) && shared ? [i] : [];
    }),
  );
const argsOf = ({ path, ms }: Spec): Args => (path === undefined ? { ms } : { path, ms });
const toCalls = (of: Batch): ToolCall[] =>
  of.calls.map((call, i) => ({
    id: `c${i}`,
    name: TOOLS[call.kind].name,
    arguments: argsOf(call),
  }));
const sum = (of: Batch) => of.calls.reduce((total, c) => total + c.ms, 0);

/** A call run straight by its tool; a failure becomes its value, as `allSettled` does. */
const invoke = async (call: Spec, i: number): Promise<unknown> => {
  const context = { signal: new AbortController().signal, callId: `c${i}`, attempt: 1 };
  return (async () => TOOLS[call.kind].execute(argsOf(call), context))().catch((e: unknown) => e);
};
/** (1) sequential. */
async function sequential(of: Batch): Promise<void> {
  for (const [i, call] of of.calls.entries()) await invoke(call, i);
}
/** (2) `Promise.allSettled` when every call is read-only, else sequential (ak-coder). */
const allReadOrSequential = async (of: Batch): Promise<unknown> =>
  of.calls.some(writes) ? sequential(of) : Promise.allSettled(of.calls.map(invoke));
/** (3) consecutive reads as one wave, every other call alone after it (Codex CLI, Gemini CLI). */
async function readWaves(of: Batch): Promise<void> {
  const wave: Promise<unknown>[] = [];
  for (const [i, call] of of.calls.entries()) {
    if (!writes(call)) wave.push(invoke(call, i));
    else await Promise.all(wave.splice(0)).then(() => invoke(call, i));
  }
  await Promise.all(wave);
}

/** True when every call the plan waits for conflicts with it, and its closure is the model's set. */
async function planAgrees(runtime: Runtime, of: Batch): Promise<boolean> {
  const plan = await runtime.plan(toCalls(of));
  const waits = plan.map((entry) => entry.waitsFor.map((id) => Number(id.slice(1))));
  const model = conflictSets(of);
  return plan.every((entry, j) => {
    const seen = new Set<number>();
    const stack = [...(waits[j] ?? [])];
    for (let i = stack.pop(); i !== undefined; i = stack.pop()) {
      if (!seen.has(i)) stack.push(...(waits[i] ?? []));
      seen.add(i);
    }
    const expected = model[j] ?? [];
    const kept = [...seen].filter((i) => expected.includes(i)).sort((a, b) => a - b);
    const onlyConflicting = (waits[j] ?? []).every((i) => expected.includes(i));
    return entry.runnable && onlyConflicting && `${kept}` === `${expected}`;
  });
}

/** Ms per run of each work (median of 5 rotating rounds after a warm-up), and the ids not ok. */
async function timed(works: (() => Promise<unknown>)[]): Promise<[number[], string]> {
  const failed = new Set<string>();
  const ms = await msOf(
    works.map((work) => async () => {
      const results = await work();
      for (const r of Array.isArray(results) ? (results as CallResult[]) : [])
        if (r.status !== undefined && r.status !== 'ok') failed.add(r.id);
    }),
    5,
  );
  return [ms, [...failed].join(', ') || 'none'];
}

/** Section `strategies`. */
export async function strategies(): Promise<Result> {
  const runtime = createRuntime({ tools: Object.values(TOOLS), mode: 'yolo' });
  const goals: Goal[] = [];
  const mixed: Cell[][] = [];
  const draw = drawer(0x5eed, 20, 120);
  for (const [n, [title, shape]] of MIXED.entries()) {
    const of = batch(shape, draw);
    const works = [sequential, allReadOrSequential, readWaves].map((s) => () => s(of));
    works.push(() => runtime.execute(toCalls(of)));
    const [[seq = 0, all = 0, waves = 0, hg = 0], failed] = await timed(works);
    // finish(j) = ms(j) + the latest finish of an earlier conflicting call: no order-keeping
    // scheduler does better.
    const finish: number[] = [];
    for (const [j, set] of conflictSets(of).entries())
      finish.push((of.calls[j]?.ms ?? 0) + Math.max(0, ...set.map((i) => finish[i] ?? 0)));
    const critical = Math.max(...finish);
    if (of.calls.some(writes))
      goals.push(goal(`batch ${n + 1}: hintgate / critical path`, hg / critical, 1.05));
    const agrees = (await planAgrees(runtime, of)) ? 'yes' : 'no';
    const ratios = [hg / critical, seq / hg, Math.min(all, waves) / hg];
    const label = `${title}: \`${of.shape}\``;
    mixed.push([n + 1, label, sum(of), critical, seq, all, waves, hg, ...ratios, agrees, failed]);
  }
  const reads: Cell[][] = [];
  for (const size of sized([1, 2, 4, 8, 16, 32, 64], [1, 8])) {
    const shape = Array.from({ length: size }, (_, i) => `READ(r${i})`).join(' ');
    const of = batch(shape, drawer(0xbee5 + size, 20, 100));
    const works = [() => allReadOrSequential(of), () => runtime.execute(toCalls(of))];
    const [[plain = 0, hg = 0], failed] = await timed(works);
    const slowest = Math.max(...of.calls.map((c) => c.ms));
    goals.push(goal(`${size} reads: hintgate / Promise.allSettled`, hg / plain, 1.05));
    reads.push([size, sum(of), slowest, plain, hg, hg / plain, hg / slowest, failed]);
  }
  await runtime.close();
  const head = [
    '#|batch (shape)|sum ms|critical path ms|(1) ms|(2) ms|(3) ms|hintgate ms|hintgate / critical',
    '(1) / hintgate|best of (2),(3) / hintgate|plan agrees|calls not ok',
  ].join('|');
  const readHead = 'calls|sum ms|slowest call ms|Promise.allSettled ms|hintgate ms';
  return {
    method:
      'tools sleep on a real timer for their latency (seeded: 20-120 ms in the first table, 20-100 in the second). (1) sequential; (2) `Promise.allSettled` if every call is read-only, else sequential; (3) consecutive reads as one wave; hintgate `execute`, mode `yolo`. Critical path from DESIGN\'s lock table (a model independent of src/). Median of 5 rotating rounds after a warm-up run. "plan agrees": `runtime.plan` waits only for conflicting calls and its closure is the model\'s conflict set.',
    tables: [
      table(head, mixed),
      table(`${readHead}|hintgate / allSettled|hintgate / slowest|calls not ok`, reads),
    ],
    goals,
  };
}
