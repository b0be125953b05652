import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import { createTempWorkspace, type TempWorkspace } from '../testing/index.js';
import type { Tool } from '../tool/tool.js';
import type { CallResult } from '../tool/tool-result.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
import type { WorkspaceToolsOptions } from './workspace-tools-options.js';

export type { TempWorkspace };

/** Makes a temporary workspace; call `remove()` in `afterEach`. */
export const makeWorkspace = (): Promise<TempWorkspace> =>
  createTempWorkspace({ prefix: 'hintgate-tools-' });

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
