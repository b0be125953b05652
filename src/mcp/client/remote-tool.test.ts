import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import { toToolListing } from '../../tool/index.js';
import {
  type RemoteCall,
  type RemoteCallRequest,
  toRemoteTool,
  toRemoteTools,
} from './remote-tool.js';

const recorder = (result: CallToolResult = { content: [{ type: 'text', text: 'ok' }] }) => {
  const calls: RemoteCallRequest[] = [];
  const call: RemoteCall = async (request) => {
    calls.push(request);
    return result;
  };
  return { calls, call };
};

const listed = (extra: Partial<McpTool> & { name?: string } = {}): McpTool => ({
  name: 'search',
  description: 'Search things.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});

describe('toRemoteTool', () => {
  it('keeps the hints as claimed and leaves out what is not an MCP annotation', () => {
    const annotations = {
      title: 'Search',
      readOnlyHint: true,
      destructiveHint: 'no',
      openWorldHint: false,
      'dev.example/cost': 3,
    } as unknown as McpTool['annotations'];
    const { tool } = toRemoteTool(listed({ annotations }), 'srv', recorder().call);
    expect(tool?.annotations).toEqual({
      title: 'Search',
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(toRemoteTool(listed(), 'srv', recorder().call).tool?.annotations).toEqual({});
  });

  it('skips a tool whose name breaks the MCP rules and says so', () => {
    const outcome = toRemoteTool(listed({ name: 'search files' }), 'srv', recorder().call);
    expect(outcome.tool).toBeUndefined();
    expect(outcome.problems).toEqual([
      {
        name: 'search files',
        skipped: true,
        message: expect.stringContaining('MCP server "srv" lists a tool named "search files"'),
      },
    ]);
  });

  it("uses the server's title when it gives no description", () => {
    const { description: _none, ...bare } = listed({ title: 'Find things' });
    expect(toRemoteTool(bare, 'srv', recorder().call).tool?.description).toBe('Find things');
  });

  it('sends the call with its signal and the tool name, and returns the result as is', async () => {
    const result: CallToolResult = {
      content: [{ type: 'text', text: 'hit' }],
      structuredContent: { hits: 1, extra: 'kept' },
      _meta: { 'com.example/trace': 'x' },
    };
    const { calls, call } = recorder(result);
    const definition = listed({
      outputSchema: { type: 'object', properties: { hits: { type: 'number' } } },
    });
    const { tool } = toRemoteTool(definition, 'srv', call);
    const signal = new AbortController().signal;
    await expect(tool?.execute({ q: 'a' }, { signal, callId: 'c', attempt: 1 })).resolves.toBe(
      result,
    );
    // A tool with an output schema hands the client its definition, to check the result by.
    expect(calls).toEqual([
      {
        name: 'search',
        arguments: { q: 'a' },
        signal,
        hasOutputSchema: true,
        toolDefinition: definition,
      },
    ]);
    expect(calls[0]?.toolDefinition).toBe(definition);
  });

  it("sends the call with its context's signal, so that aborting it cancels the request", async () => {
    const { calls, call } = recorder({ content: [{ type: 'text', text: 'hit' }] });
    const { tool } = toRemoteTool(listed(), 'srv', call);
    const controller = new AbortController();
    await tool?.execute({ q: 'a' }, { signal: controller.signal, callId: 'c', attempt: 1 });
    expect(calls[0]?.signal).toBe(controller.signal);
  });

  it('leaves structured results unchanged through the runtime, fields the schema does not name included', async () => {
    const { call } = recorder({
      content: [{ type: 'text', text: '{"hits":1,"extra":"kept"}' }],
      structuredContent: { hits: 1, extra: 'kept' },
    });
    const { tool } = toRemoteTool(
      listed({ outputSchema: { type: 'object', properties: { hits: { type: 'number' } } } }),
      'srv',
      call,
    );
    const registry = createRegistry();
    registry.addOrigin({ name: 'srv', layer: 'project', tools: tool === undefined ? [] : [tool] });
    const [result] = await createRuntime({ registry, mode: 'yolo' }).execute([
      { id: '1', name: 'search' },
    ]);
    expect(result?.structuredContent).toEqual({ hits: 1, extra: 'kept' });
  });

  it('lists an output schema no validator compiles as given, and calls without it', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'strang' } } };
    const definition = listed({ outputSchema });
    const { calls, call } = recorder();
    const outcome = toRemoteTool(definition, 'srv', call);
    expect(toToolListing(outcome.tool as NonNullable<typeof outcome.tool>).outputSchema).toEqual(
      outputSchema,
    );
    expect(outcome.problems.map((p) => p.message)).toEqual([
      expect.stringContaining(
        'its output schema cannot be compiled, so results are not checked against it',
      ),
    ]);
    await outcome.tool?.execute(
      {},
      { signal: new AbortController().signal, callId: 'c', attempt: 1 },
    );
    const { outputSchema: _dropped, ...withoutOutput } = definition;
    expect(calls[0]?.toolDefinition).toEqual(withoutOutput);
  });

  it('checks arguments of a draft-07 schema by the 2020-12 rules and lists the schema as given', async () => {
    const inputSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object' as const,
      properties: { count: { type: 'number' } },
      required: ['count'],
    };
    const { tool } = toRemoteTool(listed({ inputSchema }), 'srv', recorder().call);
    expect(tool?.inputSchema.jsonSchema).toEqual(inputSchema);
    expect(await tool?.inputSchema.validate({ count: 'x' })).toEqual({
      ok: false,
      message: 'count: must be number',
    });
    expect(await tool?.inputSchema.validate({ count: 2 })).toEqual({
      ok: true,
      value: { count: 2 },
    });
  });
});

