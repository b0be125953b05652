import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from './create-workspace-tools.js';
import {
  callTool,
  makeWorkspace,
  type TempWorkspace,
  textOf,
  toolRuntime,
} from './workspace.test-helpers.js';

let temp: TempWorkspace;
const APPROVALS = '{"version":1,"approvals":[]}\n';
beforeEach(async () => {
  temp = await makeWorkspace();
  await temp.write({ '.hintgate/approvals.json': APPROVALS, 'policy.yaml': 'mode: ask\n' });
});
afterEach(() => temp.remove());

const approvals = () => readFile(join(temp.workspace, '.hintgate/approvals.json'), 'utf8');

describe('protected paths', () => {
  it('refuses write_file and edit_file under .hintgate by default, however spelled', async () => {
    const runtime = toolRuntime({ workspace: temp.workspace });
    await symlink('.hintgate', join(temp.workspace, 'state-link'));
    for (const path of [
      '.hintgate/approvals.json',
      './.hintgate/../.hintgate/approvals.json',
      join(temp.workspace, '.hintgate/approvals.json'),
      'state-link/approvals.json',
      '.hintgate/new.json',
      '.hintgate',
    ]) {
      const written = await callTool(runtime, 'write_file', { path, content: 'pwned' });
      expect(written.status, path).toBe('error');
      expect(textOf(written), path).toMatch(/Refused: .* is hintgate's own state\/configuration/);
    }
    const edited = await callTool(runtime, 'edit_file', {
      path: 'state-link/approvals.json',
      old_string: '[]',
      new_string: '[{"tool":"*"}]',
    });
    expect(textOf(edited)).toMatch(/Refused: .* is hintgate's own state\/configuration/);
    expect(await approvals()).toBe(APPROVALS);
    // Other files are written as before.
    expect((await callTool(runtime, 'write_file', { path: 'a.txt', content: 'x' })).status).toBe(
      'ok',
    );
  });

  it('refuses a protected directory reached through a link inside the workspace', async () => {
    // .hintgate is a link to state/, so state/ is what must stay untouched.
    await mkdir(join(temp.workspace, 'state'));
    await writeFile(join(temp.workspace, 'state/approvals.json'), APPROVALS);
    const linked = await makeWorkspace();
    try {
      await mkdir(join(linked.workspace, 'state'));
      await symlink('state', join(linked.workspace, '.hintgate'));
      const runtime = toolRuntime({ workspace: linked.workspace });
      const result = await callTool(runtime, 'write_file', {
        path: 'state/approvals.json',
        content: 'pwned',
      });
      expect(textOf(result)).toMatch(/Refused: "state\/approvals\.json" is hintgate's own/);
      // A dangling link counts as where it points.
      await symlink('later', join(linked.workspace, 'dangling'));
      const dangling = createWorkspaceTools({
        workspace: linked.workspace,
        protectedPaths: ['dangling'],
      });
      const write = dangling.find((tool) => tool.name === 'write_file');
      if (write === undefined) throw new Error('no write_file');
      await expect(
        write.execute(
          { path: 'later/approvals.json', content: 'x' },
          { signal: new AbortController().signal, callId: 't', attempt: 1 },
        ),
      ).rejects.toThrow(/^Refused: .* hintgate's own state/);
    } finally {
      await linked.remove();
    }
  });

  it('takes protectedPaths relative or absolute, replacing the default', async () => {
    const runtime = toolRuntime({
      workspace: temp.workspace,
      protectedPaths: ['.hintgate', join(temp.workspace, 'policy.yaml')],
    });
    const result = await callTool(runtime, 'edit_file', {
      path: 'policy.yaml',
      old_string: 'ask',
      new_string: 'yolo',
    });
    expect(textOf(result)).toMatch(/Refused: "policy\.yaml" is hintgate's own/);
    const open = toolRuntime({ workspace: temp.workspace, protectedPaths: [] });
    expect(
      (await callTool(open, 'write_file', { path: '.hintgate/x.json', content: '{}' })).status,
    ).toBe('ok');
    expect(() => createWorkspaceTools({ workspace: temp.workspace, protectedPaths: [''] })).toThrow(
      /protectedPaths must be an array of paths/,
    );
  });
});
