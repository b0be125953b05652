import { describe, expect, it } from 'vitest';
import { exampleBlock, repoText, runExample } from './run-example.test-helpers.js';

describe('examples/openai-agents.ts', () => {
  it('is the example docs/adapters.md shows', async () => {
    expect(await repoText('docs/adapters.md')).toContain(await exampleBlock('openai-agents'));
  });

  it('runs: asks before the write, runs the reads at once, and hands the model hintgate\'s system prompt', async () => {
    const { lines } = await runExample('openai-agents');
    expect(lines).toEqual([
      'approve? write_file {"path":"a.txt","text":"new"}',
      'c1: old',
      'c3: bee',
      'c2: wrote a.txt',
      'a.txt now says "new".',
      'system prompt reached the model: true',
    ]);
  });
});
