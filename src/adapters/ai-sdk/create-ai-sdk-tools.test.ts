import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateText, isStepCount, streamText, ToolLoopAgent } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createMemoryAuditSink } from '../../audit/index.js';
import { HintgateError } from '../../errors/index.js';
import { connectMcpServer } from '../../mcp/client/connect-mcp-server.js';
import { stdioFixture } from '../../mcp/client/fixtures/fixtures.test-helpers.js';
import { createRegistry } from '../../registry/index.js';
import { createRuntime, type RuntimeOptions } from '../../runtime/index.js';
import { defineTool, WRITE } from '../../tool/index.js';
import {
  fileRuntime,
  latch,
  READ_A,
  READ_B,
  streamOf,
  text,
  textChunks,
  toolCallChunks,
  toolCalls,
  toolMessageSeen,
  useFileDir,
  WRITE_A,
} from './ai-sdk.test-helpers.js';
import { createAiSdkTools } from './create-ai-sdk-tools.js';

const dir = useFileDir();

/** A runtime over the file tools of the test's directory, with a memory audit sink. */
const setUp = (options: Partial<RuntimeOptions> = {}, toolOptions = {}) =>
  fileRuntime(dir(), options, toolOptions);

describe('createAiSdkTools: one step of [READ(a), WRITE(a), READ(b)]', () => {
  it('runs READ(b) alongside READ(a) and WRITE(a) after READ(a), in one hintgate turn', async () => {
    const readB = latch();
    const { events, audit, runtime } = setUp(
      { mode: 'auto' },
      {
        holdRead: { 'a.txt': readB },
        onStart: (name: string, path: string) => {
          if (name === 'read_file' && path === 'b.txt') readB.open();
        },
      },
    );
    const model = new MockLanguageModelV4({
      doGenerate: [toolCalls([READ_A, WRITE_A, READ_B]), text('done')],
    });
    const result = await generateText({
      model,
      prompt: 'update a',
      stopWhen: isStepCount(2),
      ...createAiSdkTools({ runtime }),
    });

    // READ(a) ends only once READ(b) has started: they overlap.
    expect(events.indexOf('start c3')).toBeLessThan(events.indexOf('end c1'));
    // WRITE(a) starts only once READ(a) has ended.
    expect(events.indexOf('start c2')).toBeGreaterThan(events.indexOf('end c1'));
    expect(await readFile(join(dir(), 'a.txt'), 'utf8')).toBe('new a');
    // READ(a) read what was there before the write.
    const [step] = result.steps;
    const outputs = step?.content.filter((part) => part.type === 'tool-result');
    expect(
      outputs?.map((part) => [part.toolCallId, part.output.status, part.output.isError]),
    ).toEqual([
      ['c1', 'ok', false],
      ['c2', 'ok', false],
      ['c3', 'ok', false],
    ]);
    expect(toolMessageSeen(model, 1)?.[0]?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'read_file',
        output: { type: 'text', value: 'old a' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'write_file',
        output: { type: 'text', value: '{"written":"a.txt"}' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c3',
        toolName: 'read_file',
        output: { type: 'text', value: 'bee' },
      },
    ]);
    // One turn: the three calls share a batch id in the audit log.
    const started = audit.events.filter((event) => event.type === 'call.started');
    expect(new Set(started.map((event) => event.batchId)).size).toBe(1);
    expect(result.text).toBe('done');
  });
});

describe('createAiSdkTools: order', () => {
  it('keeps the model order when the SDK reaches execute in another order', async () => {
    const { events, runtime } = setUp({ mode: 'auto' });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCalls([READ_A, WRITE_A, READ_B]), text('done')],
    });
    const reached: string[] = [];
    await generateText({
      model,
      prompt: 'update a',
      stopWhen: isStepCount(2),
      ...createAiSdkTools({ runtime }),
      // The app's callback holds READ(a) back, so the SDK calls execute for it last.
      onToolExecutionStart: async ({ toolCall }) => {
        if (toolCall.toolCallId === 'c1') {
          await new Promise((resolve) => setImmediate(resolve));
          await new Promise((resolve) => setImmediate(resolve));
        }
        reached.push(toolCall.toolCallId);
      },
    });
    expect(reached).toEqual(['c2', 'c3', 'c1']);
    expect(events.indexOf('start c2')).toBeGreaterThan(events.indexOf('end c1'));
    expect(await readFile(join(dir(), 'a.txt'), 'utf8')).toBe('new a');
  });

  it('streamText: runs the streamed step with the same order and overlap', async () => {
    const readB = latch();
    const { events, runtime } = setUp(
      { mode: 'auto' },
      {
        holdRead: { 'a.txt': readB },
        onStart: (name: string, path: string) => {
          if (name === 'read_file' && path === 'b.txt') readB.open();
        },
      },
    );
    const model = new MockLanguageModelV4({
      doStream: [streamOf(toolCallChunks([READ_A, WRITE_A, READ_B])), streamOf(textChunks('done'))],
    });
    const result = streamText({
      model,
      prompt: 'update a',
      stopWhen: isStepCount(2),
      ...createAiSdkTools({ runtime }),
    });
    const parts: string[] = [];
    for await (const part of result.stream) {
      if (part.type === 'tool-result') parts.push(`${part.toolCallId} ${part.output.status}`);
    }
    expect(parts.sort()).toEqual(['c1 ok', 'c2 ok', 'c3 ok']);
    expect(events.indexOf('start c3')).toBeLessThan(events.indexOf('end c1'));
    expect(events.indexOf('start c2')).toBeGreaterThan(events.indexOf('end c1'));
    expect(await result.text).toBe('done');
  });

  it('ToolLoopAgent: takes the same tools and approval check', async () => {
    const { events, runtime } = setUp({ mode: 'auto' });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCalls([READ_A, WRITE_A, READ_B]), text('done')],
    });
    const agent = new ToolLoopAgent({ model, ...createAiSdkTools({ runtime }) });
    const result = await agent.generate({ prompt: 'update a' });
    expect(result.text).toBe('done');
    expect(events.indexOf('start c2')).toBeGreaterThan(events.indexOf('end c1'));
  });

  it('does not hang on a checked call the SDK never runs (the app overruled the check)', async () => {
    const { events, runtime } = setUp({ mode: 'auto' });
    const hintgate = createAiSdkTools({ runtime, orderGraceMs: 20 });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCalls([READ_A, WRITE_A, READ_B]), text('done')],
    });
    const result = await generateText({
      model,
      prompt: 'update a',
      stopWhen: isStepCount(2),
      tools: hintgate.tools,
      toolApproval: {
        ...hintgate.toolApproval,
        // The app asks about every read of a.txt itself, after hintgate's check said "run".
        read_file: async (input, options) => {
          const status = await hintgate.toolApproval.read_file?.(input, options);
          return (input as { path: string }).path === 'a.txt' ? 'user-approval' : status;
        },
      },
    });
    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toHaveLength(1);
    expect(events).toContain('end c2');
    expect(events).toContain('end c3');
    expect(events).not.toContain('start c1');
  });
});

