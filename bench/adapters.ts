/**
 * Section `adapters`: what hintgate's framework adapters add per call to each framework's
 * plain tools. One no-op tool per framework, made by the framework itself (plain) and by the
 * adapter over a hintgate runtime, driven the way the framework drives a response's calls;
 * each setup's variants take turns in rounds.
 */
import { AIMessage, type ToolCall } from '@langchain/core/messages';
import { type DynamicStructuredTool, tool as langchainTool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { Agent, tool as agentsTool, RunContext, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { tool as aiTool, generateText, isStepCount, jsonSchema, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createRuntime, defineTool, READ_ONLY, type Runtime, WRITE } from 'hintgate';
import { createAiSdkTools } from 'hintgate/ai-sdk';
import { createLangChainTools } from 'hintgate/langchain';
import { createAgentsTools } from 'hintgate/openai-agents';
import { interleave, type PerCall, version } from './measure.js';
import { type Goal, goal, type Result, type Row, table } from './report.js';

// Written mutable: the AI SDK's jsonSchema() takes a JSONSchema7, whose arrays are not readonly.
const schema: { type: 'object'; [key: string]: unknown } = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false,
};
const addOne = ({ n }: { n: number }): string => String(n + 1);

/** The same no-op tool in hintgate; writes all touch one key, so hintgate runs them in order. */
const runtimeOf = (kind: 'read' | 'write' = 'read'): Runtime =>
  createRuntime({
    mode: 'yolo',
    tools: [
      defineTool({
        name: 'add_one',
        description: 'Adds one.',
        annotations: kind === 'read' ? READ_ONLY : WRITE,
        inputSchema: schema,
        ...(kind === 'write' ? { resources: ['counter:one'] } : {}),
        execute: (args) => addOne(args as { n: number }),
      }),
    ],
  });

/** One measured setup: runs of each variant (the first is plain) and the calls a run makes. */
interface Setup {
  readonly scenario: string;
  readonly calls: number;
  /** Calls per round of each variant (runs per round = this / calls, at least 4). */
  readonly perRound: number;
  /** Whether the adapter's CPU µs added over plain is a goal (else a reference row). */
  readonly judged: boolean;
  readonly variants: Readonly<Record<string, () => Promise<unknown>>>;
  readonly runtime: Runtime;
}

setTracingDisabled(true);
const parameters = {
  type: 'object' as const,
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false as const,
};
type AgentsTool = ReturnType<typeof agentsTool>;

/** The OpenAI Agents SDK: the tool path its runner takes for one response's calls, and whole runs. */
function openaiAgents(): Setup[] {
  type Execute = (input: unknown, callId?: string) => string | Promise<string>;
  const sdkTool = (execute: Execute, checked: boolean) =>
    agentsTool({
      name: 'add_one',
      description: 'Adds one.',
      parameters,
      // A per-call check makes the runner keep approval records, as it does for the adapter.
      ...(checked ? { needsApproval: async () => false } : {}),
      execute: (input, _context, details) => execute(input, details?.toolCall?.callId),
    });
  const plain = (checked: boolean): AgentsTool =>
    sdkTool((input) => addOne(input as { n: number }), checked);
  // What an app writes without the adapter: each call handed to the runtime in a turn of its own.
  const glue = (runtime: Runtime): AgentsTool =>
    sdkTool(async (input, callId = 'call') => {
      const call = { id: callId, name: 'add_one', arguments: input };
      const [block] = (await runtime.turn().call(call)).content;
      return block?.type === 'text' ? block.text : '';
    }, true);
  const setup = (count: number, kind: 'read' | 'write', whole: boolean, scenario: string) => {
    const runtime = runtimeOf(kind);
    const calls = Array.from({ length: count }, (_, n) => ({
      args: { n },
      item: functionCall('add_one', { n }, { callId: `c${n}` }),
    }));
    const toolPath = (target: AgentsTool) => async () => {
      const context = new RunContext();
      await Promise.all(
        calls.map(async ({ args, item }) => {
          if (await target.needsApproval(context, args, item.callId)) throw new Error('approval');
          return target.invoke(context, JSON.stringify(args), { toolCall: item });
        }),
      );
    };
    const runPath = (target: AgentsTool) => {
      const model = new ScriptedModel();
      const agent = new Agent({ name: 'bench', model, tools: [target] });
      return async () => {
        model.enqueue(
          calls.map(({ item }) => item),
          [assistantMessage('done')],
        );
        if ((await run(agent, 'go')).finalOutput !== 'done') throw new Error('run unfinished');
      };
    };
    const drive = whole ? runPath : toolPath;
    const [adapter] = createAgentsTools({ runtime }) as unknown as AgentsTool[];
    return {
      scenario,
      calls: count,
      perRound: whole ? 400 : 4000,
      judged: !whole,
      runtime,
      variants: {
        'plain `tool()`': drive(plain(false)),
        'plain + `needsApproval`': drive(plain(true)),
        'glue to `runtime.turn()`': drive(glue(runtime)),
        adapter: drive(adapter as AgentsTool),
      },
    };
  };
  return [
    setup(1, 'read', false, 'tool path, 1 read per response'),
    setup(10, 'read', false, 'tool path, 10 reads per response'),
    setup(100, 'read', false, 'tool path, 100 reads per response'),
    setup(100, 'write', false, 'tool path, 100 writes of one key per response'),
    setup(1, 'read', true, 'whole `run()`: 1 read, then a message'),
    setup(10, 'read', true, 'whole `run()`: 10 reads, then a message'),
  ];
}

/** The AI SDK: `generateText` over its mock model, one step of 50 reads, then text. */
function aiSdk(): Setup[] {
  const count = 50;
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => ({
      content:
        prompt.at(-1)?.role === 'tool'
          ? [{ type: 'text' as const, text: 'done' }]
          : Array.from({ length: count }, (_, n) => ({
              type: 'tool-call' as const,
              toolCallId: `c${n}`,
              toolName: 'add_one',
              input: JSON.stringify({ n }),
            })),
      finishReason: {
        unified: prompt.at(-1)?.role === 'tool' ? ('stop' as const) : ('tool-calls' as const),
        raw: undefined,
      },
      usage,
      warnings: [],
    }),
  });
  const plain: ToolSet = {
    add_one: aiTool({
      description: 'Adds one.',
      inputSchema: jsonSchema<{ n: number }>(schema),
      execute: async (input) => addOne(input),
    }),
  };
  const runtime = runtimeOf();
  const generate =
    (options: Pick<Parameters<typeof generateText>[0], 'tools' | 'toolApproval'>) => async () => {
      const result = await generateText({
        model,
        prompt: 'go',
        stopWhen: isStepCount(2),
        ...options,
      });
      const failed = result.steps[0]?.toolResults.some(
        (part) =>
          typeof part.output === 'object' && (part.output as { status?: unknown }).status !== 'ok',
      );
      if (result.text !== 'done' || failed !== false) throw new Error('a call or the run failed');
    };
  const calls = Array.from({ length: count }, (_, n) => ({
    id: `c${n}`,
    name: 'add_one',
    arguments: { n },
  }));
  return [
    {
      scenario: `\`generateText\`, one step of ${count} reads`,
      calls: count,
      perRound: 1000,
      judged: true,
      runtime,
      variants: {
        'plain `tool()`': generate({ tools: plain }),
        'plain + `toolApproval`': generate({
          tools: plain,
          toolApproval: { add_one: async () => undefined },
        }),
        // Made anew per run, as an app does per request.
        adapter: () => generate(createAiSdkTools({ runtime }))(),
        'reference: `runtime.execute` alone': async () => {
          if ((await runtime.execute(calls)).some((r) => r.status !== 'ok'))
            throw new Error('failed');
        },
      },
    },
  ];
}

