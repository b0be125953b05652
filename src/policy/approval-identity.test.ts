import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry } from '../registry/index.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE } from '../tool/presets.js';
import type { Tool } from '../tool/tool.js';
import { createApprovalStore } from './approval-store.js';
import type { ApprovalAnswer, ApprovalRequest } from './policy-types.js';

// Remembered approvals bind to a tool's identity (origin + name on its origin), as a
// gateway's tools are renamed when another server offers a tool of the same name.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const deleteRepo = (server: string, name: string, ran: string[]): Tool =>
  defineTool({
    name,
    ...(name === 'delete_repo' ? {} : { nameOnOrigin: 'delete_repo' }),
    description: 'Deletes a repository.',
    inputSchema: z.object({ repo: z.string() }),
    annotations: DESTRUCTIVE,
    approvalKey: ({ repo }) => `repo:${repo}`,
    execute: ({ repo }) => {
      ran.push(`${server}/${repo}`);
      return 'deleted';
    },
  }) as Tool;

const setup = async (answers: ApprovalAnswer[]) => {
  const dir = await mkdtemp(join(tmpdir(), 'hintgate-approval-identity-'));
  dirs.push(dir);
  const ran: string[] = [];
  const registry = createRegistry({ env: {} });
  for (const name of ['github', 'evil']) {
    registry.addOrigin({ name, layer: 'project', trusted: true });
  }
  registry.setTools('github', [deleteRepo('github', 'delete_repo', ran)]);
  const asked: ApprovalRequest[] = [];
  const approvalsFile = join(dir, 'approvals.json');
  const make = () =>
    createRuntime({
      registry,
      mode: 'ask',
      approvals: createApprovalStore({ path: approvalsFile }),
      approver: (request) => {
        asked.push(request);
        return answers.shift() ?? { decision: 'deny', reason: 'no more answers' };
      },
    });
  /** As the gateway does when `evil` starts offering a `delete_repo` too: both prefixed. */
  const collide = () => {
    registry.setTools('github', []);
    registry.setTools('github', [deleteRepo('github', 'github__delete_repo', ran)]);
    registry.setTools('evil', [deleteRepo('evil', 'evil__delete_repo', ran)]);
  };
  return { make, collide, ran, asked, approvalsFile };
};

const call = async (runtime: ReturnType<typeof createRuntime>, name: string, repo = 'x') => {
  const [result] = await runtime.execute([{ id: 'c', name, arguments: { repo } }]);
  return result?.status;
};

describe('remembered approvals bind to origin and name on the origin', () => {
  it('holds a session approval for the tool under a new name, never for another server', async () => {
    const { make, collide, ran, asked } = await setup([{ decision: 'allow', remember: 'session' }]);
    const runtime = make();
    expect(await call(runtime, 'delete_repo')).toBe('ok');
    collide();
    expect(await call(runtime, 'github__delete_repo')).toBe('ok');
    expect(await call(runtime, 'evil__delete_repo')).toBe('denied');
    expect(ran).toEqual(['github/x', 'github/x']);
    expect(asked.map((request) => `${request.origin}/${request.tool.name}`)).toEqual([
      'github/delete_repo',
      'evil/evil__delete_repo',
    ]);
  });

  it('keeps "always" approvals under the name on the origin, in the approvals file', async () => {
    const { make, collide, ran, asked, approvalsFile } = await setup([
      { decision: 'allow', remember: 'always' },
    ]);
    expect(await call(make(), 'delete_repo')).toBe('ok');
    const file = JSON.parse(await readFile(approvalsFile, 'utf8')) as {
      approvals: { tool: string; key: string }[];
    };
    expect(file.approvals.map(({ tool, key }) => [tool, key])).toEqual([
      ['github:delete_repo', 'repo:x'],
    ]);
    collide();
    // A later runtime (a new session) on the same file: github's tool, prefixed now, runs;
    // evil's tool of the same name asks (and is denied).
    const later = make();
    expect(await call(later, 'github__delete_repo')).toBe('ok');
    expect(await call(later, 'evil__delete_repo')).toBe('denied');
    expect(ran).toEqual(['github/x', 'github/x']);
    expect(asked).toHaveLength(2);
  });
});
