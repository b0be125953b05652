import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../../audit/index.js';
import { createRuntime, type RuntimeOptions } from '../../runtime/index.js';
import { defineTool, READ_ONLY, WRITE } from '../../tool/index.js';

type MockOptions = NonNullable<ConstructorParameters<typeof MockLanguageModelV4>[0]>;
/** One scripted response of `doGenerate`. */
type LanguageModelV4GenerateResult = Extract<
  NonNullable<MockOptions['doGenerate']>,
  unknown[]
>[number];
type StreamResult = Extract<NonNullable<MockOptions['doStream']>, unknown[]>[number];
/** One chunk of a scripted `doStream` response. */
type LanguageModelV4StreamPart =
  StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;

/** Token usage a scripted model response reports. */
export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A scripted model response that calls tools: `[id, tool, input]` in the model's order. */
export function toolCalls(
  calls: ReadonlyArray<readonly [string, string, unknown]>,
): LanguageModelV4GenerateResult {
  return {
    content: calls.map(([toolCallId, toolName, input]) => ({
      type: 'tool-call' as const,
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  };
}

/** A scripted model response of text only. */
export function text(value: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text: value }],
    finishReason: { unified: 'stop', raw: undefined },
    usage,
    warnings: [],
  };
}

/** The stream of a scripted response: tool calls, one chunk each, then the finish. */
export function toolCallChunks(
  calls: ReadonlyArray<readonly [string, string, unknown]>,
): LanguageModelV4StreamPart[] {
  return [
    ...calls.map(([toolCallId, toolName, input]) => ({
      type: 'tool-call' as const,
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
  ];
}

/** The stream of a scripted text response. */
export function textChunks(value: string): LanguageModelV4StreamPart[] {
  return [
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: value },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
  ];
}

/** A scripted streamed response whose chunks are all there at once. */
export function streamOf(parts: readonly LanguageModelV4StreamPart[]): StreamResult {
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/** A promise opened from outside. */
export interface Latch {
  readonly opened: Promise<void>;
  open(): void;
}

/** A latch: `opened` resolves once `open` was called. */
export function latch(): Latch {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * `read_file` (read-only) and `write_file` (write) over files of `dir`, both keyed
 * `file:{path}`, which log `start <id>` and `end <id>` into `events`. `holdRead` maps a
 * path to a latch its read waits for before it ends (a bound on the wait fails the call
 * instead of hanging the test); `onStart` hears every start.
 */
export function fileTools(
  dir: string,
  events: string[],
  options: {
    readonly holdRead?: Readonly<Record<string, Latch>>;
    readonly onStart?: (name: string, path: string) => void;
  } = {},
) {
  const path = z.object({ path: z.string() });
  const read = defineTool({
    name: 'read_file',
    description: 'Read a file.',
    annotations: READ_ONLY,
    inputSchema: path,
    resources: ['file:{path}'],
    execute: async (args, { callId }) => {
      events.push(`start ${callId}`);
      options.onStart?.('read_file', args.path);
      const hold = options.holdRead?.[args.path];
      if (hold !== undefined) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const bound = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`read of ${args.path} was held too long`)),
            10_000,
          );
        });
        try {
          await Promise.race([hold.opened, bound]);
        } finally {
          clearTimeout(timer);
        }
      }
      const content = await readFile(join(dir, args.path), 'utf8');
      events.push(`end ${callId}`);
      return content;
    },
  });
  const write = defineTool({
    name: 'write_file',
    description: 'Write a file.',
    annotations: WRITE,
    inputSchema: z.object({ path: z.string(), text: z.string() }),
    resources: ['file:{path}'],
    execute: async (args, { callId }) => {
      events.push(`start ${callId}`);
      options.onStart?.('write_file', args.path);
      await writeFile(join(dir, args.path), args.text);
      events.push(`end ${callId}`);
      return { written: args.path };
    },
  });
  return [read, write];
}

/**
 * A fresh temp directory per test holding `a.txt` ("old a") and `b.txt` ("bee"), removed
 * after it: call at the top of a test file, and read the directory with the returned getter.
 */
export function useFileDir(): () => string {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-ai-sdk-'));
    await writeFile(join(dir, 'a.txt'), 'old a');
    await writeFile(join(dir, 'b.txt'), 'bee');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/** A runtime over the {@link fileTools} of `dir`, with a memory audit sink. */
export function fileRuntime(
  dir: string,
  options: Partial<RuntimeOptions> = {},
  toolOptions: Parameters<typeof fileTools>[2] = {},
) {
  const events: string[] = [];
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({
    tools: fileTools(dir, events, toolOptions),
    auditSinks: [audit],
    ...options,
  });
  return { events, audit, runtime };
}

/** The tool messages the model was given on its `n`th call (0-based). */
export const toolMessageSeen = (model: MockLanguageModelV4, n: number) =>
  model.doGenerateCalls[n]?.prompt.filter((message) => message.role === 'tool');

/** The calls of the test step `[READ(a), WRITE(a), READ(b)]`. */
export const READ_A = ['c1', 'read_file', { path: 'a.txt' }] as const;
export const WRITE_A = ['c2', 'write_file', { path: 'a.txt', text: 'new a' }] as const;
export const READ_B = ['c3', 'read_file', { path: 'b.txt' }] as const;
