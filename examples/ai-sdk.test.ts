import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.test-helpers.js';

describe('examples/ai-sdk.ts', () => {
  it('runs: reads at once, the write after its approval through the AI SDK, the system prompt sent', async () => {
    const { lines, files } = await runExample('ai-sdk', { 'a.txt': 'old', 'b.txt': 'bee' });
    expect(lines).toEqual([
      'c1 ok [{"type":"text","text":"old"}]',
      'c3 ok [{"type":"text","text":"bee"}]',
      'c2 asks: mode ask asks before every call that changes something; a write call (readOnlyHint: false, destructiveHint: false)',
      'c2 {"type":"text","value":"{\\"written\\":\\"a.txt\\"}"}',
      'a.txt now says "new".',
      'system prompt sent: true',
    ]);
    expect(files['a.txt']).toBe('new');
  });
});
