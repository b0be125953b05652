import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { countsOf, growingCounts } from './accumulated-state.js';

const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });
const structured = (value: Record<string, unknown>): CallToolResult => ({
  content: [],
  structuredContent: value,
});

describe('countsOf', () => {
  it('reads numbers and array lengths from structured content and JSON text, and numbers in plain text by their place', () => {
    expect(
      countsOf({
        content: [
          { type: 'text', text: '{"items":[1,2],"name":"x"}' },
          { type: 'text', text: 'Step 3 of 7' },
        ],
        structuredContent: { total: 4, nested: { list: [] } },
      }),
    ).toEqual(
      new Map([
        ['structuredContent."total"', 4],
        ['structuredContent."nested"."list".length', 0],
        ['content[0]."items".length', 2],
        ['content[0]."items"[0]', 1],
        ['content[0]."items"[1]', 2],
        ['content[1] "Step # of #" #0', 3],
        ['content[1] "Step # of #" #1', 7],
      ]),
    );
  });
});

describe('growingCounts', () => {
  it('finds a count that grows by the same step on every answer', () => {
    const answers = [1, 2, 3, 4].map((n) => structured({ history: n, fixed: 9 }));
    expect(growingCounts(answers)).toEqual([
      { path: 'structuredContent."history"', values: [1, 2, 3, 4] },
    ]);
  });

  it('finds a list that grows by one entry per call', () => {
    const answers = [1, 2, 3].map((n) => textResult(JSON.stringify({ seen: Array(n).fill('a') })));
    expect(growingCounts(answers).map((count) => count.path)).toEqual(['content[0]."seen".length']);
  });

  it.each([
    ['a seconds clock that ticked only across the pause', [100, 100, 100, 101]],
    ['a millisecond clock', [1000, 1003, 1004, 2010]],
    ['a count that falls', [4, 3, 2, 1]],
    ['a count that stays', [2, 2, 2, 2]],
    ['random numbers', [52, 7, 990, 13]],
  ])('takes %s for no accumulation', (_, values) => {
    expect(growingCounts(values.map((n) => textResult(`value ${n}`)))).toEqual([]);
  });

  it('needs three answers at least', () => {
    expect(growingCounts([textResult('n 1'), textResult('n 2')])).toEqual([]);
  });
});
