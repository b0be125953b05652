import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, isStepCount, type ModelMessage, streamText, ToolLoopAgent } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryAuditSink } from '../../audit/index.js';
import { createRuntime, type RuntimeOptions } from '../../runtime/index.js';
import {
  fileTools,
  latch,
  streamOf,
  text,
  textChunks,
  toolCallChunks,
  toolCalls,
} from './ai-sdk.test-helpers.js';
import { approvalResponse } from './approval-response.js';
import { createAiSdkTools } from './create-ai-sdk-tools.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-ai-sdk-'));
  await writeFile(join(dir, 'a.txt'), 'old a');
  await writeFile(join(dir, 'b.txt'), 'bee');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A runtime over the file tools of the test's directory, with a memory audit sink. */
const setUp = (options: Partial<RuntimeOptions> = {}, toolOptions = {}) => {
  const events: string[] = [];
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({
    tools: fileTools(dir, events, toolOptions),
    auditSinks: [audit],
    ...options,
  });
  return { events, audit, runtime };
};

/** The tool message the model was given on its `n`th call (0-based). */
const toolMessageSeen = (model: MockLanguageModelV4, n: number) =>
  model.doGenerateCalls[n]?.prompt.filter((message) => message.role === 'tool');

const READ_A = ['c1', 'read_file', { path: 'a.txt' }] as const;
const WRITE_A = ['c2', 'write_file', { path: 'a.txt', text: 'new a' }] as const;
const READ_B = ['c3', 'read_file', { path: 'b.txt' }] as const;

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
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('new a');
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
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('new a');
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
