import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, isStepCount, jsonSchema, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../../audit/index.js';
import { HintgateError } from '../../errors/index.js';
import { stdioFixture } from '../../mcp/client/fixtures/fixtures.test-helpers.js';
import { createRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import { READ_ONLY, WRITE } from '../../tool/index.js';
import { latch, text, toolCalls } from './ai-sdk.test-helpers.js';
import { createAiSdkTools } from './create-ai-sdk-tools.js';
import { fromAiSdkTools } from './from-ai-sdk-tools.js';

/** An app's own AI SDK tools over an in-memory note store, logging starts and ends. */
const noteTools = (notes: Map<string, string>, events: string[], readHeld?: Promise<void>) => ({
  read_note: tool({
    description: 'Read a note.',
    inputSchema: z.object({ id: z.string() }),
    execute: async ({ id }, { toolCallId }) => {
      events.push(`start ${toolCallId}`);
      if (id === 'a' && readHeld !== undefined) await readHeld;
      events.push(`end ${toolCallId}`);
      return notes.get(id) ?? '';
    },
  }),
  write_note: tool({
    description: 'Write a note.',
    inputSchema: z.object({ id: z.string(), text: z.string() }),
    execute: async ({ id, text: value }, { toolCallId }) => {
      events.push(`start ${toolCallId}`);
      notes.set(id, value);
      events.push(`end ${toolCallId}`);
      return { saved: id };
    },
  }),
});

describe('fromAiSdkTools: an app ToolSet', () => {
  it('gets scheduling, policy and audit: one model step of [READ(a), WRITE(a), READ(b)] through hintgate', async () => {
    const notes = new Map([
      ['a', 'old a'],
      ['b', 'bee'],
    ]);
    const events: string[] = [];
    const readB = latch();
    const appTools = noteTools(notes, events, readB.opened);
    // READ(b) starting lets READ(a) end: they must overlap.
    const readNote = appTools.read_note;
    const wrapped = {
      ...appTools,
      read_note: {
        ...readNote,
        execute: (
          input: { id: string },
          options: Parameters<NonNullable<typeof readNote.execute>>[1],
        ) => {
          if (input.id === 'b') readB.open();
          return readNote.execute?.(input, options);
        },
      },
    } as ToolSet;
    const audit = createMemoryAuditSink();
    const runtime = createRuntime({
      tools: await fromAiSdkTools(wrapped, {
        tools: {
          read_note: { annotations: READ_ONLY, resources: ['note:{id}'] },
          write_note: { annotations: WRITE, resources: ['note:{id}'] },
        },
      }),
      mode: 'auto',
      auditSinks: [audit],
    });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCalls([
          ['c1', 'read_note', { id: 'a' }],
          ['c2', 'write_note', { id: 'a', text: 'new a' }],
          ['c3', 'read_note', { id: 'b' }],
        ]),
        text('done'),
      ],
    });
    await generateText({
      model,
      prompt: 'x',
      stopWhen: isStepCount(2),
      ...createAiSdkTools({ runtime }),
    });
    expect(events.indexOf('start c3')).toBeLessThan(events.indexOf('end c1'));
    expect(events.indexOf('start c2')).toBeGreaterThan(events.indexOf('end c1'));
    expect(notes.get('a')).toBe('new a');
    expect(model.doGenerateCalls[1]?.prompt.at(-1)?.content).toMatchObject([
      { toolCallId: 'c1', output: { type: 'text', value: 'old a' } },
      { toolCallId: 'c2', output: { type: 'text', value: '{"saved":"a"}' } },
      { toolCallId: 'c3', output: { type: 'text', value: 'bee' } },
    ]);
    const succeeded = audit.events.filter((e) => e.type === 'call.succeeded').map((e) => e.callId);
    expect([...succeeded].sort()).toEqual(['c1', 'c2', 'c3']);
    expect(succeeded.indexOf('c2')).toBeGreaterThan(succeeded.indexOf('c1'));
  });

  it("validates with the tool's own schema (defaults applied) and lists its JSON Schema", async () => {
    const seen: unknown[] = [];
    const [made] = await fromAiSdkTools({
      count: tool({
        description: 'Counts.',
        inputSchema: z.object({ n: z.number().default(3) }),
        execute: async (input) => {
          seen.push(input);
          return 'ok';
        },
      }),
    });
    const runtime = createRuntime({ tools: made === undefined ? [] : [made], mode: 'yolo' });
    expect(runtime.listTools()[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { n: { type: 'number', default: 3 } },
    });
    const [ok, bad] = await runtime.execute([
      { id: '1', name: 'count', arguments: {} },
      { id: '2', name: 'count', arguments: { n: 'x' } },
    ]);
    expect(ok?.status).toBe('ok');
    expect(seen).toEqual([{ n: 3 }]);
    expect(bad?.error?.code).toBe('invalid_arguments');
  });

  it('returns the last value of a tool that streams previews, and hands the call its abort signal', async () => {
    const aborted: string[] = [];
    const tools = await fromAiSdkTools(
      {
        progress: tool({
          description: 'Streams previews.',
          inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
          async *execute() {
            yield 'one';
            yield 'two';
            yield 'final';
          },
        }),
        hang: tool({
          description: 'Waits until aborted.',
          inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
          execute: (_input, { abortSignal }) =>
            new Promise((resolve) => {
              abortSignal?.addEventListener('abort', () => {
                aborted.push(String(abortSignal.reason?.name));
                resolve('stopped');
              });
            }),
        }),
      },
      { tools: { hang: { timeoutMs: 50 } } },
    );
    const runtime = createRuntime({ tools, mode: 'yolo' });
    const [progress, hang] = await runtime.execute([
      { id: '1', name: 'progress' },
      { id: '2', name: 'hang' },
    ]);
    expect(progress?.content).toEqual([{ type: 'text', text: 'final' }]);
    expect(hang?.status).toBe('timeout');
    expect(aborted).toEqual(['TimeoutError']);
  });

  it('refuses what hintgate cannot run or a configuration that names no tool, saying what to do', async () => {
    const plain = tool({
      description: 'x',
      inputSchema: jsonSchema({ type: 'object', properties: {} }),
      execute: async () => 'x',
    });
    const clientSide = tool({ description: 'x', inputSchema: jsonSchema({ type: 'object' }) });
    await expect(fromAiSdkTools({ ask_user: clientSide } as unknown as ToolSet)).rejects.toThrow(
      /AI SDK tool "ask_user" has no execute function.*Leave it out of the set/,
    );
    await expect(
      fromAiSdkTools({
        search: {
          type: 'provider',
          id: 'openai.web_search',
          args: {},
          inputSchema: jsonSchema({}),
          isProviderExecuted: true,
        },
      } as unknown as ToolSet),
    ).rejects.toThrow(/provider tool \(openai.web_search\)/);
    await expect(
      fromAiSdkTools({ plain }, { tools: { plian: { annotations: READ_ONLY } } }),
    ).rejects.toThrow(/tools.plian names no tool of the set. Its tools: plain/);
    await expect(
      fromAiSdkTools({ plain }, { tools: { plain: { readOnly: true } as never } }),
    ).rejects.toThrow(HintgateError);
    await expect(fromAiSdkTools({ 'bad name': plain })).rejects.toThrow(/breaks the MCP rules/);
  });
});

