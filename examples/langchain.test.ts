import { describe, expect, it } from 'vitest';
import { exampleBlock, repoText, runExample } from './run-example.test-helpers.js';

describe('examples/langchain.ts', () => {
  it('is the example the README shows', async () => {
    expect(await repoText('README.md')).toContain(await exampleBlock('langchain'));
  });

  it('runs with the scripted model: asks about the write, then runs the three calls in order', async () => {
    const { lines, files } = await runExample('langchain', { 'a.txt': 'old', 'b.txt': 'bee' });
    expect(lines).toEqual([
      'asks: c2 write_file',
      'c1 success old',
      'c2 success {"written":"a.txt"}',
      'c3 success bee',
      'system prompt sent: true',
    ]);
    expect(files['a.txt']).toBe('new');
  });
});