describe('toRemoteTools', () => {
  it('skips a second tool of the same name', () => {
    const set = toRemoteTools(
      [listed(), listed({ description: 'Another.' })],
      'srv',
      recorder().call,
    );
    expect(set.tools.map((t) => t.description)).toEqual(['Search things.']);
    expect(set.problems).toEqual([
      { name: 'search', skipped: true, message: expect.stringContaining('more than once') },
    ]);
  });

  it('keeps the tool objects of definitions that did not change', () => {
    const { call } = recorder();
    const first = toRemoteTools([listed(), listed({ name: 'fetch' })], 'srv', call);
    const second = toRemoteTools(
      [listed(), listed({ name: 'fetch', description: 'Changed.' })],
      'srv',
      call,
      first,
    );
    expect(second.tools[0]).toBe(first.tools[0]);
    expect(second.tools[1]).not.toBe(first.tools[1]);
    expect(second.tools[1]?.description).toBe('Changed.');
  });
});

describe('toRemoteTools with a bad tool among good ones', () => {
  const bad = (extra: Record<string, unknown>) =>
    ({ ...listed({ name: 'bad' }), ...extra }) as McpTool;

  it.each([
    [
      'an input schema that is not an object schema',
      { inputSchema: { type: 'string' } },
      /must describe an object \("type": "object"\), got "type": "string"/,
    ],
    ['no input schema at all', { inputSchema: null }, /must be a JSON Schema object, got null/],
    [
      'an invalid declared rate limit beside a schema that does not compile',
      { inputSchema: { type: 'object', properties: 3 }, annotations: { custom: { rateLimit: 5 } } },
      /rateLimit must be/,
    ],
  ])('skips a tool with %s, says why, and registers the others', (_, extra, why) => {
    for (const schemas of ['eager', 'lazy'] as const) {
      const set = toRemoteTools(
        [listed(), bad(extra), listed({ name: 'fetch' })],
        'srv',
        recorder().call,
        undefined,
        { schemas },
      );
      expect(set.tools.map((t) => t.name)).toEqual(['search', 'fetch']);
      const skipped = set.problems.filter((p) => p.skipped);
      expect(skipped).toEqual([
        { name: 'bad', skipped: true, message: expect.stringMatching(why) },
      ]);
      expect(skipped[0]?.message).toContain('tool "bad" of MCP server "srv" cannot be registered');
    }
  });

  it('describes a tool by its title or name when its description is not a string, and leaves out a title that is not one', () => {
    const set = toRemoteTools(
      [
        bad({ description: { text: 'x' }, title: 7 }),
        bad({ name: 'titled', description: 3, title: 'Titled' }),
      ],
      'srv',
      recorder().call,
    );
    expect(set.tools.map((t) => [t.name, t.title, t.description])).toEqual([
      ['bad', undefined, 'bad'],
      ['titled', 'Titled', 'Titled'],
    ]);
    expect(set.problems).toEqual([
      {
        name: 'bad',
        skipped: false,
        message: expect.stringContaining('its title is not a string (7)'),
      },
    ]);
  });

  it('reports a list entry that is not an object instead of failing the list', () => {
    const set = toRemoteTools([null, listed()] as unknown as McpTool[], 'srv', recorder().call);
    expect(set.tools.map((t) => t.name)).toEqual(['search']);
    expect(set.problems).toEqual([
      {
        name: 'undefined',
        skipped: true,
        message: expect.stringContaining('MCP server "srv" lists a tool named undefined'),
      },
    ]);
  });
});

describe('toRemoteTools with schemas: lazy', () => {
  it('compiles an input schema on first use, with defaults and errors as eagerly', async () => {
    const inputSchema = {
      type: 'object' as const,
      properties: { count: { type: 'number' }, unit: { type: 'string', default: 'kg' } },
      required: ['count'],
    };
    const { tools, problems } = toRemoteTools(
      [listed({ inputSchema })],
      'srv',
      recorder().call,
      undefined,
      { schemas: 'lazy' },
    );
    expect(problems).toEqual([]);
    expect(tools[0]?.inputSchema.jsonSchema).toEqual(inputSchema);
    expect(await tools[0]?.inputSchema.validate({ count: 'x' })).toEqual({
      ok: false,
      message: 'count: must be number',
    });
    expect(await tools[0]?.inputSchema.validate({ count: 2 })).toEqual({
      ok: true,
      value: { count: 2, unit: 'kg' },
    });
  });

  it('reports a schema no validator compiles on the first call, once, and calls unchecked', async () => {
    const inputSchema = { type: 'object' as const, properties: { n: { type: 'strang' } } };
    const outputSchema = { type: 'object', properties: { n: { type: 'strang' } } };
    const late: string[] = [];
    const { calls, call } = recorder();
    const { tools, problems } = toRemoteTools(
      [listed({ inputSchema, outputSchema })],
      'srv',
      call,
      undefined,
      { schemas: 'lazy', onProblem: (problem) => late.push(problem.message) },
    );
    expect(problems).toEqual([]);
    const tool = tools[0];
    expect(toToolListing(tool as NonNullable<typeof tool>).inputSchema).toEqual(inputSchema);
    expect(await tool?.inputSchema.validate({ n: 'anything' })).toEqual({
      ok: true,
      value: { n: 'anything' },
    });
    await tool?.inputSchema.validate({ n: 1 });
    const context = { signal: new AbortController().signal, callId: 'c', attempt: 1 };
    await tool?.execute({}, context);
    await tool?.execute({}, context);
    expect(late).toEqual([
      expect.stringContaining('its input schema cannot be compiled'),
      expect.stringContaining('its output schema cannot be compiled'),
    ]);
    const { outputSchema: _dropped, ...withoutOutput } = listed({ inputSchema, outputSchema });
    expect(calls[0]?.toolDefinition).toEqual(withoutOutput);
  });
});
