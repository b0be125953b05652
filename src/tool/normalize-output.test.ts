import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type NormalizedOutput, normalizeOutput, type OutputProblem } from './normalize-output.js';
import type { Tool } from './tool.js';
import { toolSchema } from './tool-schema.js';

const plain: Pick<Tool, 'name'> = { name: 'plain' };
const withSchema: Pick<Tool, 'name' | 'outputSchema'> = {
  name: 'customers_get',
  outputSchema: toolSchema<Record<string, unknown>>(
    z.object({ id: z.string(), name: z.string() }),
    'output',
    'outputSchema of tool "customers_get"',
  ),
};

const output = (value: NormalizedOutput | OutputProblem): NormalizedOutput => {
  if ('problem' in value) throw new Error(`unexpected problem: ${value.problem}`);
  return value;
};
const problem = (value: NormalizedOutput | OutputProblem): string => {
  if (!('problem' in value)) throw new Error('expected a problem');
  return value.problem;
};

describe('normalizeOutput', () => {
  it('answers at once, without a promise, unless an output schema has to be checked', () => {
    expect(normalizeOutput('hello', plain)).not.toBeInstanceOf(Promise);
    expect(normalizeOutput({ a: 1 }, plain)).not.toBeInstanceOf(Promise);
    expect(normalizeOutput({ id: 'c1', name: 'Ann' }, withSchema)).toBeInstanceOf(Promise);
    expect(normalizeOutput(undefined, withSchema)).not.toBeInstanceOf(Promise);
  });

  it('turns a string into one text block', async () => {
    expect(await normalizeOutput('hello', plain)).toStrictEqual({
      content: [{ type: 'text', text: 'hello' }],
      isError: false,
    });
  });

  it('turns an object into structuredContent plus its JSON text', async () => {
    expect(await normalizeOutput({ a: 1, b: ['x'] }, plain)).toStrictEqual({
      content: [{ type: 'text', text: '{"a":1,"b":["x"]}' }],
      structuredContent: { a: 1, b: ['x'] },
      isError: false,
    });
  });

  it('passes a CallToolResult through, isError, structuredContent and _meta kept', async () => {
    const result = {
      content: [{ type: 'text', text: 'not found' }],
      structuredContent: { code: 404 },
      isError: true,
      _meta: { trace: 't1' },
    } as const;
    expect(await normalizeOutput(result, plain)).toStrictEqual(result);
  });

  it('turns undefined and null into no content', async () => {
    expect(await normalizeOutput(undefined, plain)).toStrictEqual({ content: [], isError: false });
    expect(await normalizeOutput(null, plain)).toStrictEqual({ content: [], isError: false });
  });

  it('writes numbers, booleans, arrays and bigints as JSON text without structured content', async () => {
    expect(await normalizeOutput(42, plain)).toStrictEqual({
      content: [{ type: 'text', text: '42' }],
      isError: false,
    });
    expect(output(await normalizeOutput([1, 'a'], plain)).content).toStrictEqual([
      { type: 'text', text: '[1,"a"]' },
    ]);
    expect(output(await normalizeOutput(false, plain)).content).toStrictEqual([
      { type: 'text', text: 'false' },
    ]);
    expect(output(await normalizeOutput({ n: 10n }, plain)).content).toStrictEqual([
      { type: 'text', text: '{"n":"10"}' },
    ]);
  });

  it('reports a circular object as a problem instead of throwing', async () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    expect(problem(await normalizeOutput(circular, plain))).toContain('cannot be serialized');
    expect(problem(await normalizeOutput([circular], plain))).toContain('cannot be serialized');
  });
});

describe('normalizeOutput with an outputSchema', () => {
  it('strips fields the schema does not name, from structuredContent and from the text', async () => {
    const result = output(
      await normalizeOutput({ id: 'c1', name: 'Ann', stripeCustomerId: 'cus_1' }, withSchema),
    );
    expect(result.structuredContent).toStrictEqual({ id: 'c1', name: 'Ann' });
    expect(result.content).toStrictEqual([{ type: 'text', text: '{"id":"c1","name":"Ann"}' }]);
  });

  it('parses the structuredContent of a CallToolResult too', async () => {
    const result = output(
      await normalizeOutput(
        {
          content: [{ type: 'text', text: 'Ann' }],
          structuredContent: { id: 'c1', name: 'Ann', internal: true },
        },
        withSchema,
      ),
    );
    expect(result.structuredContent).toStrictEqual({ id: 'c1', name: 'Ann' });
    expect(result.content).toStrictEqual([{ type: 'text', text: 'Ann' }]);
  });

  it('reports a mismatch as a problem that names the tool and the field', async () => {
    const message = problem(await normalizeOutput({ id: 'c1', name: 7 }, withSchema));
    expect(message).toContain('tool "customers_get"');
    expect(message).toContain('does not match its outputSchema');
    expect(message).toMatch(/name: /);
  });

  it('reports a result without structured content as a problem', async () => {
    for (const value of ['text only', undefined, { content: [{ type: 'text', text: 'x' }] }]) {
      expect(problem(await normalizeOutput(value, withSchema))).toContain(
        'declares an outputSchema but returned no structured content',
      );
    }
  });

  it('does not check error results against the schema', async () => {
    const failure = { content: [{ type: 'text', text: 'boom' }], isError: true } as const;
    expect(await normalizeOutput(failure, withSchema)).toStrictEqual(failure);
  });
});
