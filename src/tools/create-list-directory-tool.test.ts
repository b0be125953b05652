import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import { createListDirectoryTool } from './create-list-directory-tool.js';
import {
  callTool,
  makeWorkspace,
  type TempWorkspace,
  textOf,
  toolRuntime,
} from './workspace.test-helpers.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
});
afterEach(() => temp.remove());

describe('list_directory', () => {
  it('lists directories first, then files with sizes, marking links', async () => {
    await temp.write({ 'b.txt': '12345', 'a.txt': '', 'src/x.ts': '', '.env': 'A=1' });
    await symlink('b.txt', join(temp.workspace, 'link'));
    const text = textOf(
      await callTool(toolRuntime({ workspace: temp.workspace }), 'list_directory', {}),
    );
    expect(text).toBe(
      'Workspace root: 1 directory, 4 other entries\nsrc/\n.env (3 bytes)\na.txt (0 bytes)\nb.txt (5 bytes)\nlink@',
    );
  });

  it('caps the listing and says how many entries were left out', async () => {
    await temp.write(
      Object.fromEntries(
        Array.from({ length: 30 }, (_, i) => [`d/f${String(i).padStart(2, '0')}`, '']),
      ),
    );
    const runtime = createRuntime({
      tools: [createListDirectoryTool({ workspace: temp.workspace, maxListEntries: 10 })],
      mode: 'yolo',
    });
    const text = textOf(await callTool(runtime, 'list_directory', { path: 'd' }));
    expect(text.split('\n')).toHaveLength(12);
    expect(text).toContain('f09 (0 bytes)\n[20 more entries not shown.');
  });

  it('refuses directories outside the workspace, through .. or a symlink', async () => {
    await symlink(temp.outside, join(temp.workspace, 'out'));
    const runtime = toolRuntime({ workspace: temp.workspace });
    for (const path of ['..', 'out', '/']) {
      expect(textOf(await callTool(runtime, 'list_directory', { path })), path).toContain(
        'Refused: ',
      );
    }
    expect(textOf(await callTool(runtime, 'list_directory', { path: 'nope' }))).toContain(
      'does not exist',
    );
  });
});
