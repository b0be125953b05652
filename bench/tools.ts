/**
 * Benchmark tools: file tools that "work" by sleeping on a real timer, and no-op tools
 * for measuring the pipeline's per-call overhead.
 */

import { DESTRUCTIVE, defineTool, READ_ONLY, type Tool, WRITE } from 'hintgate';
import { z } from 'zod';

/** Arguments of every sleeping tool: an optional file path and the latency to simulate. */
export type SleepArgs = {
  readonly path?: string | undefined;
  readonly ms: number;
};

/** Resolves after `ms` milliseconds of a real `setTimeout`. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

const sleepArgs = z.object({ path: z.string().optional(), ms: z.number().int().min(0) });
const fileArgs = z.object({ path: z.string(), ms: z.number().int().min(0) });

/** Reads `file:{path}` (READ_ONLY). */
export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Reads a file (simulated: sleeps for `ms`).',
  annotations: READ_ONLY,
  inputSchema: fileArgs,
  resources: ['file:{path}'],
  execute: async ({ path, ms }) => {
    await sleep(ms);
    return `read ${path}`;
  },
});

/** Writes `file:{path}` (WRITE: additive, idempotent). */
export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Writes a file (simulated: sleeps for `ms`).',
  annotations: WRITE,
  inputSchema: fileArgs,
  resources: ['file:{path}'],
  execute: async ({ path, ms }) => {
    await sleep(ms);
    return `wrote ${path}`;
  },
});

/** Deletes `file:{path}` (DESTRUCTIVE). */
export const deleteFileTool = defineTool({
  name: 'delete_file',
  description: 'Deletes a file (simulated: sleeps for `ms`).',
  annotations: DESTRUCTIVE,
  inputSchema: fileArgs,
  resources: ['file:{path}'],
  execute: async ({ path, ms }) => {
    await sleep(ms);
    return `deleted ${path}`;
  },
});

/** Searches the workspace (READ_ONLY, no resource keys: it reads the whole origin). */
export const searchTool = defineTool({
  name: 'search',
  description: 'Searches the workspace (simulated: sleeps for `ms`).',
  annotations: READ_ONLY,
  inputSchema: sleepArgs,
  execute: async ({ ms }) => {
    await sleep(ms);
    return 'no matches';
  },
});

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
