/**
 * Overhead per call of hintgate's AI SDK adapter against the AI SDK's plain tool execution,
 * in one run: `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/ai-sdk-adapter.ts
 * [--write]`. Runs against the built package (dist/), like `npm run bench`.
 *
 * Each round runs `generateText` over the AI SDK's mock model (MockLanguageModelV4), whose
 * first response calls a no-op read-only tool CALLS times in one step and whose second
 * answers with text, once with plain AI SDK tools (`tool({ inputSchema: jsonSchema(...),
 * execute })`) and once with the same tool defined in hintgate and handed to the SDK by
 * `createAiSdkTools({ runtime })` (tools and toolApproval, made anew for every
 * `generateText`, as an app does per request), taking turns in alternating order. Also
 * measured: the plain tool with a no-op `toolApproval` (the SDK's own approval check), and the
 * same calls through `runtime.execute` alone (no AI SDK), hintgate's share.
 * With `--write`, the section replaces its own in bench/RESULTS.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateText, isStepCount, jsonSchema, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createRuntime, defineTool, READ_ONLY } from 'hintgate';
import { createAiSdkTools } from 'hintgate/ai-sdk';
import { fixed, loadNow, machine, median, table, yesNo } from './report.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    write: { type: 'boolean', default: false },
  },
});

const SECTION = '## AI SDK adapter: overhead per call against plain AI SDK tools';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CALLS = 50;
const WARMUP_RUNS = 100;
const RUNS_PER_ROUND = 20;
const ROUNDS = Number(values.rounds);
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

/** µs per call of one round, as wall clock and as CPU time of this process. */
interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

async function round(run: Runner, runs: number): Promise<Sample> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < runs; i += 1) await run();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall: (wall * 1000) / (runs * CALLS), cpu: (cpu.user + cpu.system) / (runs * CALLS) };
}

async function main(): Promise<void> {
  const host = machine();
  const names = ['plain', 'approval', 'adapter', 'runtime'] as const;
  for (const name of names) await round(runners[name], WARMUP_RUNS);
  const samples = {
    plain: [] as Sample[],
    approval: [] as Sample[],
    adapter: [] as Sample[],
    runtime: [] as Sample[],
  };
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = r % 2 === 0 ? names : ([...names].reverse() as (typeof names)[number][]);
    for (const name of order) samples[name].push(await round(runners[name], RUNS_PER_ROUND));
  }
  await runtime.close();
  const at = (name: keyof typeof samples, key: keyof Sample): number =>
    median(samples[name].map((sample) => sample[key]));
  const rows = (['wall', 'cpu'] as const).map((key) => {
    const plain = at('plain', key);
    const adapter = at('adapter', key);
    const added = adapter - plain;
    return [
      key === 'wall' ? 'wall clock' : 'CPU (user + system)',
      fixed(plain, 2),
      fixed(adapter, 2),
      fixed(added, 2),
      fixed(adapter / plain, 2),
      fixed(at('approval', key), 2),
      fixed(at('runtime', key), 2),
      yesNo(added < GOAL_US),
    ];
  });
  const body = `${SECTION}

\`bench/ai-sdk-adapter.ts --write\`, against the built package. Goal: under ${GOAL_US} µs added per call.

Method: \`generateText\` over the mock model, one step of ${CALLS} no-op read-only calls, then text. Plain AI SDK \`tool()\`; adapter \`createAiSdkTools({ runtime })\` (mode \`auto\`); plain + a \`toolApproval\` answering at once; \`runtime.execute\` alone. ${WARMUP_RUNS} warm-up runs, ${ROUNDS} alternating rounds of ${RUNS_PER_ROUND}; medians, µs per call.

- Machine: ${host.cpu}, ${host.cores} cores, ${fixed(host.memoryGiB, 1)} GiB; Node ${host.node}; ${host.date}; load average (1 min) at the start: ${fixed(host.load, 2)}, at the end: ${fixed(loadNow(), 2)}

${table(['measure', 'plain µs/call', 'adapter µs/call', 'added µs/call', 'adapter / plain', 'plain + toolApproval µs/call', 'runtime.execute µs/call', `added under ${GOAL_US} µs`], rows)}
`;
  process.stdout.write(`${body}`);
  if (values.write === true) {
    const path = join(ROOT, 'bench', 'RESULTS.md');
    const text = readFileSync(path, 'utf8');
    const start = text.indexOf(SECTION);
    if (start < 0) writeFileSync(path, `${text.trimEnd()}\n\n${body}`);
    else {
      const next = text.indexOf('\n## ', start + SECTION.length);
      writeFileSync(
        path,
        `${text.slice(0, start)}${body}${next < 0 ? '' : `\n${text.slice(next + 1)}`}`,
      );
    }
  }
}

await main();
