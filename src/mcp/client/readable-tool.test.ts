import { ToolSchema } from '@modelcontextprotocol/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readableTool, surelyReadable } from './readable-tool.js';

// Field values as a server may list them: the shapes the MCP client's ToolSchema wants and
// every kind of JSON it does not.
const json = fc.jsonValue({ maxDepth: 2 });
const field = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: json });
const strings = fc.array(fc.string(), { maxLength: 3 });
const icon = fc.record(
  {
    src: field(fc.string()),
    mimeType: field(fc.string()),
    sizes: field(strings),
    theme: field(fc.constantFrom('light', 'dark', 'dim')),
  },
  { requiredKeys: [] },
);
const tool = fc.record(
  {
    name: field(fc.string()),
    title: field(fc.string()),
    description: field(fc.string()),
    icons: field(fc.array(icon, { maxLength: 2 })),
    inputSchema: field(
      fc.record(
        {
          type: field(fc.constant('object')),
          properties: field(fc.dictionary(fc.string(), json, { maxKeys: 2 })),
          required: field(strings),
        },
        { requiredKeys: [] },
      ),
    ),
    outputSchema: field(fc.record({ $schema: field(fc.string()) }, { requiredKeys: [] })),
    annotations: field(
      fc.record(
        {
          title: field(fc.string()),
          readOnlyHint: field(fc.boolean()),
          destructiveHint: field(fc.boolean()),
          custom: json,
        },
        { requiredKeys: [] },
      ),
    ),
    execution: field(
      fc.record({ taskSupport: field(fc.constantFrom('required', 'optional', 'never')) }),
    ),
    _meta: field(fc.dictionary(fc.string(), json, { maxKeys: 2 })),
  },
  { requiredKeys: [] },
);
const listed = fc.oneof({ weight: 9, arbitrary: tool }, { weight: 1, arbitrary: json });
const readsAs = (value: unknown): boolean => ToolSchema.safeParse(value).success;

describe('readableTool, held to the MCP client schema', () => {
  it('vouches only for tools the schema accepts (a stricter schema after an SDK upgrade fails here)', () => {
    fc.assert(
      fc.property(listed, (value) => {
        if (surelyReadable(value)) expect(readsAs(value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps exactly the tools the schema accepts as listed, and only readable tools at all', () => {
    fc.assert(
      fc.property(listed, (value) => {
        const { tool, faults } = readableTool(value);
        if (readsAs(value)) {
          expect(tool).toBe(value);
          expect(faults).toEqual([]);
        } else {
          expect(faults.length).toBeGreaterThan(0);
          if (tool !== undefined) expect(readsAs(tool)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('serves a tool without the fields it can do without, each named', () => {
    const { tool, faults } = readableTool({
      name: 'lookup',
      description: 42,
      icons: 'icon.png',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      annotations: { readOnlyHint: 'yes', destructiveHint: false, custom: { rateLimit: 'x' } },
      execution: { taskSupport: 'sometimes' },
    });
    expect(tool).toEqual({
      name: 'lookup',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      annotations: { destructiveHint: false, custom: { rateLimit: 'x' } },
    });
    expect(faults).toEqual([
      expect.stringMatching(/^icons: .*expected array/),
      expect.stringMatching(/^description: .*expected string/),
      expect.stringMatching(/^annotations\.readOnlyHint: .*expected boolean/),
      expect.stringMatching(/^execution\.taskSupport: /),
    ]);
  });

  it('keeps no tool whose name, input schema or output schema the client cannot read', () => {
    for (const bad of [
      { name: 7, inputSchema: { type: 'object' } },
      { name: 'text', inputSchema: { type: 'string' } },
      { name: 'text', inputSchema: { type: 'object', required: 'q' } },
      { name: 'text', inputSchema: { type: 'object' }, outputSchema: { $schema: 1 } },
      { name: 'text', description: 3, inputSchema: [] },
      'a tool',
      null,
    ]) {
      const { tool, faults } = readableTool(bad);
      expect(tool).toBeUndefined();
      expect(faults.length).toBeGreaterThan(0);
    }
  });
});
