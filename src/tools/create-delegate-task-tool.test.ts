import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
import type { DelegateOption, DelegateTask } from './resolve-delegate.js';
import { callTool, makeWorkspace, type TempWorkspace, textOf } from './workspace.test-helpers.js';

const SUB_AGENT = fileURLToPath(new URL('./fixtures/sub-agent.mjs', import.meta.url));

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
  await temp.write({ 'src/a.ts': 'export const a = 1;\n' });
});
afterEach(() => temp.remove());

const runtimeWith = (delegate: DelegateOption) =>
  createRuntime({
    tools: createWorkspaceTools({ workspace: temp.workspace, delegate }),
    mode: 'yolo',
  });

/** True while a process exists and is not a zombie waiting to be reaped. */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('delegate_task with a sub-agent command', () => {
  it('hands the task to the command on standard input, in the workspace, one level deeper', async () => {
    const runtime = runtimeWith({ command: [process.execPath, SUB_AGENT] });
    const result = await callTool(runtime, 'delegate_task', {
      role: 'Test Runner',
      taskPrompt: 'Check that a is one.',
      filesToInclude: ['./src/a.ts'],
    });
    expect(result.status).toBe('ok');
    const text = textOf(result);
    expect(text).toMatch(/^\[Sub-agent "Test Runner" finished\]\ndepth 1\n---\n/);
    expect(text).toContain('You are a sub-agent with the role: Test Runner.');
    expect(text).toContain('Task:\nCheck that a is one.');
    expect(text).toContain('Files to start from (relative to the workspace):\n- src/a.ts');
  });

  it('puts the prompt in place of a {prompt} argument', async () => {
    const runtime = runtimeWith({ command: [process.execPath, SUB_AGENT, '{prompt}'] });
    const result = await callTool(runtime, 'delegate_task', { role: 'R', taskPrompt: 'T' });
    expect(textOf(result)).toContain('Task:\nT');
  });

  it('reports a failing sub-agent as an error with its exit code and stderr', async () => {
    const runtime = runtimeWith({ command: [process.execPath, SUB_AGENT] });
    const result = await callTool(runtime, 'delegate_task', { role: 'R', taskPrompt: 'FAIL' });
    expect(result.status).toBe('error');
    expect(textOf(result)).toBe(
      '[Sub-agent "R" failed with exit code 3]\n(no answer on standard output)\n--- stderr ---\ncould not do it',
    );
  });

  it('caps a long answer to its start and end', async () => {
    const runtime = runtimeWith({ command: [process.execPath, SUB_AGENT], maxOutputBytes: 1000 });
    const text = textOf(
      await callTool(runtime, 'delegate_task', { role: 'R', taskPrompt: 'LONG' }),
    );
    expect(text).toContain('start xxx');
    expect(text).toContain('xxx end');
    expect(text).toMatch(/\[\.\.\. \d+ bytes cut from the middle of 50011 \.\.\.\]/);
    expect(text.length).toBeLessThan(1200);
  });

  it('kills the sub-agent and what it started when the call is cancelled', async () => {
    const runtime = runtimeWith({ command: [process.execPath, SUB_AGENT] });
    const controller = new AbortController();
    const running = runtime.execute(
      [{ id: 'd', name: 'delegate_task', arguments: { role: 'R', taskPrompt: 'HANG' } }],
      { signal: controller.signal },
    );
    const pidsFile = join(temp.workspace, 'pids.json');
    await vi.waitFor(() => expect(existsSync(pidsFile)).toBe(true), { timeout: 15_000 });
    const pids = JSON.parse(await readFile(pidsFile, 'utf8')) as number[];
    expect(pids.every(alive)).toBe(true);
    controller.abort();
    const [result] = await running;
    expect(result?.status).toBe('cancelled');
    // Both die, the helper with the sub-agent's process group (it would outlive its parent).
    await vi.waitFor(() => expect(pids.some(alive)).toBe(false), { timeout: 15_000 });
  });

  it('says so when the command cannot be started', async () => {
    const runtime = runtimeWith({ command: ['/nonexistent/agent-cli', '-p'] });
    const result = await callTool(runtime, 'delegate_task', { role: 'R', taskPrompt: 'T' });
    expect(result.status).toBe('error');
    expect(textOf(result)).toContain(
      'The sub-agent command "/nonexistent/agent-cli" could not be started (spawn /nonexistent/agent-cli ENOENT).',
    );
  });

  it('refuses to nest deeper than maxDepth', async () => {
    const runtime = runtimeWith({ command: [process.execPath, SUB_AGENT], maxDepth: 2 });
    vi.stubEnv('HINTGATE_DELEGATE_DEPTH', '2');
    try {
      const result = await callTool(runtime, 'delegate_task', { role: 'R', taskPrompt: 'T' });
      expect(textOf(result)).toContain('Refused: this agent is itself a sub-agent 2 levels deep');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('delegate_task with a sub-agent function', () => {
  it('passes the task and returns the answer', async () => {
    const seen: DelegateTask[] = [];
    const runtime = runtimeWith(async (task, { workspace }) => {
      seen.push(task);
      return { text: `done in ${workspace}` };
    });
    const result = await callTool(runtime, 'delegate_task', {
      role: 'Auditor',
      taskPrompt: 'Audit.',
      filesToInclude: ['src/a.ts'],
    });
    expect(textOf(result)).toBe(`[Sub-agent "Auditor" finished]\ndone in ${temp.workspace}`);
    expect(seen[0]).toMatchObject({
      role: 'Auditor',
      taskPrompt: 'Audit.',
      filesToInclude: ['src/a.ts'],
    });
  });

  it('aborts its signal when the call is cancelled', async () => {
    let aborted: Promise<void> | undefined;
    const runtime = runtimeWith(
      (_task, { signal }) =>
        new Promise((_resolve, reject) => {
          aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    const controller = new AbortController();
    const running = runtime.execute(
      [{ id: 'd', name: 'delegate_task', arguments: { role: 'R', taskPrompt: 'T' } }],
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(aborted).toBeDefined(), { timeout: 15_000 });
    controller.abort();
    await aborted;
    expect((await running)[0]?.status).toBe('cancelled');
  });

  it('refuses files outside the workspace', async () => {
    const runtime = runtimeWith(() => 'never');
    const result = await callTool(runtime, 'delegate_task', {
      role: 'R',
      taskPrompt: 'T',
      filesToInclude: ['../outside/x'],
    });
    expect(textOf(result)).toContain('Refused: "../outside/x" leads out of the workspace');
  });
});

describe('delegate_task annotations and configuration', () => {
  it('is open world, not read-only, keyed on the whole workspace, and absent without a delegate', async () => {
    const tools = createWorkspaceTools({ workspace: temp.workspace, delegate: () => '' });
    const tool = tools.find((t) => t.name === 'delegate_task');
    expect(tool?.annotations).toEqual({
      title: 'Delegate task',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    const plan = await createRuntime({ tools }).plan([
      { id: 'd', name: 'delegate_task', arguments: { role: 'R', taskPrompt: 'T' } },
    ]);
    expect(plan[0]?.resourceKeys).toEqual(['file:']);
    expect(plan[0]?.locks).toContainEqual({ key: 'world', mode: 'X' });
    const without = createWorkspaceTools({ workspace: temp.workspace });
    expect(without.map((t) => t.name)).not.toContain('delegate_task');
  });

  it('refuses a malformed delegate when the tools are made', () => {
    for (const delegate of [
      'claude',
      {},
      { run: () => '', command: ['x'] },
      { command: [] },
      { command: ['x'], timeoutMs: 0 },
    ]) {
      expect(() =>
        createWorkspaceTools({ workspace: temp.workspace, delegate: delegate as never }),
      ).toThrow(HintgateError);
    }
  });
});