describe('fromAiSdkTools: tools of an MCP server through @ai-sdk/mcp', () => {
  let client: MCPClient;
  let mcpTools: ToolSet;
  beforeAll(async () => {
    const target = stdioFixture();
    client = await createMCPClient({
      transport: new Experimental_StdioMCPTransport({
        command: target.command,
        args: target.args,
        cwd: target.cwd,
        env: target.env,
      }),
    });
    const all = await client.tools();
    mcpTools = Object.fromEntries(
      ['lookup', 'plain', 'fails', 'draft7'].map((name) => [name, all[name] as ToolSet[string]]),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it('reads annotations from the MCP metadata, three states kept, and keeps _meta', async () => {
    const tools = await fromAiSdkTools(mcpTools);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.lookup?.annotations).toEqual({
      title: 'Lookup',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.plain?.annotations).toEqual({});
    expect(byName.lookup?.meta).toMatchObject({ 'dev.hintgate/resources': ['record:{key}'] });
    // Configuration wins, key by key.
    const [configured] = await fromAiSdkTools(
      { lookup: mcpTools.lookup as ToolSet[string] },
      { tools: { lookup: { annotations: { openWorldHint: true } } } },
    );
    expect(configured?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  it("in an untrusted origin the server's claims are not used, vouched annotations are; results keep isError", async () => {
    const registry = createRegistry({ tools: { plain: { annotations: READ_ONLY } } });
    registry.addOrigin({
      name: 'fixture',
      layer: 'project',
      trusted: false,
      tools: await fromAiSdkTools(mcpTools),
    });
    const runtime = createRuntime({ registry, mode: 'ask' });
    const [lookup, plain, fails, draft7] = await runtime.execute([
      { id: '1', name: 'lookup', arguments: { key: 'k' } },
      { id: '2', name: 'plain', arguments: { text: 'hi' } },
      { id: '3', name: 'fails' },
      { id: '4', name: 'draft7', arguments: {} },
    ]);
    // lookup claims read-only, but its origin is not trusted: it asks, and nobody answers.
    expect(lookup?.status).toBe('denied');
    // plain claims nothing; the configuration vouches that it is read-only.
    expect(plain).toMatchObject({
      status: 'ok',
      content: [{ type: 'text', text: 'plain {"text":"hi"}' }],
    });
    expect(fails?.status).toBe('denied');
    expect(draft7).toMatchObject({ status: 'error', error: { code: 'invalid_arguments' } });

    const trusting = createRuntime({ tools: await fromAiSdkTools(mcpTools), mode: 'yolo' });
    const [failed] = await trusting.execute([{ id: '5', name: 'fails' }]);
    expect(failed).toMatchObject({
      status: 'error',
      isError: true,
      error: { code: 'tool_error' },
      content: [{ type: 'text', text: 'lookup failed: no such record' }],
    });
  });
});