describe('createAiSdkTools: the tools of a runtime', () => {
  it("offers remote MCP tools of the runtime's registry; their errors read as tool errors", async () => {
    const registry = createRegistry();
    const connection = await connectMcpServer({
      name: 'fixture',
      registry,
      trusted: true,
      ...stdioFixture(),
    });
    try {
      const runtime = createRuntime({ registry, mode: 'yolo' });
      const { tools } = createAiSdkTools({ runtime });
      expect(Object.keys(tools)).toEqual(runtime.listTools().map((listing) => listing.name));
      expect(tools.lookup).toMatchObject({
        type: 'dynamic',
        description: 'Reads one record; changes nothing.',
        metadata: { annotations: { readOnlyHint: true, title: 'Lookup' } },
      });
      const model = new MockLanguageModelV4({
        doGenerate: [
          toolCalls([
            ['m1', 'lookup', { key: 'k1' }],
            ['m2', 'fails', {}],
          ]),
          text('ok'),
        ],
      });
      const result = await generateText({
        model,
        prompt: 'x',
        stopWhen: isStepCount(2),
        ...createAiSdkTools({ runtime }),
      });
      expect(
        result.steps[0]?.content
          .filter((part) => part.type === 'tool-result')
          .map((part) => [part.toolCallId, part.output.isError, part.output.error?.code]),
      ).toEqual([
        ['m1', false, undefined],
        ['m2', true, 'tool_error'],
      ]);
      expect(
        toolMessageSeen(model, 1)?.[0]?.content.map((part) =>
          'output' in part ? part.output : part,
        ),
      ).toEqual([
        { type: 'text', value: '{"found":true,"key":"k1"}' },
        { type: 'error-text', value: 'lookup failed: no such record' },
      ]);
    } finally {
      await connection.close();
    }
  });

  it('lists only what the scopes and mode allow, and checks its options', () => {
    const { runtime } = setUp({ mode: 'plan' });
    expect(Object.keys(createAiSdkTools({ runtime }).tools)).toEqual(['read_file']);
    expect(() => createAiSdkTools({} as never)).toThrow(
      /createAiSdkTools: runtime must be a runtime made by createRuntime/,
    );
    expect(() => createAiSdkTools({ runtime, remember: 'forever' as never })).toThrow(
      HintgateError,
    );
    expect(() => createAiSdkTools({ runtime, sesion: 'x' } as never)).toThrow(
      /unknown option "sesion"/,
    );
  });
});

describe('createAiSdkTools: cancellation', () => {
  it("aborting generateText aborts the running call's tool and cancels the queued one behind it", async () => {
    const started = latch();
    const seen: string[] = [];
    const audit = createMemoryAuditSink();
    const hang = defineTool({
      name: 'hang',
      description: 'Writes slowly, until aborted.',
      annotations: WRITE,
      inputSchema: { type: 'object', properties: {} },
      resources: ['file:x'],
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          started.open();
          signal.addEventListener('abort', () => {
            seen.push(String(signal.reason?.name));
            reject(signal.reason);
          });
        }),
    });
    const runtime = createRuntime({ tools: [hang], mode: 'yolo', auditSinks: [audit] });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCalls([
          ['h1', 'hang', {}],
          ['h2', 'hang', {}],
        ]),
        text('never'),
      ],
    });
    const controller = new AbortController();
    const run = generateText({
      model,
      prompt: 'x',
      stopWhen: isStepCount(2),
      abortSignal: controller.signal,
      ...createAiSdkTools({ runtime }),
    });
    await started.opened;
    controller.abort();
    await expect(run).rejects.toThrow();
    await runtime.close({ graceMs: 5_000 });
    expect(seen).toEqual(['AbortError']);
    const ends = audit.events.filter((e) => e.type === 'call.failed');
    expect(ends.map((e) => [e.callId, e.status]).sort()).toEqual([
      ['h1', 'cancelled'],
      ['h2', 'cancelled'],
    ]);
  });
});
