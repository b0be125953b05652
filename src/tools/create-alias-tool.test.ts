import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { toToolListing } from '../tool/to-tool-listing.js';
import { createAliasTool } from './create-alias-tool.js';
import { createReadFileTool } from './create-read-file-tool.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
import { callTool, makeWorkspace, type TempWorkspace, textOf } from './workspace.test-helpers.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
});
afterEach(() => temp.remove());

const named = (name: string) => {
  const tool = createWorkspaceTools({ workspace: temp.workspace }).find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no ${name}`);
  return tool;
};

describe("ak-coder's tool names", () => {
  it('runs bash and str_replace with the arguments ak-coder gives them', async () => {
    await temp.write({ 'a.ts': 'const x = 1;\n' });
    const runtime = createRuntime({
      tools: createWorkspaceTools({ workspace: temp.workspace }),
      mode: 'yolo',
    });
    const edited = await callTool(runtime, 'str_replace', {
      path: 'a.ts',
      old_string: 'const x = 1;',
      new_string: 'const x = 2;',
    });
    expect(textOf(edited)).toBe('Edited a.ts: replaced 1 occurrence (line 1).');
    expect(await readFile(join(temp.workspace, 'a.ts'), 'utf8')).toBe('const x = 2;\n');
    const ran = await callTool(runtime, 'bash', { command: 'cat a.ts' });
    expect(ran.status).toBe('ok');
    expect(textOf(ran)).toContain('const x = 2;');
  });

  it('lists them with the annotations, schema and keys of the tools they stand for', async () => {
    for (const [alias, original] of [
      ['str_replace', 'edit_file'],
      ['bash', 'run_command'],
    ] as const) {
      const listed = toToolListing(named(alias));
      const source = toToolListing(named(original));
      expect(listed.annotations).toStrictEqual(source.annotations);
      expect(listed.inputSchema).toStrictEqual(source.inputSchema);
      expect(listed.description).toMatch(
        new RegExp(`^The ${original} tool under the name ${alias}`),
      );
      expect(named(alias).nameOnOrigin).toBe(original);
    }
    const runtime = createRuntime({ tools: createWorkspaceTools({ workspace: temp.workspace }) });
    const plan = await runtime.plan([
      { id: 'b', name: 'bash', arguments: { command: 'ls' } },
      {
        id: 's',
        name: 'str_replace',
        arguments: { path: 'a.ts', old_string: 'a', new_string: 'b' },
      },
    ]);
    expect(plan.map((entry) => entry.resourceKeys)).toEqual([['file:'], ['file:a.ts']]);
  });

  it('binds rules written for run_command to bash', async () => {
    const tools = createWorkspaceTools({ workspace: temp.workspace });
    const denying = createRuntime({
      tools,
      mode: 'yolo',
      rules: [{ tool: 'run_command', decision: 'deny', reason: 'no commands here' }],
    });
    const denied = await callTool(denying, 'bash', { command: 'echo hi' });
    expect(denied.status).toBe('denied');
    expect(textOf(denied)).toContain('no commands here');
    // Mode ask without an approver denies what asks; an allow rule on run_command lets bash run.
    const allowing = createRuntime({
      tools,
      mode: 'ask',
      rules: [{ tool: 'run_command', decision: 'allow' }],
    });
    expect((await callTool(allowing, 'bash', { command: 'echo hi' })).status).toBe('ok');
    const asking = createRuntime({ tools, mode: 'ask' });
    expect((await callTool(asking, 'bash', { command: 'echo hi' })).status).toBe('denied');
  });

  it('leaves them out with aliases: false', () => {
    const names = createWorkspaceTools({ workspace: temp.workspace, aliases: false }).map(
      (tool) => tool.name,
    );
    expect(names).not.toContain('bash');
    expect(names).not.toContain('str_replace');
    expect(names).toContain('run_command');
  });

  it('refuses what is not a tool and a name that is no other name', () => {
    const read = createReadFileTool({ workspace: temp.workspace });
    expect(() => createAliasTool({ ...read }, { name: 'cat' })).toThrow(HintgateError);
    expect(() => createAliasTool(read, { name: 'read_file' })).toThrow(/must be another name/);
    expect(() => createAliasTool(read, { name: 'read file' })).toThrow(/must be another name/);
    expect(createAliasTool(read, { name: 'cat' }).name).toBe('cat');
  });
});