/** LangChain: LangGraph's `ToolNode` (10 and 1 calls per message) and `tool.invoke(toolCall)`. */
function langchain(): Setup[] {
  const runtime = runtimeOf();
  // A JSON Schema of an object makes tool() return a DynamicStructuredTool.
  const plain = langchainTool(async (input: { n: number }) => addOne(input), {
    name: 'add_one',
    description: 'Adds one.',
    schema,
  }) as DynamicStructuredTool;
  const [adapter] = createLangChainTools({ runtime });
  if (adapter === undefined) throw new Error('the adapter listed no tool');
  const callsOf = (count: number): ToolCall[] =>
    Array.from({ length: count }, (_, n) => ({
      type: 'tool_call',
      id: `c${n}`,
      name: 'add_one',
      args: { n },
    }));
  const node = (count: number, scenario: string): Setup => {
    const message = new AIMessage({ content: '', tool_calls: callsOf(count) });
    const drive = (target: DynamicStructuredTool) => {
      const toolNode = new ToolNode([target]);
      return () => toolNode.invoke({ messages: [message] });
    };
    const variants = { 'plain `tool()`': drive(plain), adapter: drive(adapter) };
    return { scenario, calls: count, perRound: 4000, judged: true, runtime, variants };
  };
  const [one] = callsOf(1) as [ToolCall];
  return [
    node(10, 'LangGraph `ToolNode`, 10 calls per message'),
    node(1, 'LangGraph `ToolNode`, 1 call per message'),
    {
      scenario: '`tool.invoke(toolCall)`, one call at a time',
      calls: 1,
      perRound: 4000,
      judged: true,
      runtime,
      variants: { 'plain `tool()`': () => plain.invoke(one), adapter: () => adapter.invoke(one) },
    },
  ];
}

