import { describe, expect, it } from 'vitest';
import { exampleBlock, repoText, runExample } from './run-example.test-helpers.js';

describe('examples/quickstart.ts', () => {
  it('is the example the README shows', async () => {
    expect(await repoText('README.md')).toContain(await exampleBlock('quickstart'));
  });

  it('runs: reads before the write of the same file, and returns results in call order', async () => {
    const { lines, files } = await runExample('quickstart', { 'a.txt': 'old', 'b.txt': 'bee' });
    expect(lines).toEqual([
      'c1 ok [{"type":"text","text":"old"}]',
      'c2 ok [{"type":"text","text":"{\\"written\\":\\"a.txt\\"}"}]',
      'c3 ok [{"type":"text","text":"bee"}]',
    ]);
    expect(files['a.txt']).toBe('new');
  });
});
