import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import type { Runtime } from '../runtime/runtime.js';
import type { CallResult } from '../tool/tool-result.js';
import { conceptEmbedder, copyRepositoryDocs } from './concept-embedder.test-helpers.js';
import { createWorkspaceTools } from './create-workspace-tools.js';
import { callTool, makeWorkspace, type TempWorkspace, textOf } from './workspace.test-helpers.js';
import type { WorkspaceToolsOptions } from './workspace-tools-options.js';

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeWorkspace();
  await copyRepositoryDocs(temp.workspace);
});
afterEach(() => temp.remove());

const runtimeWith = (options: Omit<WorkspaceToolsOptions, 'workspace'> = {}): Runtime =>
  createRuntime({
    tools: createWorkspaceTools({ workspace: temp.workspace, ...options }),
    mode: 'yolo',
  });

interface Hit {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

/** The lines of the file a hit names, as they are now. */
const linesOf = async (hit: Hit): Promise<string> =>
  (await readFile(join(temp.workspace, hit.path), 'utf8'))
    .split('\n')
    .slice(hit.start - 1, hit.end)
    .join('\n');

const hitsOf = (result: CallResult): Hit[] =>
  (result.structuredContent as { results: Hit[] }).results;

/** The text of the first result block, as the reply shows it. */
const firstPassage = (result: CallResult): string => {
  const text = textOf(result);
  const start = text.indexOf('[1] ');
  const end = text.indexOf('\n\n---\n\n', start);
  return text.slice(text.indexOf('\n', start) + 1, end === -1 ? undefined : end);
};

describe('semantic_search on this repository’s docs', () => {
  it('asks for index_workspace when there is no index', async () => {
    const result = await callTool(runtimeWith(), 'semantic_search', { query: 'approvals' });
    expect(result.status).toBe('error');
    expect(textOf(result)).toContain('The workspace has no index yet. Call index_workspace first');
  });

  it('ranks lexically without an embedder, and says so', async () => {
    const runtime = runtimeWith();
    const indexed = await callTool(runtime, 'index_workspace', {});
    // Every page of docs/ is indexed, however many the repository has.
    const pages = (await readdir(join(temp.workspace, 'docs'))).filter((n) => n.endsWith('.md'));
    expect(textOf(indexed)).toMatch(
      new RegExp(
        `^Indexed ${pages.length} files into \\d+ chunks \\(${pages.length} new, 0 changed, 0 removed, 0 unchanged\\)\\.`,
      ),
    );
    expect(textOf(indexed)).toContain('semantic_search ranks lexically');
    const result = await callTool(runtime, 'semantic_search', { query: 'DNS rebinding', topK: 3 });
    expect(result.status).toBe('ok');
    expect(textOf(result)).toMatch(/^Ranked lexically \(BM25 .*no embedder is configured/);
    expect((result.structuredContent as { ranking: string }).ranking).toBe('lexical');
    const [best] = hitsOf(result);
    expect(best?.path).toBe('docs/tools.md');
    expect(best?.score).toBe(1);
    expect(await linesOf(best as Hit)).toMatch(/DNS rebinding/i);
  });

  it('finds a passage by meaning, in other words than the query, with an embedder', async () => {
    const query = 'happening simultaneously';
    // The test means something only while no doc uses these words (or near spellings).
    const corpus = await Promise.all(
      (await readdir(join(temp.workspace, 'docs')))
        .filter((name) => name.endsWith('.md'))
        .map((name) => readFile(join(temp.workspace, 'docs', name), 'utf8')),
    );
    expect(corpus.join('\n')).not.toMatch(/happening|simultaneous/i);
    const lexical = runtimeWith();
    await callTool(lexical, 'index_workspace', {});
    const byWords = await callTool(lexical, 'semantic_search', { query });
    expect(textOf(byWords)).toContain(`No passage matches "${query}"`);

    const { embed } = conceptEmbedder();
    const runtime = runtimeWith({ embedder: { embed, id: 'concepts', local: true } });
    await callTool(runtime, 'index_workspace', {});
    const result = await callTool(runtime, 'semantic_search', { query, topK: 3 });
    expect(result.status).toBe('ok');
    expect(textOf(result)).toMatch(
      /^Ranked by meaning \(cosine similarity of embeddings from concepts\)/,
    );
    const passage = firstPassage(result);
    for (const word of query.split(' '))
      expect(passage.toLowerCase()).not.toContain(word.slice(0, 8));
    // What it found is about things happening at the same time, in the docs' own words.
    expect(passage).toMatch(/parallel|overlap|concurren|meanwhile/i);
    expect(hitsOf(result)[0]?.score).toBeGreaterThan(0.5);
  });

  it('marks a result whose file changed since it was indexed', async () => {
    const runtime = runtimeWith();
    await callTool(runtime, 'index_workspace', {});
    await writeFile(
      join(temp.workspace, 'docs/tools.md'),
      '# rewritten\nDNS rebinding, briefly.\n',
    );
    const result = await callTool(runtime, 'semantic_search', { query: 'DNS rebinding', topK: 1 });
    expect(textOf(result)).toContain('(changed since it was indexed; call index_workspace)');
  });

  it('falls back to lexical ranking, saying why, when the index was built by another embedder', async () => {
    await callTool(runtimeWith(), 'index_workspace', {});
    const { embed } = conceptEmbedder();
    const runtime = runtimeWith({ embedder: { embed, id: 'concepts', local: true } });
    const result = await callTool(runtime, 'semantic_search', { query: 'DNS rebinding' });
    expect(textOf(result)).toContain(
      'Ranked lexically: the index was built without an embedder, not concepts. Call index_workspace to embed it',
    );
  });

  it('reads a damaged index as unreadable rather than trusting it', async () => {
    const runtime = runtimeWith();
    await mkdir(join(temp.workspace, '.hintgate/index'), { recursive: true });
    await writeFile(
      join(temp.workspace, '.hintgate/index/workspace-index.json'),
      JSON.stringify({ format: 'hintgate-workspace-index', version: 1, files: 'x' }),
    );
    const result = await callTool(runtime, 'semantic_search', { query: 'approvals' });
    expect(textOf(result)).toContain(
      'The workspace index cannot be read (its header is malformed). Call index_workspace',
    );
    const rebuilt = await callTool(runtime, 'index_workspace', {});
    expect(textOf(rebuilt)).toContain(
      'could not be used (its header is malformed), so it was built anew',
    );
    expect((await callTool(runtime, 'semantic_search', { query: 'approvals' })).status).toBe('ok');
  });

  it('does not take a path that leaves the workspace from a stored index', async () => {
    const runtime = runtimeWith();
    await mkdir(join(temp.workspace, '.hintgate/index'), { recursive: true });
    await writeFile(
      join(temp.workspace, '.hintgate/index/workspace-index.json'),
      JSON.stringify({
        format: 'hintgate-workspace-index',
        version: 1,
        chunkLines: 30,
        embedder: null,
        dimensions: 0,
        extensions: null,
        updatedAt: '2026-01-01T00:00:00.000Z',
        complete: true,
        files: [{ path: '../outside/x', mtimeMs: 0, size: 1, chunks: [[1, 1, 'approvals']] }],
      }),
    );
    const result = await callTool(runtime, 'semantic_search', { query: 'approvals' });
    expect(textOf(result)).toContain('cannot be read (a file entry is malformed)');
  });

  it('is read-only and waits for an index update, not for writes of other files', async () => {
    const runtime = runtimeWith();
    const plan = await runtime.plan([
      { id: 'w', name: 'write_file', arguments: { path: 'docs/new.md', content: 'x' } },
      { id: 's1', name: 'semantic_search', arguments: { query: 'a' } },
      { id: 'i', name: 'index_workspace', arguments: {} },
      { id: 's2', name: 'semantic_search', arguments: { query: 'a' } },
    ]);
    expect(plan.map((entry) => [entry.id, entry.class, entry.waitsFor])).toEqual([
      ['w', 'destructive', []],
      ['s1', 'read', []],
      ['i', 'write', ['w', 's1']],
      ['s2', 'read', ['i']],
    ]);
  });
});
