import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NormalizedOutput } from './normalize-output.js';
import type { ContentBlock } from './tool-result.js';
import { DEFAULT_MAX_OUTPUT_CHARS, truncateOutput } from './truncate-output.js';

const textOf = (content: readonly ContentBlock[]): string =>
  content.map((block) => (block.type === 'text' ? block.text : '')).join('');

const textOutput = (...texts: string[]): NormalizedOutput => ({
  content: texts.map((text) => ({ type: 'text', text })),
  isError: false,
});

/** A list-shaped result as a paginated API returns it, text = its JSON. */
const listOutput = (count: number): NormalizedOutput => {
  const structured = {
    meta: { cursor: 'x', hasNextPage: true },
    data: Array.from({ length: count }, (_, i) => ({ id: `item-${i}`, name: 'n'.repeat(40) })),
  };
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    isError: false,
  };
};

describe('truncateOutput', () => {
  it('defaults to 25,000 characters (the seed limit)', () => {
    expect(DEFAULT_MAX_OUTPUT_CHARS).toBe(25_000);
  });

  it('leaves output under the limit untouched, truncated false', () => {
    const output = listOutput(3);
    const result = truncateOutput(output, 10_000);
    expect(result).toStrictEqual({ ...output, truncated: false });
    expect(result.structuredContent).toBe(output.structuredContent);
  });

  it('leaves output exactly at the limit untouched', () => {
    expect(truncateOutput(textOutput('abcde'), 5)).toStrictEqual({
      ...textOutput('abcde'),
      truncated: false,
    });
  });

  it('cuts long text to at most maxChars in total, with a note of what was shown', () => {
    const result = truncateOutput(textOutput('x'.repeat(5000)), 1000);
    const text = textOf(result.content);
    expect(result.truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.length).toBeGreaterThan(850);
    expect(text).toMatch(/^x+\n…\[output truncated: \d+ of 5000 characters shown; narrow/);
    const shown = Number(/truncated: (\d+) of/.exec(text)?.[1]);
    expect(text.indexOf('\n')).toBe(shown);
  });

  it('cuts across several text blocks: earlier blocks kept, later ones dropped after the cut', () => {
    const result = truncateOutput(
      textOutput('a'.repeat(300), 'b'.repeat(600), 'z'.repeat(300)),
      500,
    );
    expect(result.content).toHaveLength(2);
    expect(result.content[0]).toStrictEqual({ type: 'text', text: 'a'.repeat(300) });
    expect(textOf(result.content).length).toBeLessThanOrEqual(500);
    expect(textOf(result.content)).not.toContain('z');
  });

  it('stays within a limit shorter than its own note', () => {
    for (const maxChars of [1, 5, 20, 80]) {
      const result = truncateOutput(textOutput('x'.repeat(500)), maxChars);
      expect(textOf(result.content).length, String(maxChars)).toBeLessThanOrEqual(maxChars);
      expect(textOf(result.content), String(maxChars)).toContain('…');
    }
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(1000);
    for (const maxChars of [300, 301, 302, 303]) {
      const text = textOf(truncateOutput(textOutput(emoji), maxChars).content);
      const kept = text.slice(0, text.indexOf('\n'));
      expect(kept.length % 2, String(maxChars)).toBe(0);
      expect(kept).toBe('😀'.repeat(kept.length / 2));
    }
  });

  it('keeps non-text blocks', () => {
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' } as const;
    const result = truncateOutput(
      { content: [image, { type: 'text', text: 'y'.repeat(3000) }, image], isError: false },
      500,
    );
    expect(result.content.filter((block) => block.type === 'image')).toStrictEqual([image, image]);
    expect(textOf(result.content).length).toBeLessThanOrEqual(500);
  });

  it('keeps isError and _meta', () => {
    const result = truncateOutput(
      { content: [{ type: 'text', text: 'e'.repeat(1000) }], isError: true, _meta: { a: 1 } },
      200,
    );
    expect(result.isError).toBe(true);
    expect(result._meta).toStrictEqual({ a: 1 });
  });

  it('drops list items from the end, keeps meta fields, marks meta.truncated, text = JSON', () => {
    const output = listOutput(200);
    const result = truncateOutput(output, 2000);
    const structured = result.structuredContent as {
      meta: Record<string, unknown>;
      data: { id: string }[];
    };
    expect(result.truncated).toBe(true);
    expect(structured.meta).toStrictEqual({ cursor: 'x', hasNextPage: true, truncated: true });
    expect(structured.data.length).toBeGreaterThanOrEqual(1);
    expect(structured.data.length).toBeLessThan(200);
    expect(structured.data.map((item) => item.id)).toStrictEqual(
      Array.from({ length: structured.data.length }, (_, i) => `item-${i}`),
    );
    expect(result.content).toStrictEqual([{ type: 'text', text: JSON.stringify(structured) }]);
    const text = textOf(result.content);
    expect(text.length).toBeLessThanOrEqual(2000);
    // As many items as fit: one more would not.
    const oneMore = { ...structured, data: listOutput(200).structuredContent?.data };
    const longer = JSON.stringify({
      ...oneMore,
      data: (oneMore.data as unknown[]).slice(0, structured.data.length + 1),
    });
    expect(longer.length).toBeGreaterThan(2000);
    expect(output.structuredContent).toStrictEqual(listOutput(200).structuredContent);
  });

  it('adds meta to a list-shaped result that had none', () => {
    const structured = { items: Array.from({ length: 100 }, (_, i) => `entry ${i}`) };
    const result = truncateOutput(
      {
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
        isError: false,
      },
      300,
    );
    expect(result.structuredContent?.meta).toStrictEqual({ truncated: true });
    const items = result.structuredContent?.items as string[];
    expect(items.length).toBeLessThan(100);
    expect(items).toStrictEqual(structured.items.slice(0, items.length));
    expect(textOf(result.content).length).toBeLessThanOrEqual(300);
    expect(textOf(result.content)).toBe(JSON.stringify(result.structuredContent));
  });

  it('keeps one item when even one does not fit, then cuts the text', () => {
    const result = truncateOutput(listOutput(10), 60);
    const structured = result.structuredContent as { data: unknown[] };
    expect(structured.data).toHaveLength(1);
    expect(textOf(result.content).length).toBeLessThanOrEqual(60);
    expect(result.truncated).toBe(true);
  });

  it('always fits the limit, and reports truncation iff the text was over it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 400 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 600 }),
        (texts, maxChars) => {
          const result = truncateOutput(textOutput(...texts), maxChars);
          const length = texts.join('').length;
          expect(result.truncated).toBe(length > maxChars);
          expect(textOf(result.content).length).toBeLessThanOrEqual(Math.max(maxChars, 0));
          for (const block of result.content) {
            if (block.type !== 'text') continue;
            expect(block.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
          }
        },
      ),
    );
  });
});
