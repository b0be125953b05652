import { readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import { conceptEmbedder } from './concept-embedder.test-helpers.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
import { callTool, makeWorkspace, type TempWorkspace, textOf } from './workspace.test-helpers.js';
import type { WorkspaceToolsOptions } from './workspace-tools-options.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
  await temp.write({
    'src/a.ts': 'export const approve = () => "ask for permission";\n',
    'src/b.ts': 'export const fetchUrl = (url: string) => fetch(url);\n',
    'README.md': '# Project\nFiles and folders on disk.\n',
    'node_modules/dep/index.js': 'module.exports = 1;\n',
    'ignored/x.txt': 'secret token\n',
    '.gitignore': 'ignored/\n',
    'image.bin': Buffer.from([0, 1, 2, 3, 0, 5]),
  });
});
afterEach(() => temp.remove());

const runtimeWith = (options: Omit<WorkspaceToolsOptions, 'workspace'> = {}): Runtime =>
  createRuntime({
    tools: createWorkspaceTools({ workspace: temp.workspace, ...options }),
    mode: 'yolo',
  });

const indexedPaths = async (): Promise<string[]> => {
  const stored = JSON.parse(
    await readFile(join(temp.workspace, '.hintgate/index/workspace-index.json'), 'utf8'),
  ) as { files: { path: string }[] };
  return stored.files.map((file) => file.path);
};

describe('index_workspace', () => {
  it('indexes the text files git would see, under .hintgate/index, kept out of git', async () => {
    const result = await callTool(runtimeWith(), 'index_workspace', {});
    expect(textOf(result)).toContain(
      'Indexed 4 files into 4 chunks (4 new, 0 changed, 0 removed, 0 unchanged; 1 left out: binary, not UTF-8 or larger than 1048576 bytes).',
    );
    expect(await indexedPaths()).toEqual(['.gitignore', 'README.md', 'src/a.ts', 'src/b.ts']);
    expect(await readFile(join(temp.workspace, '.hintgate/index/.gitignore'), 'utf8')).toBe('*\n');
  });

  it('embeds only what changed since the last update, by modification time', async () => {
    const embedder = conceptEmbedder();
    const runtime = runtimeWith({ embedder: { embed: embedder.embed, local: true } });
    await callTool(runtime, 'index_workspace', {});
    expect(embedder.batches.flat()).toHaveLength(4);

    const again = await callTool(runtime, 'index_workspace', {});
    expect(textOf(again)).toContain('(0 new, 0 changed, 0 removed, 4 unchanged');
    expect(embedder.batches.flat()).toHaveLength(4);

    // Same content, new modification time: indexed again. A new file, a deleted one.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(temp.workspace, 'src/a.ts'), later, later);
    await writeFile(join(temp.workspace, 'src/c.ts'), 'export const c = 3;\n');
    await rm(join(temp.workspace, 'README.md'));
    const third = await callTool(runtime, 'index_workspace', {});
    expect(textOf(third)).toContain('(1 new, 1 changed, 1 removed, 2 unchanged');
    expect(textOf(third)).toContain('Embedded 2 chunks.');
    expect(
      embedder.batches
        .slice(1)
        .flat()
        .map((text) => text.split('\n')[0]),
    ).toEqual(['src/a.ts', 'src/c.ts']);
  });

  it('starts over when the embedder changes', async () => {
    await callTool(runtimeWith(), 'index_workspace', {});
    const embedder = conceptEmbedder();
    const runtime = runtimeWith({ embedder: { embed: embedder.embed, id: 'concepts' } });
    const result = await callTool(runtime, 'index_workspace', {});
    expect(textOf(result)).toContain('(4 new, 0 changed, 0 removed, 0 unchanged');
    expect(textOf(result)).toContain(
      'The stored index was made with another embedder or chunk size, so every file was indexed anew.',
    );
    expect(embedder.batches.flat()).toHaveLength(4);
  });

  it('takes the extensions to index, as ak-coder does', async () => {
    const result = await callTool(runtimeWith(), 'index_workspace', { extensions: ['ts', '.MD'] });
    expect(textOf(result)).toContain('Indexed 3 files');
    expect(await indexedPaths()).toEqual(['README.md', 'src/a.ts', 'src/b.ts']);
  });

  it('takes an AI SDK embedding model as it is, in batches of its maxEmbeddingsPerCall', async () => {
    const embedder = conceptEmbedder();
    const calls: { values: string[]; aborted: boolean }[] = [];
    const model = {
      specificationVersion: 'v2',
      provider: 'test',
      modelId: 'concepts-1',
      maxEmbeddingsPerCall: 3,
      supportsParallelCalls: false,
      doEmbed: async (options: { values: string[]; abortSignal?: AbortSignal }) => {
        calls.push({ values: options.values, aborted: options.abortSignal?.aborted ?? true });
        return { embeddings: embedder.embed(options.values) };
      },
    };
    const runtime = runtimeWith({ embedder: model });
    const result = await callTool(runtime, 'index_workspace', {});
    expect(textOf(result)).toContain('ranks by meaning, with embeddings from test/concepts-1');
    expect(calls.map((call) => call.values.length)).toEqual([3, 1]);
    expect(calls.every((call) => !call.aborted)).toBe(true);
    const search = await callTool(runtime, 'semantic_search', { query: 'consent' });
    expect((search.structuredContent as { results: { path: string }[] }).results[0]?.path).toBe(
      'src/a.ts',
    );
  });

  it('fails the call, saying what was wrong, when the embedder returns bad vectors', async () => {
    const runtime = runtimeWith({ embedder: (texts) => texts.map(() => [1, Number.NaN]) });
    const result = await callTool(runtime, 'index_workspace', {});
    expect(result.status).toBe('error');
    expect(textOf(result)).toContain('a value that is not a finite number');
  });

  it('is open world when the embedder may send text out, closed with a local one', () => {
    const openWorld = (options: Omit<WorkspaceToolsOptions, 'workspace'>) =>
      createWorkspaceTools({ workspace: temp.workspace, ...options })
        .filter((tool) => tool.name === 'index_workspace' || tool.name === 'semantic_search')
        .map((tool) => tool.annotations.openWorldHint);
    expect(openWorld({})).toEqual([false, false]);
    expect(openWorld({ embedder: () => [] })).toEqual([true, true]);
    expect(openWorld({ embedder: { embed: () => [], local: true } })).toEqual([false, false]);
  });

  it('refuses a malformed embedder when the tools are made', () => {
    for (const embedder of [42, { embed: 'x' }, { embed: () => [], batchSize: 0 }]) {
      expect(() =>
        createWorkspaceTools({ workspace: temp.workspace, embedder: embedder as never }),
      ).toThrow(HintgateError);
    }
  });
});
