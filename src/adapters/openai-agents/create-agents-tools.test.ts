import { Agent, RunState, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../../audit/index.js';
import { HintgateError } from '../../errors/index.js';
import { stdioFixture } from '../../mcp/client/fixtures/fixtures.test-helpers.js';
import { connectMcpServer } from '../../mcp/client/index.js';
import { createRegistry } from '../../registry/index.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { DESTRUCTIVE, defineTool, READ_ONLY, type Tool, WRITE } from '../../tool/index.js';
import { createAgentsTools } from './create-agents-tools.js';

setTracingDisabled(true);

/** A promise and the function that resolves it. */
const latch = () => {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

/** File tools over an in-memory map that record when each call starts and ends. */
const fileTools = (files: Map<string, string>, timeline: string[]) => {
  const readBStarted = latch();
  const read = defineTool({
    name: 'read_file',
    description: 'Read a file.',
    annotations: READ_ONLY,
    inputSchema: z.object({ path: z.string() }),
    resources: ['file:{path}'],
    execute: async ({ path }) => {
      timeline.push(`start read ${path}`);
      // Ends only once the read of b has started, so that the two can only both end if they
      // overlap (the fallback ends the test instead of hanging it, with a timeline that fails).
      if (path === 'a') {
        await Promise.race([readBStarted.opened, new Promise((r) => setTimeout(r, 5_000))]);
      }
      if (path === 'b') readBStarted.open();
      timeline.push(`end read ${path}`);
      return files.get(path) ?? '(no such file)';
    },
  });
  const write = defineTool({
    name: 'write_file',
    description: 'Create or replace a file.',
    annotations: WRITE,
    inputSchema: z.object({ path: z.string(), text: z.string() }),
    resources: ['file:{path}'],
    execute: async ({ path, text }) => {
      timeline.push(`start write ${path}`);
      await new Promise((r) => setImmediate(r));
      files.set(path, text);
      timeline.push(`end write ${path}`);
      return { written: path };
    },
  });
  const remove = defineTool({
    name: 'delete_file',
    description: 'Delete a file.',
    annotations: DESTRUCTIVE,
    inputSchema: z.object({ path: z.string() }),
    resources: ['file:{path}'],
    execute: async ({ path }) => {
      timeline.push(`delete ${path}`);
      files.delete(path);
      return `deleted ${path}`;
    },
  });
  return [read, write, remove] as Tool[];
};

/** The function call outputs the model was given in its `index`-th request, by call id. */
const outputsSeen = (model: ScriptedModel, index: number): Record<string, unknown> => {
  const input = model.calls[index]?.request.input;
  if (!Array.isArray(input)) return {};
  return Object.fromEntries(
    input
      .filter((item) => item.type === 'function_call_result')
      .map((item) => [item.callId, item.output]),
  );
};

const text = (value: string) => ({ type: 'text', text: value });

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

describe('createAgentsTools: order of one step', () => {
  it('runs [READ(a), WRITE(a), READ(b)] of one step with READ(b) alongside READ(a) and WRITE(a) after READ(a)', async () => {
    const files = new Map([
      ['a', 'old a'],
      ['b', 'bee'],
    ]);
    const timeline: string[] = [];
    const audit = createMemoryAuditSink();
    runtime = createRuntime({
      tools: fileTools(files, timeline),
      mode: 'auto',
      auditSinks: [audit],
    });
    const model = new ScriptedModel([
      [
        functionCall('read_file', { path: 'a' }, { callId: 'c1' }),
        functionCall('write_file', { path: 'a', text: 'new a' }, { callId: 'c2' }),
        functionCall('read_file', { path: 'b' }, { callId: 'c3' }),
      ],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    const result = await run(agent, 'update a');

    expect(result.finalOutput).toBe('done');
    const at = (event: string) => timeline.indexOf(event);
    expect(at('start read b')).toBeGreaterThanOrEqual(0);
    expect(at('start read b')).toBeLessThan(at('end read a'));
    expect(at('start write a')).toBeGreaterThan(at('end read a'));
    // READ(a) read the file before WRITE(a) changed it, as the model's order says.
    expect(outputsSeen(model, 1)).toEqual({
      c1: text('old a'),
      c2: text('{"written":"a"}'),
      c3: text('bee'),
    });
    expect(files.get('a')).toBe('new a');
    // One step is one hintgate turn: its calls share the audit batch id.
    const started = audit.events.filter((event) => event.type === 'call.started');
    expect(started.map((event) => event.callId).sort()).toEqual(['c1', 'c2', 'c3']);
    expect(new Set(started.map((event) => event.batchId)).size).toBe(1);
  });

  it('keeps the model order when the first call of a step is checked last', async () => {
    // read_file validates its arguments asynchronously and slowly, so hintgate decides on
    // WRITE(a) first and the SDK reaches execute for it before READ(a); READ(a) still runs
    // first and reads the old text.
    const files = new Map([['a', 'old a']]);
    const timeline: string[] = [];
    const [, write] = fileTools(files, timeline);
    const pathSchema = { type: 'object', properties: { path: { type: 'string' } } };
    const slowRead = defineTool({
      name: 'read_file',
      description: 'Read a file.',
      annotations: READ_ONLY,
      inputSchema: {
        '~standard': {
          version: 1,
          vendor: 'slow',
          validate: async (value: unknown) => {
            await new Promise((r) => setTimeout(r, 20));
            timeline.push('validated read');
            return { value: value as { path: string } };
          },
          jsonSchema: { input: () => pathSchema, output: () => pathSchema },
        },
      } as StandardSchemaV1<unknown, { path: string }>,
      resources: ['file:{path}'],
      execute: async ({ path }) => {
        timeline.push(`read ${path}: ${files.get(path)}`);
        return files.get(path) ?? '';
      },
    });
    runtime = createRuntime({ tools: [slowRead, write as Tool], mode: 'auto' });
    const model = new ScriptedModel([
      [
        functionCall('read_file', { path: 'a' }, { callId: 'c1' }),
        functionCall('write_file', { path: 'a', text: 'new a' }, { callId: 'c2' }),
      ],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    await run(agent, 'go');

    expect(timeline.filter((event) => event !== 'validated read')).toEqual([
      'read a: old a',
      'start write a',
      'end write a',
    ]);
    expect(outputsSeen(model, 1)).toEqual({ c1: text('old a'), c2: text('{"written":"a"}') });
  });
});

describe('createAgentsTools: approvals through the SDK', () => {
  const step = [
    functionCall('read_file', { path: 'b' }, { callId: 'c1' }),
    functionCall('write_file', { path: 'a', text: 'new a' }, { callId: 'c2' }),
  ];

  it('shows a write hintgate asks about as an interruption, approved with RunState.approve after serialization, and runs it', async () => {
    const files = new Map([
      ['a', 'old a'],
      ['b', 'bee'],
    ]);
    const timeline: string[] = [];
    const audit = createMemoryAuditSink();
    runtime = createRuntime({
      tools: fileTools(files, timeline),
      mode: 'ask',
      auditSinks: [audit],
    });
    const model = new ScriptedModel([step, [assistantMessage('done')]]);
    const tools = createAgentsTools({ runtime });
    const makeAgent = () => new Agent({ name: 'files', model, tools });

    const first = await run(makeAgent(), 'go');

    expect(first.interruptions.map((item) => [item.name, item.arguments])).toEqual([
      ['write_file', '{"path":"a","text":"new a"}'],
    ]);
    expect(timeline).toEqual(['start read b', 'end read b']);
    expect(files.get('a')).toBe('old a');
    // Nothing about the write reached hintgate's audit while the person had not answered.
    expect(audit.events.filter((event) => event.callId === 'c2')).toEqual([]);

    // Stored and restored, as when the person answers later, in another process.
    const restored = await RunState.fromString(makeAgent(), first.state.toString());
    const [item] = restored.getInterruptions();
    if (item === undefined) throw new Error('the restored state lost its interruption');
    restored.approve(item);
    const second = await run(makeAgent(), restored);

    expect(second.finalOutput).toBe('done');
    expect(files.get('a')).toBe('new a');
    expect(outputsSeen(model, 1)).toEqual({ c1: text('bee'), c2: text('{"written":"a"}') });
    expect(
      audit.events.filter((event) => event.callId === 'c2').map((event) => event.type),
    ).toEqual(['approval.requested', 'approval.granted', 'call.started', 'call.succeeded']);
    const granted = audit.events.find((event) => event.type === 'approval.granted');
    expect(granted?.reason).toContain('approved in the OpenAI Agents SDK');
    // Approved for this call only: the same write asks again.
    const again = { id: 'x', name: 'write_file', arguments: { path: 'a', text: 'new a' } };
    expect((await runtime.decide(again)).decision).toBe('ask');
  });

  it('holds back [WRITE(a) waiting for approval, READ(a)]: READ(a) does not run before the write, READ(b) runs', async () => {
    const files = new Map([
      ['a', 'old a'],
      ['b', 'bee'],
    ]);
    const timeline: string[] = [];
    runtime = createRuntime({ tools: fileTools(files, timeline), mode: 'ask' });
    const model = new ScriptedModel([
      [
        functionCall('write_file', { path: 'a', text: 'new a' }, { callId: 'c1' }),
        functionCall('read_file', { path: 'a' }, { callId: 'c2' }),
        functionCall('read_file', { path: 'b' }, { callId: 'c3' }),
      ],
      // The model makes the held call again, as its result tells it to.
      [functionCall('read_file', { path: 'a' }, { callId: 'c4' })],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    const first = await run(agent, 'go');
    expect(first.interruptions.map((item) => item.rawItem)).toMatchObject([{ callId: 'c1' }]);
    expect(timeline).toEqual(['start read b', 'end read b']);
    const [item] = first.interruptions;
    if (item === undefined) throw new Error('expected an interruption');
    first.state.approve(item);
    await run(agent, first.state);

    const seen = outputsSeen(model, 1);
    expect(seen.c1).toEqual(text('{"written":"a"}'));
    expect(seen.c3).toEqual(text('bee'));
    expect((seen.c2 as { text: string }).text).toBe(
      'Error (deferred): "read_file" was not run. It must run after call c1 ("write_file"), an earlier call of this response that it conflicts with, which waits for the user\'s approval. Make this call again once c1 has its result.',
    );
    expect(outputsSeen(model, 2).c4).toEqual(text('new a'));
  });

  it('remembers alwaysApprove for the session in hintgate', async () => {
    const files = new Map([['b', 'bee']]);
    runtime = createRuntime({ tools: fileTools(files, []), mode: 'ask' });
    const model = new ScriptedModel([step, [assistantMessage('done')]]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    const first = await run(agent, 'go');
    const [item] = first.interruptions;
    if (item === undefined) throw new Error('expected an interruption');
    first.state.approve(item, { alwaysApprove: true });
    await run(agent, first.state);

    expect(files.get('a')).toBe('new a');
    const again = { id: 'x', name: 'write_file', arguments: { path: 'a', text: 'new a' } };
    expect(await runtime.decide(again)).toMatchObject({ decision: 'allow' });
  });

  it('never runs a call the person rejected; the model reads the rejection', async () => {
    const files = new Map([['b', 'bee']]);
    const timeline: string[] = [];
    runtime = createRuntime({ tools: fileTools(files, timeline), mode: 'ask' });
    const model = new ScriptedModel([step, [assistantMessage('done')]]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    const first = await run(agent, 'go');
    const [item] = first.interruptions;
    if (item === undefined) throw new Error('expected an interruption');
    first.state.reject(item, { message: 'Not now: the user declined writing a.' });
    const second = await run(agent, first.state);

    expect(second.finalOutput).toBe('done');
    expect(files.has('a')).toBe(false);
    expect(timeline).toEqual(['start read b', 'end read b']);
    expect(outputsSeen(model, 1).c2).toEqual(text('Not now: the user declined writing a.'));
  });

  it('asks in a streamed run too', async () => {
    const files = new Map([['b', 'bee']]);
    runtime = createRuntime({ tools: fileTools(files, []), mode: 'ask' });
    const model = new ScriptedModel([step, [assistantMessage('done')]]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    const first = await run(agent, 'go', { stream: true });
    const events: string[] = [];
    for await (const event of first) {
      if (event.type === 'run_item_stream_event') events.push(event.name);
    }
    await first.completed;
    expect(events).toContain('tool_approval_requested');
    const [item] = first.interruptions;
    if (item === undefined) throw new Error('expected an interruption');
    first.state.approve(item);
    const second = await run(agent, first.state, { stream: true });
    for await (const _ of second) {
      // drain
    }
    await second.completed;

    expect(second.finalOutput).toBe('done');
    expect(files.get('a')).toBe('new a');
  });
});

describe('createAgentsTools: what the model reads', () => {
  it('reads a call hintgate denies as a tool error, and the tool does not run', async () => {
    const files = new Map([['a', 'old a']]);
    const timeline: string[] = [];
    runtime = createRuntime({
      tools: fileTools(files, timeline),
      mode: 'auto',
      rules: [{ tool: 'delete_file', decision: 'deny', reason: 'deleting is not allowed here' }],
    });
    const model = new ScriptedModel([
      [functionCall('delete_file', { path: 'a' }, { callId: 'c1' })],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    const result = await run(agent, 'go');

    expect(result.interruptions).toEqual([]);
    expect(timeline).toEqual([]);
    expect(files.get('a')).toBe('old a');
    const seen = outputsSeen(model, 1).c1 as { text: string };
    expect(seen.text).toMatch(/^Error \(denied\): The call to "delete_file" was denied: /);
    expect(seen.text).toContain('deleting is not allowed here');
  });

  it('returns results in the SDK format: text, JSON text of objects, images, and errors as text', async () => {
    const image = defineTool({
      name: 'screenshot',
      description: 'Take a screenshot.',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: () => ({
        content: [
          { type: 'text', text: 'the screen:' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      }),
    });
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      annotations: READ_ONLY,
      inputSchema: z.object({ n: z.number() }),
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    runtime = createRuntime({ tools: [...fileTools(new Map(), []), image, broken], mode: 'yolo' });
    const model = new ScriptedModel([
      [
        functionCall('write_file', { path: 'a', text: 't' }, { callId: 'c1' }),
        functionCall('screenshot', {}, { callId: 'c2' }),
        functionCall('broken', { n: 1 }, { callId: 'c3' }),
        functionCall('broken', { n: 'one' }, { callId: 'c4' }),
      ],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({ name: 'files', model, tools: createAgentsTools({ runtime }) });

    await run(agent, 'go');

    const seen = outputsSeen(model, 1);
    expect(seen.c1).toEqual(text('{"written":"a"}'));
    expect(seen.c2).toEqual([
      { type: 'input_text', text: 'the screen:' },
      { type: 'input_image', image: 'data:image/png;base64,iVBORw0KGgo=' },
    ]);
    expect((seen.c3 as { text: string }).text).toMatch(/^Error \(tool_error\): .*disk on fire/);
    expect((seen.c4 as { text: string }).text).toMatch(/^Error \(invalid_arguments\): .*n/);
  });
});

describe('createAgentsTools: calls that never reach the tool', () => {
  it('never runs a call whose arguments are not JSON, approved or not', async () => {
    const timeline: string[] = [];
    runtime = createRuntime({ tools: fileTools(new Map(), timeline), mode: 'yolo' });
    const model = new ScriptedModel([
      [functionCall('read_file', '{"path": "a"', { callId: 'c1' })],
      [assistantMessage('done')],
    ]);
    const agent = new Agent({ name: 'a', model, tools: createAgentsTools({ runtime }) });

    const first = await run(agent, 'go');
    const [item] = first.interruptions;
    if (item === undefined) throw new Error('the SDK asks about a call it cannot parse');
    first.state.approve(item);
    await run(agent, first.state);

    expect(timeline).toEqual([]);
    expect((outputsSeen(model, 1).c1 as { text: string }).text).toMatch(/parsing tool arguments/);
  });

  it('stops the run when the runtime was closed', async () => {
    runtime = createRuntime({ tools: fileTools(new Map(), []), mode: 'yolo' });
    const model = new ScriptedModel([[functionCall('read_file', { path: 'a' }, { callId: 'c1' })]]);
    const agent = new Agent({ name: 'a', model, tools: createAgentsTools({ runtime }) });
    await runtime.close();

    await expect(run(agent, 'go')).rejects.toThrow(/runtime is shutting down or closed/);
  });
});

describe('createAgentsTools: schemas and names', () => {
  const search = defineTool({
    name: 'search',
    description: 'Search the project.',
    annotations: READ_ONLY,
    inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
    execute: ({ query, limit }) => `${query}:${limit ?? 'all'}`,
  });

  it('offers zod tools in strict mode, with plain JSON Schema parameters, and also without it', () => {
    runtime = createRuntime({ tools: [search], mode: 'yolo' });
    const [strict] = createAgentsTools({ runtime });
    expect(strict?.strict).toBe(true);
    expect(strict?.parameters).toMatchObject({
      type: 'object',
      required: ['query', 'limit'],
      additionalProperties: false,
    });
    expect('~standard' in (strict?.parameters ?? {})).toBe(false);
    // The SDK refused this while the listed schema carried zod's hidden ~standard key.
    const [loose] = createAgentsTools({ runtime, strict: false });
    expect(loose?.strict).toBe(false);
    expect(loose?.parameters).toMatchObject({ required: ['query'] });
    // The runtime's own listing is left as it was.
    expect(runtime.listTools()[0]?.inputSchema).not.toHaveProperty('additionalProperties');
  });

  it('runs a strict call whose optional argument the model sent as null without it', async () => {
    runtime = createRuntime({ tools: [search], mode: 'yolo' });
    const model = new ScriptedModel([
      [functionCall('search', { query: 'todo', limit: null }, { callId: 'c1' })],
      [assistantMessage('done')],
    ]);
    await run(new Agent({ name: 'a', model, tools: createAgentsTools({ runtime }) }), 'go');
    expect(outputsSeen(model, 1)).toEqual({ c1: text('todo:all') });
  });

  it('offers a schema strict mode cannot take without strict mode, or refuses it with strict: true', () => {
    const either = defineTool({
      name: 'either',
      description: 'Takes a string or a number.',
      annotations: READ_ONLY,
      inputSchema: {
        type: 'object',
        properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
        required: ['v'],
      },
      execute: () => 'ok',
    });
    runtime = createRuntime({ tools: [either, search], mode: 'yolo' });
    expect(createAgentsTools({ runtime }).map((t) => [t.name, t.strict])).toEqual([
      ['either', false],
      ['search', true],
    ]);
    const error = (() => {
      try {
        createAgentsTools({ runtime, strict: true });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(HintgateError);
    expect(error).toMatchObject({ code: 'invalid_schema' });
    expect((error as Error).message).toContain('"either"');
    expect((error as Error).message).toContain("strict: 'auto'");
  });

  it('refuses two tools whose names become the same function name', () => {
    const named = (name: string) =>
      defineTool({
        name,
        description: name,
        annotations: READ_ONLY,
        inputSchema: z.object({}),
        execute: () => name,
      });
    runtime = createRuntime({ tools: [named('notes.read'), named('notes_read')], mode: 'yolo' });
    expect(() => createAgentsTools({ runtime: runtime as Runtime })).toThrow(
      expect.objectContaining({
        code: 'duplicate_tool',
        message: expect.stringContaining('"notes_read"'),
      }),
    );
  });

  it('refuses bad options with a message naming the option', () => {
    runtime = createRuntime({ tools: [search] });
    const bad = (options: unknown) => () =>
      createAgentsTools(options as Parameters<typeof createAgentsTools>[0]);
    expect(bad(undefined)).toThrow(/expects one options object/);
    expect(bad({})).toThrow(/runtime must be a runtime made by createRuntime/);
    expect(bad({ runtime, strict: 'yes' })).toThrow(
      /strict must be true, false or 'auto', not "yes"/,
    );
    expect(bad({ runtime, scopes: 'read' })).toThrow(/scopes must be a list/);
    expect(bad({ runtime, session: 3 })).toThrow(/session must be a string/);
    expect(bad({ runtime, alwaysApprove: 'forever' })).toThrow(
      /alwaysApprove must be 'session' or 'always'/,
    );
    expect(bad({ runtime, mode: 'yolo' })).toThrow(/unknown option "mode"/);
    expect(bad({})).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });

  it('lists only the tools the scopes and the mode allow', () => {
    const write = fileTools(new Map(), [])[1] as Tool;
    runtime = createRuntime({ tools: [search, write], mode: 'plan' });
    expect(createAgentsTools({ runtime }).map((t) => t.name)).toEqual(['search']);
  });
});

describe('createAgentsTools: remote MCP tools', () => {
  it('offers the tools of a connected MCP server, whatever their schemas, and runs their calls', async () => {
    const registry = createRegistry();
    const connection = await connectMcpServer({ name: 'fixture', registry, ...stdioFixture() });
    try {
      runtime = createRuntime({ registry, mode: 'yolo', trust: { origins: { fixture: true } } });
      const tools = createAgentsTools({ runtime });
      expect(tools.map((t) => t.name)).toEqual(runtime.listTools().map((t) => t.name));
      expect(tools.find((t) => t.name === 'lookup')?.strict).toBe(true);
      const model = new ScriptedModel([
        [
          functionCall('lookup', { key: 'k1' }, { callId: 'c1' }),
          functionCall('fails', {}, { callId: 'c2' }),
        ],
        [assistantMessage('done')],
      ]);
      await run(new Agent({ name: 'a', model, tools }), 'go');
      expect(outputsSeen(model, 1)).toEqual({
        c1: text('{"found":true,"key":"k1"}'),
        c2: text('Error (tool_error): lookup failed: no such record'),
      });
    } finally {
      await connection.close();
    }
  });
});
