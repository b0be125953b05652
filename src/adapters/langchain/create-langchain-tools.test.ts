import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { HintgateError } from '../../errors/index.js';
import { stdioFixture } from '../../mcp/client/fixtures/fixtures.test-helpers.js';
import { connectMcpServer } from '../../mcp/index.js';
import { createRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import type { CallResult } from '../../tool/index.js';
import { createLangChainTools } from './create-langchain-tools.js';
import { at, fileProject, READ_WRITE_READ, toolMessages } from './langchain.test-helpers.js';

const startedBatches = (project: ReturnType<typeof fileProject>): Map<string, string> =>
  new Map(
    project.audit.events
      .filter((event) => event.type === 'call.started')
      .map((event) => [event.callId ?? '', event.batchId ?? '']),
  );

describe('createLangChainTools in createAgent (fakeModel)', () => {
  it.each(['v1', 'v2'] as const)(
    'runs one message [READ(a), WRITE(a), READ(b)] as one turn: READ(b) alongside READ(a), WRITE(a) after READ(a) (createAgent tools %s)',
    async (version) => {
      const project = fileProject({ mode: 'auto' });
      const model = fakeModel().respondWithTools(READ_WRITE_READ).respond(new AIMessage('done'));
      const agent = createAgent({
        model,
        tools: createLangChainTools({ runtime: project.runtime }),
        version,
      });
      const { messages } = await agent.invoke({ messages: [new HumanMessage('go')] });

      expect(project.overlapped()).toBe(true);
      const { events } = project;
      expect(at(events, 'start read b.txt')).toBeLessThan(at(events, 'end read a.txt'));
      expect(at(events, 'start write a.txt')).toBeGreaterThan(at(events, 'end read a.txt'));
      // Results come back as ToolMessages, in the model's order; the read saw the old text.
      expect(toolMessages(messages)).toEqual([
        'r1:success:old a',
        'w1:success:wrote a.txt',
        'r2:success:old b',
      ]);
      expect(project.files.get('a.txt')).toBe('new a');
      const batches = startedBatches(project);
      expect(new Set(batches.values()).size).toBe(1);
      expect([...batches.keys()].sort()).toEqual(['r1', 'r2', 'w1']);
      // The model's next request holds the three results.
      expect(model.calls[1]?.messages.map((m) => m.getType())).toEqual([
        'human',
        'ai',
        'tool',
        'tool',
        'tool',
      ]);
    },
  );

  it('admits the calls of a message in the model order even when a middleware holds back the first', async () => {
    const project = fileProject({ mode: 'auto' });
    const arrived: string[] = [];
    // Holds the read of a.txt back a few steps, so that the write of a.txt reaches its tool first.
    const holdBack = createMiddleware({
      name: 'HoldBack',
      wrapToolCall: async (request, handler) => {
        if (request.toolCall.id === 'r1') {
          for (let i = 0; i < 20; i += 1) await Promise.resolve();
        }
        arrived.push(request.toolCall.id ?? '');
        return handler(request);
      },
    });
    const model = fakeModel().respondWithTools(READ_WRITE_READ).respond(new AIMessage('done'));
    const agent = createAgent({
      model,
      tools: createLangChainTools({ runtime: project.runtime }),
      middleware: [holdBack],
    });
    const { messages } = await agent.invoke({ messages: [new HumanMessage('go')] });

    expect(arrived.indexOf('w1')).toBeLessThan(arrived.indexOf('r1'));
    expect(toolMessages(messages)[0]).toBe('r1:success:old a');
    expect(at(project.events, 'start write a.txt')).toBeGreaterThan(
      at(project.events, 'end read a.txt'),
    );
  });

  it('gives up on a call of the message that never reaches its tool, and runs the calls after it', async () => {
    const project = fileProject({ mode: 'auto' });
    // Answers the first call itself: it never comes to hintgate.
    const answerFirst = createMiddleware({
      name: 'AnswerFirst',
      wrapToolCall: async (request, handler) =>
        request.toolCall.id === 'r0'
          ? new ToolMessage({ content: 'cached', tool_call_id: 'r0', name: 'read_file' })
          : handler(request),
    });
    const calls = [
      { id: 'r0', name: 'read_file', args: { path: 'b.txt' } },
      { id: 'w1', name: 'write_file', args: { path: 'a.txt', text: 'new a' } },
    ];
    const agent = createAgent({
      model: fakeModel().respondWithTools(calls).respond(new AIMessage('done')),
      tools: createLangChainTools({ runtime: project.runtime }),
      middleware: [answerFirst],
    });
    const { messages } = await agent.invoke({ messages: [new HumanMessage('go')] });
    expect(toolMessages(messages)).toEqual(['r0:undefined:cached', 'w1:success:wrote a.txt']);
  });

  it('reads denials and failures to the model as tool errors, with the CallResult as artifact', async () => {
    // Mode ask without an approver: the write is denied; the read of a missing file fails.
    const project = fileProject();
    const calls = [
      { id: 'w1', name: 'write_file', args: { path: 'a.txt', text: 'new a' } },
      { id: 'r1', name: 'read_file', args: { path: 'missing.txt' } },
      { id: 'x1', name: 'no_such_tool', args: {} },
    ];
    const node = new ToolNode(createLangChainTools({ runtime: project.runtime }));
    const { messages } = (await node.invoke({
      messages: [new AIMessage({ content: '', tool_calls: calls })],
    })) as { messages: ToolMessage[] };

    const [write, read, unknown] = messages;
    expect(write?.status).toBe('error');
    expect(String(write?.content)).toMatch(/approv/i);
    expect((write?.artifact as CallResult | undefined)?.status).toBe('denied');
    expect(read?.status).toBe('error');
    expect(String(read?.content)).toContain('no such file: missing.txt');
    expect((read?.artifact as CallResult | undefined)?.error?.code).toBe('tool_error');
    // A tool the set does not have is LangChain's own error.
    expect(unknown?.status).toBe('error');
    expect(project.files.get('a.txt')).toBe('old a');
  });

  it('answers a plain invoke (no tool call) with a ToolMessage of its own id', async () => {
    const project = fileProject({ mode: 'auto' });
    const [read] = createLangChainTools({ runtime: project.runtime });
    const message = (await read?.invoke({ path: 'b.txt' })) as ToolMessage;
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.status).toBe('success');
    expect(message.content).toBe('old b');
    expect(message.tool_call_id).toMatch(/^langchain-/);
    expect(
      project.audit.events.some(
        (e) => e.type === 'call.succeeded' && e.callId === message.tool_call_id,
      ),
    ).toBe(true);
  });

  it('lists the tools with their JSON Schemas and annotations', () => {
    const project = fileProject();
    const tools = createLangChainTools({ runtime: project.runtime });
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'write_file']);
    const [read] = tools;
    expect(read?.description).toBe('Read a file.');
    expect(read?.schema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    expect(read?.metadata).toEqual({
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
  });

  it('refuses bad options with what to pass', () => {
    const { runtime } = fileProject();
    expect(() => createLangChainTools({} as never)).toThrow(HintgateError);
    expect(() => createLangChainTools({ runtime, scope: ['x'] } as never)).toThrow(
      /unknown option "scope"/,
    );
    expect(() => createLangChainTools({ runtime, session: 3 } as never)).toThrow(/session/);
  });
});

describe('createLangChainTools with remote MCP tools', () => {
  it('runs a tool of an MCP server in the runtime registry, as LangGraph ToolNode asks', async () => {
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'fixture',
      registry,
      trusted: true,
      ...stdioFixture(),
    });
    try {
      const runtime = createRuntime({ registry, mode: 'yolo' });
      const tools = createLangChainTools({ runtime });
      const lookup = tools.find((t) => t.name === 'lookup');
      expect(lookup?.schema).toMatchObject({ properties: { key: { type: 'string' } } });
      const node = new ToolNode(tools);
      const { messages } = (await node.invoke({
        messages: [
          new AIMessage({
            content: '',
            tool_calls: [
              { id: 'l1', name: 'lookup', args: { key: 'k1' } },
              { id: 'f1', name: 'fails', args: {} },
            ],
          }),
        ],
      })) as { messages: ToolMessage[] };
      expect(messages.map((m) => [m.tool_call_id, m.status])).toEqual([
        ['l1', 'success'],
        ['f1', 'error'],
      ]);
      expect(JSON.parse(String(messages[0]?.content))).toEqual({ found: true, key: 'k1' });
      expect(String(messages[1]?.content)).toContain('lookup failed: no such record');
    } finally {
      await connection.close();
    }
  });
});