/** Section `adapters`. */
export async function adapters(): Promise<Result> {
  const goals: Goal[] = [];
  const rows: Row[] = [];
  const setups = { 'openai-agents': openaiAgents(), 'ai-sdk': aiSdk(), langchain: langchain() };
  for (const [framework, list] of Object.entries(setups)) {
    for (const setup of list) {
      const runs = Math.max(4, Math.round(setup.perRound / setup.calls));
      const names = Object.keys(setup.variants);
      const measured = await interleave(
        Object.values(setup.variants).map((run) => ({ calls: setup.calls, run })),
        { rounds: 15, runsPerRound: runs, warmupRuns: runs * 5 },
      );
      const plain = measured[0] as PerCall;
      for (const [index, name] of names.entries()) {
        const m = measured[index] as PerCall;
        if (name === 'adapter' && setup.judged)
          goals.push(
            goal(
              `${framework}, ${setup.scenario}: adapter CPU µs added over plain`,
              m.cpuUs - plain.cpuUs,
              20,
              'µs',
            ),
          );
        rows.push({
          framework,
          setup: setup.judged ? setup.scenario : `${setup.scenario} (reference)`,
          variant: name,
          'CPU µs/call': m.cpuUs,
          'CPU - plain µs': m.cpuUs - plain.cpuUs,
          'CPU / plain': m.cpuUs / plain.cpuUs,
          'wall µs/call': m.wallUs,
          'wall / plain': m.wallUs / plain.wallUs,
        });
      }
    }
    for (const runtime of new Set(list.map((setup) => setup.runtime))) await runtime.close();
  }
  const versions = ['@openai/agents', 'ai', '@langchain/langgraph'].map(
    (name) => `\`${name}\` ${version(name)}`,
  );
  return {
    method: `${versions.join(', ')}. One no-op tool (\`add_one\`) made by the framework (plain) and by hintgate's adapter over a runtime in mode \`yolo\`, plus references: for the OpenAI Agents SDK, plain with a \`needsApproval\` answering no and the SDK tool handing each call to \`runtime.turn()\` (glue: glue - plain is hintgate's share, adapter - glue the adapter's); for the AI SDK, plain with a \`toolApproval\` and \`runtime.execute\` of the same calls alone. Each setup's variants take turns in 15 rotating rounds of about 4000 calls (400 for whole runs, 1000 for \`generateText\`) after 5 rounds' warm-up; median µs per call.`,
    tables: [table(rows)],
    goals,
  };
}
