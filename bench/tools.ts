/**
 * Benchmark tools: file tools that "work" by sleeping on a real timer, and no-op tools
 * for measuring the pipeline's per-call overhead.
 */
import {
  DESTRUCTIVE,
  defineTool,
  READ_ONLY,
  type Tool,
  type ToolAnnotations,
  type ToolCall,
  WRITE,
} from 'hintgate';
import { z } from 'zod';

/** Arguments of every sleeping tool: an optional file path and the latency to simulate. */
export type SleepArgs = {
  readonly path?: string | undefined;
  readonly ms: number;
};

const sleeping = (name: string, annotations: ToolAnnotations, keyed: boolean): Tool<SleepArgs> =>
  defineTool({
    name,
    description: `${name} (simulated: sleeps for \`ms\`).`,
    annotations,
    inputSchema: z.object({
      path: keyed ? z.string() : z.string().optional(),
      ms: z.number().int().min(0),
    }),
    ...(keyed ? { resources: ['file:{path}'] } : {}),
    execute: async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return name;
    },
  }) as Tool<SleepArgs>;

/** Reads `file:{path}` (READ_ONLY). */
export const readFileTool = sleeping('read_file', READ_ONLY, true);
/** Writes `file:{path}` (WRITE: additive, idempotent). */
export const writeFileTool = sleeping('write_file', WRITE, true);
/** Deletes `file:{path}` (DESTRUCTIVE). */
export const deleteFileTool = sleeping('delete_file', DESTRUCTIVE, true);
/** Searches the workspace (READ_ONLY, no resource keys: it reads the whole origin). */
export const searchTool = sleeping('search', READ_ONLY, false);

/** The four sleeping tools, all taking {@link SleepArgs}. */
export const sleepingTools: readonly Tool<SleepArgs>[] = [
  readFileTool,
  writeFileTool,
  deleteFileTool,
  searchTool,
];

/** Read-only no-op: returns a short string synchronously. */
export const noopReadTool = defineTool({
  name: 'noop_read',
  description: 'Returns a short string at once.',
  annotations: READ_ONLY,
  inputSchema: z.object({ n: z.number() }),
  execute: ({ n }) => `ok ${n}`,
});

/** Write no-op on `item:{key}`: returns a short string synchronously. */
export const noopWriteTool = defineTool({
  name: 'noop_write',
  description: 'Pretends to write an item and returns a short string at once.',
  annotations: WRITE,
  inputSchema: z.object({ n: z.number(), key: z.string() }),
  resources: ['item:{key}'],
  execute: ({ n }) => `ok ${n}`,
});

/** Read-only no-op on `item:{key}`: returns a short string synchronously. */
export const noopItemReadTool = defineTool({
  name: 'noop_item_read',
  description: 'Pretends to read an item and returns a short string at once.',
  annotations: READ_ONLY,
  inputSchema: z.object({ n: z.number(), key: z.string() }),
  resources: ['item:{key}'],
  execute: ({ n }) => `ok ${n}`,
});

const batchOf = (size: number, make: (n: number) => ToolCall): ToolCall[] =>
  Array.from({ length: size }, (_, n) => make(n));

/** Part 3's no-op batches over {@link noopReadTool} and {@link noopWriteTool}: label and calls. */
export const noopBatches: ReadonlyArray<readonly [string, readonly ToolCall[]]> = [
  ['100 no-op reads', batchOf(100, (n) => ({ id: `r${n}`, name: 'noop_read', arguments: { n } }))],
  [
    '100 no-op writes, distinct keys (parallel)',
    batchOf(100, (n) => ({ id: `w${n}`, name: 'noop_write', arguments: { n, key: `k${n}` } })),
  ],
  [
    '100 no-op writes, one key (serialized)',
    batchOf(100, (n) => ({ id: `s${n}`, name: 'noop_write', arguments: { n, key: 'shared' } })),
  ],
  [
    '1000 no-op writes, one key (serialized)',
    batchOf(1000, (n) => ({ id: `s${n}`, name: 'noop_write', arguments: { n, key: 'shared' } })),
  ],
];
