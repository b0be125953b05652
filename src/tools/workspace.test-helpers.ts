import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Tool } from '../tool/tool.js';
import type { CallResult } from '../tool/tool-result.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
import type { WorkspaceToolsOptions } from './workspace-tools-options.js';

/** A temporary workspace with a sibling directory outside it. */
export interface TempWorkspace {
  /** The workspace directory (real path). */
  readonly workspace: string;
  /** A directory next to the workspace, outside it. */
  readonly outside: string;
  /** Writes files relative to the workspace: `{ 'src/a.ts': 'text' }`. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
  /** Removes both directories. */
  remove(): Promise<void>;
}

/** Makes a temporary workspace; call `remove()` in `afterEach`. */
export async function makeWorkspace(): Promise<TempWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'hintgate-tools-')));
  const workspace = join(root, 'ws');
  const outside = join(root, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  return {
    workspace,
    outside,
    async write(files) {
      for (const [path, content] of Object.entries(files)) {
        const target = join(workspace, path);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
      }
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** A runtime in mode `yolo` over the workspace tools. */
export function toolRuntime(options: WorkspaceToolsOptions): Runtime {
  return createRuntime({ tools: createWorkspaceTools(options), mode: 'yolo' });
}

/** Runs one call through the runtime. */
export async function callTool(
  runtime: Runtime,
  name: string,
  args: Record<string, unknown>,
): Promise<CallResult> {
  const [result] = await runtime.execute([{ id: 'c1', name, arguments: args }]);
  if (result === undefined) throw new Error('no result');
  return result;
}

/** The text of a result's text blocks, joined. */
export function textOf(result: CallResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Calls a tool's `execute` directly, outside the runtime. */
export async function executeTool(
  tool: Tool,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<unknown> {
  return tool.execute(args, {
    signal: signal ?? new AbortController().signal,
    callId: 't',
    attempt: 1,
  });
}
