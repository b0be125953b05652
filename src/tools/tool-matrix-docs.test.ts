import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../tool/index.js';
import { createWorkspaceTools } from './create-workspace-tools.js';

// The matrix of docs/tools.md says what each built-in tool declares; it must say what the
// tools really declare, hint by hint.

const DOC = new URL('../../docs/tools.md', import.meta.url);
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The rows of the matrix: tool name -> the four hint cells as written. */
async function matrixRows(): Promise<Map<string, string[]>> {
  const text = await readFile(DOC, 'utf8');
  const section = text.split('## The tool matrix\n')[1] ?? '';
  // The first table of the section; the ones after it compare with the seed.
  const table = section.trimStart().split('\n\n')[0] ?? '';
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (name === undefined) continue;
    rows.set(
      name,
      cells.slice(2, 6).map((cell) => cell.replace(/\*\*/g, '')),
    );
  }
  return rows;
}

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'hintgate-matrix-'));
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

const toolsWith = (local: boolean): Map<string, Tool> =>
  new Map(
    createWorkspaceTools({
      workspace,
      delegate: async () => 'done',
      embedder: { id: 'test', local, embed: async (texts) => texts.map(() => [1, 0]) },
    }).map((tool) => [tool.name, tool]),
  );

describe('the tool matrix of docs/tools.md', () => {
  it('has one row per built-in tool, and each row states the hints the tool declares', async () => {
    const rows = await matrixRows();
    const remote = toolsWith(false);
    const local = toolsWith(true);
    expect([...rows.keys()].sort()).toEqual([...remote.keys()].sort());
    for (const [name, cells] of rows) {
      HINTS.forEach((hint, index) => {
        const cell = cells[index];
        const declared = remote.get(name)?.annotations[hint];
        expect(typeof declared, `${name} states ${hint}`).toBe('boolean');
        if (cell === 'with an embedder that is not `local`') {
          expect(declared, `${name}.${hint} with a remote embedder`).toBe(true);
          expect(local.get(name)?.annotations[hint], `${name}.${hint} with a local one`).toBe(
            false,
          );
        } else {
          expect(`${name}.${hint}: ${cell}`).toBe(`${name}.${hint}: ${String(declared)}`);
        }
      });
    }
  });
});
