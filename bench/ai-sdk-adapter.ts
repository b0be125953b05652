/**
 * What hintgate's AI SDK adapter adds per call to plain AI SDK tools, in one run:
 * `npx tsx --tsconfig bench/tsconfig.json bench/ai-sdk-adapter.ts [--write]`. Each run is a
 * `generateText` over the AI SDK's mock model whose first response calls a no-op read-only
 * tool CALLS times in one step and whose second answers with text.
 */
import { generateText, isStepCount, jsonSchema, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createRuntime, defineTool, READ_ONLY } from 'hintgate';
import { createAiSdkTools } from 'hintgate/ai-sdk';
import { interleave, machine, type PerCall } from './measure.js';
import { fixed, runAlone, type SectionResult, section, table } from './report.js';

const CALLS = 50;
const GOAL_US = 20;

// Written mutable: the AI SDK's jsonSchema() takes a JSONSchema7, whose arrays are not readonly.
const schema: { type: 'object'; [key: string]: unknown } = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false,
};
const noop = ({ n }: { n: number }): string => `ok ${n}`;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
/** A model whose first response calls `noop_read` CALLS times and whose second answers. */
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) =>
    prompt.at(-1)?.role === 'tool'
      ? {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        }
      : {
          content: Array.from({ length: CALLS }, (_, n) => ({
            type: 'tool-call' as const,
            toolCallId: `c${n}`,
            toolName: 'noop_read',
            input: JSON.stringify({ n }),
          })),
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
});

const plainTools: ToolSet = {
  noop_read: tool({
    description: 'Returns a short string at once.',
    inputSchema: jsonSchema<{ n: number }>(schema),
    execute: async (input) => noop(input),
  }),
};
const runtime = createRuntime({
  mode: 'auto',
  tools: [
    defineTool({
      name: 'noop_read',
      description: 'Returns a short string at once.',
      annotations: READ_ONLY,
      inputSchema: schema,
      execute: (args) => noop(args as { n: number }),
    }),
  ],
});
const calls = Array.from({ length: CALLS }, (_, n) => ({
  id: `c${n}`,
  name: 'noop_read',
  arguments: { n },
}));

type Runner = () => Promise<void>;
const checkText = (text: string): void => {
  if (text !== 'done') throw new Error(`unexpected answer ${text}`);
};
const runners: Record<'plain' | 'approval' | 'adapter' | 'runtime', Runner> = {
  plain: async () => {
    const result = await generateText({
      model,
      prompt: 'go',
      stopWhen: isStepCount(2),
      tools: plainTools,
    });
    checkText(result.text);
  },
  approval: async () => {
    const result = await generateText({
      model,
      prompt: 'go',
      stopWhen: isStepCount(2),
      tools: plainTools,
      toolApproval: { noop_read: async () => undefined },
    });
    checkText(result.text);
  },
  adapter: async () => {
    const result = await generateText({
      model,
      prompt: 'go',
      stopWhen: isStepCount(2),
      ...createAiSdkTools({ runtime }),
    });
    const failed = result.steps[0]?.toolResults.some(
      (part) => (part.output as { status?: unknown }).status !== 'ok',
    );
    if (failed !== false) throw new Error('a call through the adapter failed');
    checkText(result.text);
  },
  runtime: async () => {
    const results = await runtime.execute(calls);
    if (results.some((result) => result.status !== 'ok')) throw new Error('a call failed');
  },
};

/** Measures the section. */
export async function aiSdkSection(): Promise<SectionResult> {
  const started = machine();
  const names = ['plain', 'approval', 'adapter', 'runtime'] as const;
  const measured = await interleave(
    names.map((name) => ({ calls: CALLS, run: runners[name] })),
    { rounds: 15, runsPerRound: 20, warmupRuns: 100 },
  );
  await runtime.close();
  const [plain, approval, adapter, alone] = measured as [PerCall, PerCall, PerCall, PerCall];
  const rows = (['wallUs', 'cpuUs'] as const).map((key) => [
    key === 'wallUs' ? 'wall clock' : 'CPU (user + system)',
    fixed(plain[key], 2),
    fixed(adapter[key], 2),
    fixed(adapter[key] - plain[key], 2),
    fixed(adapter[key] / plain[key], 2),
    fixed(approval[key], 2),
    fixed(alone[key], 2),
  ]);
  return section({
    heading: '## AI SDK adapter: overhead per call against plain AI SDK tools',
    command: 'bench/ai-sdk-adapter.ts',
    started,
    method: `\`generateText\` over the mock model, one step of ${CALLS} no-op read-only calls, then text: plain AI SDK \`tool()\`; \`createAiSdkTools({ runtime })\` (mode \`auto\`, made anew per run as an app does per request); plain + a \`toolApproval\` answering at once; \`runtime.execute\` of the same calls alone. 100 warm-up runs each, 15 rotating rounds of 20 runs; median µs per call. Goal: under ${GOAL_US} CPU µs added over plain.`,
    tables: [
      table(
        [
          'measure',
          'plain µs/call',
          'adapter µs/call',
          'added µs/call',
          'adapter / plain',
          'plain + toolApproval µs/call',
          'runtime.execute µs/call',
        ],
        rows,
      ),
    ],
    goals: [
      {
        name: 'ai-sdk: CPU µs added per call',
        value: adapter.cpuUs - plain.cpuUs,
        limit: GOAL_US,
        bound: 'most',
        unit: ' µs',
      },
    ],
  });
}

runAlone(import.meta.url, aiSdkSection);
